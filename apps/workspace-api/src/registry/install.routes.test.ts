import { createHarness, type Harness } from '../../test/harness';
import {
  registryList,
  STANDARD_WORKSPACES,
  workspaceEntry,
  workspaceEntryV11,
} from '../../test/registry-fixtures';
import {
  registryFiles,
  startRegistryServer,
  type RegistryServer,
} from '../../test/registry-server';

const UNKNOWN = '11111111111111111111111111111111';

let h: Harness;
let server: RegistryServer;
let registryId: string;
beforeAll(async () => {
  [h, server] = await Promise.all([createHarness(), startRegistryServer()]);
  const extras = workspaceEntry({
    name: 'kasmweb/studio:1.16.0',
    friendly_name: 'Studio',
    notes: 'Needs a GPU',
    cores: 4,
    memory: 8192,
    gpu_count: 1,
    volume_mappings: { '/mnt/media': { bind: '/home/kasm-user/media', mode: 'ro' } },
    cpu_allocation_method: 'Quotas',
  });
  server.serve(
    '/reg',
    registryFiles('1.0', { '1.0': registryList([...STANDARD_WORKSPACES, extras]) }),
  );
  server.serve(
    '/v11',
    registryFiles('1.1', {
      '1.1': registryList([workspaceEntryV11('kasmweb/gimp', { friendly_name: 'GIMP' })]),
    }),
  );
});
afterAll(async () => {
  await server.close();
  await h.close();
});
beforeEach(async () => {
  await h.reset();
  registryId = (await h.call('add_registry', { registry_url: `${server.origin}/reg` })).json()
    .registry.registry_id;
});

const install = (name: string, extra: object = {}) =>
  h.call('install_workspace', { registry_id: registryId, name, ...extra });

describe('install_workspace', () => {
  it("creates an installed workspace keeping the entry's configuration and its origin", async () => {
    const res = await install('kasmweb/terminal:1.16.0');
    expect(res.statusCode).toBe(200);
    expect(res.json().image).toEqual({
      image_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      name: 'kasmweb/terminal:1.16.0',
      settings_name: 'kasmweb/terminal:1.16.0',
      friendly_name: 'Terminal',
      description: 'A minimal terminal',
      enabled: true,
      cores: 2,
      memory: 2_768_000_000,
      gpu_count: 0,
      idle_action: 'stop',
      idle_limit_seconds: null,
      cpu_allocation_method: 'Inherit',
      image_src: 'terminal.png',
      docker_registry: 'https://index.docker.io/v1/',
      run_config: { hostname: 'kasm' },
      exec_config: {
        go: { cmd: 'bash -c "xdg-open $KASM_URL"' },
        assign: { cmd: 'echo assigned' },
      },
      volume_mappings: {},
      allow_root_exec: false,
      allow_plain_http: false,
      allow_kasm_uploads: true,
      allow_kasm_downloads: true,
      max_upload_bytes: null,
      allow_kasm_clipboard_up: true,
      allow_kasm_clipboard_down: true,
      max_clipboard_bytes: null,
      allow_kasm_audio: true,
      allow_anonymous_join: false,
      watch_notice: true,
      record_sessions: false,
      record_keystrokes: false,
      refuse_unrecorded: false,
      recording_retention_days: null,
      architecture: ['amd64', 'arm64'],
      categories: ['Development'],
      uncompressed_size_mb: 1200,
      persistent_profile_path: '',
      notes: '',
      registry_id: registryId,
      registry_entry: 'kasmweb/terminal:1.16.0',
      created: expect.any(String),
    });
    expect(res.json().ignored_config).toEqual([]);
    expect((await h.call('get_images')).json().images).toEqual([res.json().image]);
  });

  it('takes the resources and extras the entry names, memory converted from MB to bytes, no host paths', async () => {
    const { image, ignored_config } = (await install('kasmweb/studio:1.16.0')).json();
    expect(image).toMatchObject({
      cores: 4,
      memory: 8_192_000_000,
      gpu_count: 1,
      notes: 'Needs a GPU',
      cpu_allocation_method: 'Quotas',
      volume_mappings: {},
    });
    expect(ignored_config).toEqual([
      { key: 'volume_mappings./mnt/media', reason: 'a host path: never mounted from a registry' },
    ]);
  });

  it('installs the image a 1.1 registry names for this platform version', async () => {
    const v11 = (await h.call('add_registry', { registry_url: `${server.origin}/v11` })).json()
      .registry.registry_id;
    const { image } = (
      await h.call('install_workspace', { registry_id: v11, name: 'kasmweb/gimp' })
    ).json();
    expect(image).toMatchObject({
      name: 'kasmweb/gimp:1.16.1',
      uncompressed_size_mb: 1500,
      registry_entry: 'kasmweb/gimp',
      friendly_name: 'GIMP',
    });
  });

  it('answers 422, never 500, for a stored entry whose resources would overflow', async () => {
    await h.database.query(
      `UPDATE workspace.registry_entry SET data = jsonb_set(data, '{memory}', '10000000000000')
       WHERE name = 'kasmweb/terminal:1.16.0'`,
    );
    const res = await install('kasmweb/terminal:1.16.0');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'REGISTRY_WORKSPACE_INVALID',
      detail: expect.stringContaining('memory must be between 1 and 1000000000 MB'),
    });
    expect((await h.call('get_images')).json().images).toEqual([]);
  });

  it('refuses an incompatible workspace with 409 unless forced', async () => {
    const refused = await install('kasmweb/legacy:1.10.0');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'WORKSPACE_INCOMPATIBLE',
      detail: expect.stringContaining('1.16.x'),
    });
    expect((await h.call('get_images')).json().images).toEqual([]);
    const forced = await install('kasmweb/legacy:1.10.0', { force: true });
    expect(forced.statusCode).toBe(200);
    expect(forced.json().image.name).toBe('kasmweb/legacy:1.10.0');
  });

  it('answers 409 IMAGE_ALREADY_INSTALLED for a second install of the same entry, also at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 3 }, () => install('kasmweb/firefox:1.16.0')),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect(results.find((r) => r.statusCode === 409)?.json().code).toBe('IMAGE_ALREADY_INSTALLED');
  });

  it('installs the entry again once the installed copy is deleted', async () => {
    const { image } = (await install('kasmweb/firefox:1.16.0')).json();
    await h.call('delete_image', { target_image: { image_id: image.image_id } });
    expect((await install('kasmweb/firefox:1.16.0')).statusCode).toBe(200);
  });

  it('marks installed workspaces in get_registry_workspaces', async () => {
    await install('kasmweb/firefox:1.16.0');
    const { workspaces } = (
      await h.call('get_registry_workspaces', { registry_id: registryId })
    ).json();
    expect(
      workspaces.map((w: { friendly_name: string; installed: boolean }) => [
        w.friendly_name,
        w.installed,
      ]),
    ).toEqual([
      ['Firefox', true],
      ['Studio', false],
      ['Terminal', false],
    ]);
  });

  it('gives an installed workspace to no one until a group allows it', async () => {
    const { image } = (await install('kasmweb/terminal:1.16.0')).json();
    const user = (await h.call('create_user', { target_user: { username: 'ada' } })).json().user;
    expect(
      (await h.call('get_user_images', { target_user: { user_id: user.user_id } })).json().images,
    ).toEqual([]);
    await h.call('add_images_group', {
      target_group: { group_id: '68d557ac4cac42cca9f31c7c853de0f3' },
      target_image: { image_id: image.image_id },
    });
    expect(
      (await h.call('get_user_images', { target_user: { user_id: user.user_id } })).json().images,
    ).toHaveLength(1);
  });

  it('answers 404 for an unknown registry or workspace name', async () => {
    const noRegistry = await h.call('install_workspace', {
      registry_id: UNKNOWN,
      name: 'kasmweb/terminal:1.16.0',
    });
    expect(noRegistry.json().code).toBe('REGISTRY_NOT_FOUND');
    const noEntry = await install('kasmweb/nothing:1.0');
    expect(noEntry.statusCode).toBe(404);
    expect(noEntry.json().code).toBe('REGISTRY_WORKSPACE_NOT_FOUND');
  });

  it('needs images.modify', async () => {
    const key = await h.issueKey(['images.view', 'registries.modify']);
    expect(
      (
        await h.call(
          'install_workspace',
          { registry_id: registryId, name: 'kasmweb/firefox:1.16.0' },
          key,
        )
      ).statusCode,
    ).toBe(403);
    const modifier = await h.issueKey(['images.modify']);
    expect(
      (
        await h.call(
          'install_workspace',
          { registry_id: registryId, name: 'kasmweb/firefox:1.16.0' },
          modifier,
        )
      ).statusCode,
    ).toBe(200);
  });
});
