import { describeInChange } from './audit-in-change';
import type { Harness } from '../harness';
import { createImage } from '../image-factories';

// Every write of staging configs and file mappings writes its audit event in the change's own
// transaction.

type Wire = Record<string, Record<string, string>>;

async function zoneAndImage(h: Harness) {
  const zone = await h.call('create_zone', {
    target_zone: { name: 'eu', proxy_hostname: 'desk.example.com' },
  });
  expect(zone.statusCode).toBe(200);
  return { zone_id: zone.json().zone.zone_id as string, image_id: await createImage(h.db) };
}
async function stagingConfig(h: Harness) {
  const res = await h.call('create_staging_config', {
    target_staging_config: { ...(await zoneAndImage(h)), num_sessions: 2, expiration: 1 },
  });
  expect(res.statusCode).toBe(200);
  return res.json().staging_config.staging_config_id as string;
}
const configs = (h: Harness) => h.db.stagingConfig.findMany({ select: { numSessions: true } });

const SCRIPT = '#!/bin/sh\necho hello\n';
async function mapping(h: Harness) {
  const image_id = await createImage(h.db);
  const res = await h.call('create_file_mapping', {
    target_file_mapping: { image_id, name: 'hello', destination: '/hello.sh', content: SCRIPT },
  });
  expect(res.statusCode).toBe(200);
  return res.json().file_mapping.file_mapping_id as string;
}
const mappings = (h: Harness) =>
  h.db.fileMapping.findMany({ select: { destination: true, content: true } });

describeInChange([
  {
    operation: 'create_staging_config',
    table: 'staging_config',
    arrange: async (h) => ({
      target_staging_config: { ...(await zoneAndImage(h)), num_sessions: 2, expiration: 1 },
    }),
    state: configs,
    targetId: (_body, answer) => answer.staging_config.staging_config_id,
    snapshots: (before, after) => {
      expect(before).toBeNull();
      expect(after).toMatchObject({ num_sessions: 2, num_staged: 0, num_starting: 0 });
    },
  },
  {
    operation: 'update_staging_config',
    table: 'staging_config',
    arrange: async (h) => ({
      target_staging_config: { staging_config_id: await stagingConfig(h), num_sessions: 3 },
    }),
    state: configs,
    targetId: (body: Wire) => body.target_staging_config.staging_config_id,
    snapshots: (before, after) => {
      expect(before).toMatchObject({ num_sessions: 2, num_staged: 0 });
      expect(after).toMatchObject({ num_sessions: 3, num_staged: 0 });
    },
  },
  {
    operation: 'delete_staging_config',
    table: 'staging_config',
    arrange: async (h) => ({
      target_staging_config: { staging_config_id: await stagingConfig(h) },
    }),
    state: configs,
    targetId: (body: Wire) => body.target_staging_config.staging_config_id,
    snapshots: (before, after) => {
      expect(before).toMatchObject({ num_sessions: 2 });
      expect(after).toBeNull();
    },
  },
  {
    operation: 'create_file_mapping',
    table: 'file_mapping',
    arrange: async (h) => ({
      target_file_mapping: {
        image_id: await createImage(h.db),
        name: 'hello',
        destination: '/hello.sh',
        content: SCRIPT,
      },
    }),
    state: mappings,
    targetId: (_body, answer) => answer.file_mapping.file_mapping_id,
    snapshots: (before, after) => {
      expect(before).toBeNull();
      expect(after).toMatchObject({ destination: '/hello.sh' });
      expect(JSON.stringify(after)).not.toContain('echo hello');
    },
  },
  {
    operation: 'update_file_mapping',
    table: 'file_mapping',
    arrange: async (h) => ({
      target_file_mapping: { file_mapping_id: await mapping(h), destination: '/bye.sh' },
    }),
    state: mappings,
    targetId: (body: Wire) => body.target_file_mapping.file_mapping_id,
    snapshots: (before, after) => {
      expect(before).toMatchObject({ destination: '/hello.sh' });
      expect(after).toMatchObject({ destination: '/bye.sh' });
    },
  },
  {
    operation: 'delete_file_mapping',
    table: 'file_mapping',
    arrange: async (h) => ({ target_file_mapping: { file_mapping_id: await mapping(h) } }),
    state: mappings,
    targetId: (body: Wire) => body.target_file_mapping.file_mapping_id,
    snapshots: (before, after) => {
      expect(before).toMatchObject({ destination: '/hello.sh' });
      expect(after).toBeNull();
    },
  },
]);
