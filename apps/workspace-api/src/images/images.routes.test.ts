import { UNKNOWN_ID } from '../../test/factories';
import { useHarness, type Harness } from '../../test/harness';
import { createImage } from '../../test/image-factories';

let h: Harness;
let imageId: string;
useHarness((ready) => (h = ready));
beforeEach(async () => {
  imageId = await createImage(h.db, {
    friendlyName: 'Terminal',
    memory: 2_768_000_000n,
    runConfig: { hostname: 'kasm' },
  });
});

const update = (fields: object) =>
  h.call('update_image', { target_image: { image_id: imageId, ...fields } });

describe('get_images', () => {
  it('lists installed workspaces by friendly name, in the image shape', async () => {
    await createImage(h.db, { friendlyName: 'Browser', enabled: false });
    const { images } = (await h.call('get_images')).json();
    expect(images.map((i: { friendly_name: string }) => i.friendly_name)).toEqual([
      'Browser',
      'Terminal',
    ]);
    expect(images[1]).toEqual({
      image_id: imageId,
      name: expect.stringMatching(/^kasmweb\/tool-[0-9a-f]+:1\.16\.0$/),
      settings_name: images[1].name,
      friendly_name: 'Terminal',
      description: '',
      enabled: true,
      cores: 2,
      memory: 2_768_000_000,
      gpu_count: 0,
      cpu_allocation_method: 'Inherit',
      image_src: '',
      docker_registry: '',
      run_config: { hostname: 'kasm' },
      exec_config: {},
      volume_mappings: {},
      allow_root_exec: false,
      allow_plain_http: false,
      architecture: ['amd64'],
      categories: ['Development'],
      uncompressed_size_mb: null,
      persistent_profile_path: '',
      idle_limit_seconds: null,
      idle_action: 'stop',
      allow_kasm_uploads: true,
      allow_kasm_downloads: true,
      allow_kasm_clipboard_up: true,
      allow_kasm_clipboard_down: true,
      max_clipboard_bytes: null,
      max_upload_bytes: null,
      allow_kasm_audio: true,
      allow_anonymous_join: false,
      record_sessions: false,
      record_keystrokes: false,
      refuse_unrecorded: false,
      recording_retention_days: null,
      watch_notice: true,
      notes: '',
      registry_id: null,
      registry_entry: null,
      created: expect.any(String),
    });
  });
});

describe('update_image', () => {
  it('sets an idle limit and action, lifts the limit with 0, and refuses bad values', async () => {
    const set = await update({ idle_limit_seconds: 900, idle_action: 'destroy' });
    expect(set.json().image).toMatchObject({ idle_limit_seconds: 900, idle_action: 'destroy' });
    const lifted = await update({ idle_limit_seconds: 0 });
    expect(lifted.json().image).toMatchObject({ idle_limit_seconds: null, idle_action: 'destroy' });
    for (const bad of [{ idle_limit_seconds: -1 }, { idle_action: 'sleep' }]) {
      const res = await update(bad);
      expect([bad, res.statusCode]).toEqual([bad, 400]);
    }
  });

  it('sets the file transfer policy, lifts the upload limit with null, and refuses bad values', async () => {
    const set = await update({
      allow_kasm_uploads: false,
      allow_kasm_downloads: false,
      max_upload_bytes: 5_000_000_000,
    });
    expect(set.json().image).toMatchObject({
      allow_kasm_uploads: false,
      allow_kasm_downloads: false,
      max_upload_bytes: 5_000_000_000,
    });
    const lifted = await update({ max_upload_bytes: null });
    expect(lifted.json().image).toMatchObject({
      allow_kasm_uploads: false,
      max_upload_bytes: null,
    });
    for (const bad of [{ max_upload_bytes: 0 }, { allow_kasm_uploads: 'yes' }]) {
      const res = await update(bad);
      expect([bad, res.statusCode]).toEqual([bad, 400]);
    }
  });

  it('turns the sound in the browser off and on again (allow_kasm_audio), and refuses a non-boolean', async () => {
    expect((await update({ allow_kasm_audio: false })).json().image.allow_kasm_audio).toBe(false);
    const listed = (await h.call('get_images')).json().images;
    expect(listed[0].allow_kasm_audio).toBe(false);
    expect((await update({ allow_kasm_audio: true })).json().image.allow_kasm_audio).toBe(true);
    expect((await update({ allow_kasm_audio: 'no' })).statusCode).toBe(400);
  });

  it('sets the recording policy (record, keystrokes, refuse, retention), audited, and refuses bad values', async () => {
    const res = await update({
      record_sessions: true,
      record_keystrokes: true,
      refuse_unrecorded: true,
      recording_retention_days: 90,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().image).toMatchObject({
      record_sessions: true,
      record_keystrokes: true,
      refuse_unrecorded: true,
      recording_retention_days: 90,
    });
    const log = await h.call('get_audit_log', { operation: 'update_image' });
    expect(log.json().events[0]).toMatchObject({
      before: { record_sessions: false, recording_retention_days: null },
      after: { record_sessions: true, recording_retention_days: 90 },
    });
    expect(
      (await update({ recording_retention_days: null })).json().image.recording_retention_days,
    ).toBeNull();
    for (const bad of [
      { recording_retention_days: 0 },
      { recording_retention_days: 40_000 },
      { record_sessions: 'yes' },
    ])
      expect((await update(bad)).statusCode).toBe(400);
  });

  it('changes only the fields present', async () => {
    const res = await update({
      enabled: false,
      friendly_name: ' Shell ',
      cores: 1.5,
      memory: 4_000_000_000,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().image).toMatchObject({
      enabled: false,
      friendly_name: 'Shell',
      cores: 1.5,
      memory: 4_000_000_000,
    });
    const again = (
      await update({ persistent_profile_path: '/profiles/{username}/{image_id}' })
    ).json().image;
    expect(again).toMatchObject({
      enabled: false,
      friendly_name: 'Shell',
      persistent_profile_path: '/profiles/{username}/{image_id}',
    });
    expect(
      (await update({ persistent_profile_path: '' })).json().image.persistent_profile_path,
    ).toBe('');
  });

  it('sets and clears the unsafe allowances only when named, and takes only booleans', async () => {
    const image = (await update({ allow_root_exec: true })).json().image;
    expect(image).toMatchObject({ allow_root_exec: true, allow_plain_http: false });
    expect((await update({ friendly_name: 'Other' })).json().image.allow_root_exec).toBe(true);
    expect((await update({ allow_root_exec: false })).json().image.allow_root_exec).toBe(false);
    const bad = await update({ allow_plain_http: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([
      { field: 'target_image.allow_plain_http', message: expect.any(String) },
    ]);
  });

  it('answers 400 PROFILE_PATH_INVALID with every problem of the path', async () => {
    const res = await update({ persistent_profile_path: 'profiles/{home}' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'PROFILE_PATH_INVALID' });
    expect(res.json().errors).toHaveLength(3);
    for (const problem of res.json().errors)
      expect(problem.field).toBe('target_image.persistent_profile_path');
  });

  it.each([
    ['/{user_id}/..', 'must not contain . or .. segments, raw or percent-encoded'],
    ['/p/{username}/%2E%2e', 'must not contain . or .. segments, raw or percent-encoded'],
    ['/p/./{username}', 'must not contain . or .. segments, raw or percent-encoded'],
    ['/p\\{username}', 'must separate folders with /, not \\'],
    [
      '/p/{username}%00',
      'must not contain control characters (NUL included), raw or percent-encoded',
    ],
  ])('answers 400 PROFILE_PATH_INVALID for %p and keeps the old path', async (path, message) => {
    await update({ persistent_profile_path: '/p/{username}' });
    const res = await update({ persistent_profile_path: path });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'PROFILE_PATH_INVALID',
      errors: [{ field: 'target_image.persistent_profile_path', message }],
    });
    const image = (await h.call('get_images')).json().images[0];
    expect(image.persistent_profile_path).toBe('/p/{username}');
  });

  it.each([
    [{ cores: 0 }, 'target_image.cores'],
    [{ cores: 1e-300 }, 'target_image.cores'],
    [{ cores: 0.009 }, 'target_image.cores'],
    [{ memory: 1024 }, 'target_image.memory'],
    [{ memory: 1_000_000_000_000_001 }, 'target_image.memory'],
    [{ enabled: 'yes' }, 'target_image.enabled'],
    [{ friendly_name: '  ' }, 'target_image.friendly_name'],
  ])('rejects %p with 400', async (fields, field) => {
    const res = await update(fields);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field, message: expect.any(String) }]);
  });

  it('answers 404 IMAGE_NOT_FOUND for an unknown workspace', async () => {
    const res = await h.call('update_image', {
      target_image: { image_id: UNKNOWN_ID, enabled: false },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('IMAGE_NOT_FOUND');
  });
});

describe('delete_image', () => {
  it('deletes a workspace and takes it off every group list, leaving the groups', async () => {
    const groupId = (await h.call('create_group', { target_group: { name: 'Developers' } })).json()
      .group.group_id;
    await h.call('add_images_group', {
      target_group: { group_id: groupId },
      target_image: { image_id: imageId },
    });
    const res = await h.call('delete_image', { target_image: { image_id: imageId } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect((await h.call('get_images')).json().images).toEqual([]);
    expect(
      (await h.call('get_images_group', { target_group: { group_id: groupId } })).json().images,
    ).toEqual([]);
    expect(await h.db.groupImage.count()).toBe(0);
    expect((await h.call('get_group', { target_group: { group_id: groupId } })).statusCode).toBe(
      200,
    );
  });

  it('answers 404 for an unknown workspace', async () => {
    expect(
      (await h.call('delete_image', { target_image: { image_id: UNKNOWN_ID } })).json().code,
    ).toBe('IMAGE_NOT_FOUND');
  });
});

describe('image permissions', () => {
  it('reads with images.view and writes with images.modify', async () => {
    const viewer = await h.issueKey(['images.view']);
    expect((await h.call('get_images', {}, viewer)).statusCode).toBe(200);
    expect(
      (await h.call('update_image', { target_image: { image_id: imageId } }, viewer)).statusCode,
    ).toBe(403);
    expect(
      (await h.call('delete_image', { target_image: { image_id: imageId } }, viewer)).statusCode,
    ).toBe(403);
    const modifier = await h.issueKey(['images.modify']);
    expect((await h.call('get_images', {}, modifier)).statusCode).toBe(403);
    expect(
      (
        await h.call(
          'update_image',
          { target_image: { image_id: imageId, enabled: false } },
          modifier,
        )
      ).statusCode,
    ).toBe(200);
  });

  it('lets a read-only key list workspaces but not change them', async () => {
    const readOnly = await h.issueKey(['images.view', 'images.modify'], { readOnly: true });
    expect((await h.call('get_images', {}, readOnly)).statusCode).toBe(200);
    expect(
      (await h.call('delete_image', { target_image: { image_id: imageId } }, readOnly)).statusCode,
    ).toBe(403);
  });
});
