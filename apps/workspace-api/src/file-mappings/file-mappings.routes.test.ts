import { createHarness, type Harness } from '../../test/harness';
import { userInput } from '../../test/factories';
import { createImage } from '../../test/image-factories';
import { MAX_CONTENT_BYTES } from './file-mappings.schemas';

const UNKNOWN = '11111111111111111111111111111111';

let h: Harness;
let imageId: string;
let groupId: string;
let userId: string;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  imageId = await createImage(h.db);
  groupId = (await h.call('create_group', { target_group: { name: 'Developers' } })).json().group
    .group_id;
  userId = (await h.call('create_user', { target_user: userInput() })).json().user.user_id;
});

const create = (mapping: Record<string, unknown>) =>
  h.call('create_file_mapping', {
    target_file_mapping: { name: 'Script', destination: '/opt/run.sh', ...mapping },
  });

describe('create_file_mapping', () => {
  it('attaches a file to a workspace, a group or a user', async () => {
    const res = await create({
      image_id: imageId,
      description: 'Runs first',
      executable: true,
      content: '#!/bin/sh\n',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().file_mapping).toEqual({
      file_mapping_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      image_id: imageId,
      group_id: null,
      user_id: null,
      name: 'Script',
      description: 'Runs first',
      destination: '/opt/run.sh',
      executable: true,
      content: '#!/bin/sh\n',
      size: 10,
      created: expect.any(String),
      updated: expect.any(String),
    });
    expect((await create({ group_id: groupId })).json().file_mapping).toMatchObject({
      group_id: groupId,
      executable: false,
      content: '',
    });
    expect((await create({ user_id: userId })).json().file_mapping).toMatchObject({
      user_id: userId,
      image_id: null,
    });
  });

  it('answers 400 unless exactly one target is given', async () => {
    for (const targets of [{}, { image_id: imageId, user_id: userId }]) {
      const res = await create(targets);
      expect([res.statusCode, res.json().errors]).toEqual([
        400,
        [
          {
            field: 'target_file_mapping',
            message: 'must have exactly one of image_id, group_id, user_id',
          },
        ],
      ]);
    }
  });

  it('answers 404 naming the kind of target that does not exist', async () => {
    expect((await create({ image_id: UNKNOWN })).json().code).toBe('IMAGE_NOT_FOUND');
    expect((await create({ group_id: UNKNOWN })).json().code).toBe('GROUP_NOT_FOUND');
    expect((await create({ user_id: UNKNOWN })).json().code).toBe('USER_NOT_FOUND');
  });

  it('answers 409 for a second mapping to the same destination of the same target only', async () => {
    await create({ group_id: groupId });
    const res = await create({ group_id: groupId, name: 'Other' });
    expect([res.statusCode, res.json().code, res.json().detail]).toEqual([
      409,
      'FILE_MAPPING_DESTINATION_TAKEN',
      'The group already has a file mapping to /opt/run.sh',
    ]);
    expect((await create({ user_id: userId })).statusCode).toBe(200);
    expect((await create({ image_id: imageId })).statusCode).toBe(200);
  });

  it('answers 400 for a destination that is not an absolute file path', async () => {
    for (const destination of ['relative/x', '/etc/../passwd', '/a/./b', '/dir/', '/', '//x']) {
      expect([destination, (await create({ user_id: userId, destination })).statusCode]).toEqual([
        destination,
        400,
      ]);
    }
  });

  it('accepts content of exactly 5 MiB, above the general body limit, and refuses one byte more', async () => {
    const res = await create({ user_id: userId, content: 'x'.repeat(MAX_CONTENT_BYTES) });
    expect(res.statusCode).toBe(200);
    expect(res.json().file_mapping.size).toBe(MAX_CONTENT_BYTES);
    const over = await create({
      user_id: userId,
      destination: '/big',
      content: 'x'.repeat(MAX_CONTENT_BYTES + 1),
    });
    expect(over.statusCode).toBe(400);
  });

  it('counts the 5 MiB in UTF-8 bytes, not characters', async () => {
    const res = await create({ user_id: userId, content: 'é'.repeat(MAX_CONTENT_BYTES / 2 + 1) });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { field: 'target_file_mapping.content', message: expect.stringContaining('5242882 bytes') },
    ]);
  });

  it('keeps the body limit for every other operation', async () => {
    const res = await h.call('create_user', {
      target_user: userInput({ notes: 'n'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
  });
});

describe('get, update and delete file mappings', () => {
  it('lists every mapping, or those of one target', async () => {
    await create({ image_id: imageId, destination: '/b' });
    await create({ group_id: groupId, destination: '/a' });
    const all = (await h.call('get_file_mappings')).json().file_mappings;
    expect(all.map((m: { destination: string }) => m.destination)).toEqual(['/a', '/b']);
    const ofGroup = (
      await h.call('get_file_mappings', { target_file_mapping: { group_id: groupId } })
    ).json().file_mappings;
    expect(ofGroup.map((m: { destination: string }) => m.destination)).toEqual(['/a']);
    expect(
      (await h.call('get_file_mappings', { target_file_mapping: { user_id: UNKNOWN } })).json()
        .code,
    ).toBe('USER_NOT_FOUND');
    expect(
      (
        await h.call('get_file_mappings', {
          target_file_mapping: { user_id: userId, group_id: groupId },
        })
      ).statusCode,
    ).toBe(400);
  });

  it('updates only the fields present, and refuses a destination the target already maps', async () => {
    const first = (await create({ user_id: userId })).json().file_mapping;
    await create({ user_id: userId, destination: '/taken' });
    const res = await h.call('update_file_mapping', {
      target_file_mapping: {
        file_mapping_id: first.file_mapping_id,
        content: 'new',
        executable: true,
      },
    });
    expect(res.json().file_mapping).toMatchObject({
      name: 'Script',
      destination: '/opt/run.sh',
      content: 'new',
      executable: true,
      size: 3,
    });
    const clash = await h.call('update_file_mapping', {
      target_file_mapping: { file_mapping_id: first.file_mapping_id, destination: '/taken' },
    });
    expect([clash.statusCode, clash.json().detail]).toEqual([
      409,
      'The user already has a file mapping to /taken',
    ]);
    expect(
      (
        await h.call('update_file_mapping', {
          target_file_mapping: { file_mapping_id: UNKNOWN, name: 'x' },
        })
      ).json().code,
    ).toBe('FILE_MAPPING_NOT_FOUND');
  });

  it('deletes a mapping, and a deleted target takes its mappings with it', async () => {
    const mapping = (await create({ user_id: userId })).json().file_mapping;
    await create({ group_id: groupId });
    const res = await h.call('delete_file_mapping', {
      target_file_mapping: { file_mapping_id: mapping.file_mapping_id },
    });
    expect([res.statusCode, res.json()]).toEqual([200, {}]);
    expect(
      (
        await h.call('delete_file_mapping', {
          target_file_mapping: { file_mapping_id: mapping.file_mapping_id },
        })
      ).json().code,
    ).toBe('FILE_MAPPING_NOT_FOUND');
    await h.call('delete_group', { target_group: { group_id: groupId } });
    expect(await h.db.fileMapping.count()).toBe(0);
  });

  it('reads with settings.view and writes with settings.modify only', async () => {
    const viewer = await h.issueKey(['settings.view']);
    expect((await h.call('get_file_mappings', {}, viewer)).statusCode).toBe(200);
    expect(
      (
        await h.call(
          'create_file_mapping',
          { target_file_mapping: { user_id: userId, name: 'x', destination: '/x' } },
          viewer,
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (await h.call('get_file_mappings', {}, await h.issueKey(['images.view']))).statusCode,
    ).toBe(403);
  });
});
