import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Harness } from '../../test/harness';
import { useRegistryFixture } from '../../test/registry-routes-fixture';
import { registryList, workspaceEntry } from '../../test/registry-fixtures';
import { registryFiles, type RegistryServer } from '../../test/registry-server';

/** Our own registry in the shape the official template publishes (1.0 and 1.1 lists, channels). */
const OFFICIAL_SHAPE = path.resolve(__dirname, '../../test/official-registry');
const publishedFile = (file: string) => readFileSync(path.join(OFFICIAL_SHAPE, file), 'utf8');
const publishedFiles = () => ({
  'versions.txt': publishedFile('versions.txt'),
  '1.0/list.json': publishedFile('1.0/list.json'),
  '1.1/list.json': publishedFile('1.1/list.json'),
});

let h: Harness;
let server: RegistryServer;
const { addOk, workspacesOf } = useRegistryFixture((ready) => ({ h, server } = ready));

describe('a registry published like the official template', () => {
  it('loads its 1.1 list, naming each entry by its friendly name and its image by platform version', async () => {
    server.serve('/published', publishedFiles());
    const registry = await addOk(`${server.origin}/published`);
    expect(registry).toMatchObject({
      name: 'Acme Workspaces',
      schema_version: '1.1',
      workspace_count: 2,
      invalid_workspaces: [],
    });
    const { workspaces } = await workspacesOf(registry.registry_id, true);
    expect(workspaces).toEqual([
      expect.objectContaining({
        name: 'Acme Editor',
        image: 'acme/editor:1.16.3',
        compatibility: ['1.17.x', '1.16.x'],
        uncompressed_size_mb: 1700,
        available_tags: ['1.16.3', '1.16.3-rolling'],
        compatible: true,
      }),
      expect.objectContaining({
        name: 'Acme Paint',
        image: 'acme/paint:develop',
        compatible: false,
      }),
    ]);
  });

  it('installs a 1.1 entry as the image listed for this platform version', async () => {
    server.serve('/published', publishedFiles());
    const { registry_id } = await addOk(`${server.origin}/published`);
    const res = await h.call('install_workspace', { registry_id, name: 'Acme Editor' });
    expect(res.statusCode).toBe(200);
    expect(res.json().image).toMatchObject({
      name: 'acme/editor:1.16.3',
      friendly_name: 'Acme Editor',
      uncompressed_size_mb: 1700,
      registry_entry: 'Acme Editor',
    });
  });

  it('falls back to 1.0 when the 1.1 list loads nothing, and ignores channel names in versions.txt', async () => {
    const noImages = registryList([workspaceEntry({ compatibility: [{ version: '1.16.x' }] })]);
    server.serve('/fallback', {
      ...publishedFiles(),
      'versions.txt': '1.0\n1.1\ndevelop\nrelease/1.17\n',
      '1.1/list.json': JSON.stringify(noImages),
    });
    const registry = await addOk(`${server.origin}/fallback`);
    expect(registry).toMatchObject({ schema_version: '1.0', workspace_count: 1 });
    const { workspaces } = await workspacesOf(registry.registry_id);
    expect(workspaces.map((w: { name: string }) => w.name)).toEqual(['acme/editor:1.16.3']);
  });

  it('falls back to 1.0 when the 1.1 list is missing or not JSON', async () => {
    for (const broken of [{ status: 404 }, '{"name": "cut off']) {
      server.serve('/fallback', { ...publishedFiles(), '1.1/list.json': broken });
      const registry = await addOk(`${server.origin}/fallback`);
      expect(registry).toMatchObject({ schema_version: '1.0', workspace_count: 1 });
      await h.call('delete_registry', { registry_id: registry.registry_id });
    }
  });

  it('reports the newest list with its invalid entries when no version loads any', async () => {
    const invalid = registryList([workspaceEntry({ compatibility: [{ version: '1.16.x' }] })]);
    server.serve(
      '/none',
      registryFiles('1.0\n1.1\ndevelop\n', {
        '1.1': invalid,
        '1.0': registryList([workspaceEntry({ docker_registry: 'nowhere' })]),
      }),
    );
    const registry = await addOk(`${server.origin}/none`);
    expect(registry).toMatchObject({ schema_version: '1.1', workspace_count: 0 });
    expect(registry.invalid_workspaces).toEqual([
      expect.objectContaining({
        index: 0,
        problems: [expect.objectContaining({ field: 'compatibility.0.image' })],
      }),
    ]);
  });
});
