import path from 'node:path';
import { enginePolicy } from '../engines';
import { type Harness, useHarness } from '../../test/harness';
import { userInput } from '../../test/factories';
import { createImage } from '../../test/image-factories';
import { createSettingsRepository, createSettingsService } from '../settings';
import { ALL_USERS } from '../../test/group-factories';

const UNKNOWN = '11111111111111111111111111111111';
const GB = 1_000_000_000;
const EXAMPLES = path.resolve(__dirname, '../../../../examples');

let h: Harness;
let userId: string;
let imageId: string;
let developers: string;
let zoneId: string;
useHarness((ready) => (h = ready), { REGISTRY_ALLOW_LOCAL_PATHS: 'true' });
beforeEach(async () => {
  userId = (await h.call('create_user', { target_user: userInput({ username: 'ada' }) })).json()
    .user.user_id;
  developers = (
    await h.call('create_group', { target_group: { name: 'Developers', priority: 50 } })
  ).json().group.group_id;
  await h.call('add_user_group', {
    target_user: { user_id: userId },
    target_group: { group_id: developers },
  });
  imageId = await createImage(h.db, {
    name: 'kasmweb/firefox:1.16.0',
    friendlyName: 'Firefox',
    dockerRegistry: 'https://index.docker.io/v1/',
    cores: 2,
    memory: BigInt(4 * GB),
    persistentProfilePath: '/mnt/profiles/{username}/{image_id}',
    execConfig: { go: { cmd: 'open "$KASM_URL"' }, assign: { cmd: 'open ${KASM_URL}' } },
  });
  await h.call('add_images_group', {
    target_group: { group_id: developers },
    target_image: { image_id: imageId },
  });
  zoneId = (
    await h.call('create_zone', {
      target_zone: { name: 'default', proxy_hostname: 'desk.example.com', proxy_port: 0 },
    })
  ).json().zone.zone_id;
});

const agent = async (hostname: string, fields: Record<string, unknown> = {}) =>
  (
    await h.call('create_agent', {
      target_agent: { hostname, zone_id: zoneId, cores: 8, memory: 16 * GB, ...fields },
    })
  ).json().agent;
const mapping = (target: Record<string, string>, destination: string, name: string) =>
  h.call('create_file_mapping', {
    target_file_mapping: { ...target, destination, name, content: name },
  });
const plan = (user = userId, image = imageId, credentials = h.admin) =>
  h.call(
    'get_launch_plan',
    { target_user: { user_id: user }, target_image: { image_id: image } },
    credentials,
  );

describe('get_launch_plan', () => {
  it('resolves everything a session would get', async () => {
    const chosen = await agent('agent-1');
    await mapping({ image_id: imageId }, '/etc/a', 'workspace-a');
    await mapping({ group_id: developers }, '/etc/a', 'developers-a');
    await mapping({ group_id: developers }, '/etc/b', 'developers-b');
    await mapping({ group_id: ALL_USERS }, '/etc/b', 'everyone-b');
    await mapping({ user_id: userId }, '/etc/c', 'user-c');
    const res = await plan();
    expect(res.statusCode).toBe(200);
    const { launch_plan: lp } = res.json();
    const url = `https://desk.example.com/kasm/${lp.session_id}/`;
    expect(lp).toEqual({
      user: { user_id: userId, username: 'ada' },
      image: {
        image_id: imageId,
        name: 'kasmweb/firefox:1.16.0',
        friendly_name: 'Firefox',
        docker_registry: 'https://index.docker.io/v1/',
        registry_id: null,
      },
      cores: 2,
      memory: 4 * GB,
      allowed_through: [{ group_id: developers, name: 'Developers' }],
      agent: {
        agent_id: chosen.agent_id,
        hostname: 'agent-1',
        zone_id: zoneId,
        zone_name: 'default',
        capacity: { cores: 8, memory: 16 * GB },
        free: { cores: 8, memory: 16 * GB },
      },
      session_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      session_url: url,
      persistent_profile_path: `/mnt/profiles/ada/${imageId}`,
      file_mappings: [
        expect.objectContaining({
          destination: '/etc/a',
          name: 'workspace-a',
          source: { type: 'image', id: imageId, name: 'kasmweb/firefox:1.16.0' },
        }),
        expect.objectContaining({
          destination: '/etc/b',
          name: 'developers-b',
          source: { type: 'group', id: developers, name: 'Developers' },
        }),
        expect.objectContaining({
          destination: '/etc/c',
          name: 'user-c',
          content: 'user-c',
          source: { type: 'user', id: userId, name: 'ada' },
        }),
      ],
      exec_config: { go: { cmd: `open "${url}"` }, assign: { cmd: `open ${url}` } },
    });
  });

  it('puts a non-zero proxy_port in the session URL', async () => {
    await agent('agent-1');
    await h.call('update_zone', {
      target_zone: { zone_id: zoneId, proxy_port: 8443, proxy_path: '/desk/' },
    });
    const lp = (await plan()).json().launch_plan;
    expect(lp.session_url).toBe(`https://desk.example.com:8443/desk/kasm/${lp.session_id}/`);
  });

  it.each([
    [443, 'https://desk.example.com/kasm/'],
    [80, 'http://desk.example.com/kasm/'],
  ])('reads proxy_port %d as its scheme, left out of the session URL', async (port, start) => {
    await agent('agent-1');
    await h.call('update_zone', { target_zone: { zone_id: zoneId, proxy_port: port } });
    const lp = (await plan()).json().launch_plan;
    expect(lp.session_url).toBe(`${start}${lp.session_id}/`);
    expect(lp.exec_config.go.cmd).toBe(`open "${start}${lp.session_id}/"`);
  });

  it('chooses the agent with the most free memory that fits, counting overrides and allocation', async () => {
    await agent('big-but-busy', { memory: 64 * GB, allocated_memory: 0 });
    const busy = (await h.call('get_agents')).json().agents[0];
    await h.call('update_agent', {
      target_agent: { agent_id: busy.agent_id, allocated_memory: 60 * GB },
    });
    await agent('overridden', { memory: 8 * GB, memory_override: 32 * GB });
    await agent('plain');
    expect((await plan()).json().launch_plan.agent).toMatchObject({
      hostname: 'overridden',
      free: { memory: 32 * GB },
    });
  });

  it('answers 503 NO_AGENT_AVAILABLE, with each agent’s reason, when none has room', async () => {
    expect((await plan()).json()).toMatchObject({
      code: 'NO_AGENT_AVAILABLE',
      detail: 'No agent is registered to run sessions',
    });
    await agent('tiny', { cores: 1 });
    const res = await plan();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      code: 'NO_AGENT_AVAILABLE',
      detail: `No agent has 2 cores and ${4 * GB} bytes of memory free`,
      errors: [{ field: 'agent tiny', message: '1 free cores, needs 2' }],
    });
  });

  it('answers 403 WORKSPACE_NOT_ALLOWED when the workspace is not allowed for the user, or disabled', async () => {
    await agent('agent-1');
    await h.call('remove_user_group', {
      target_user: { user_id: userId },
      target_group: { group_id: developers },
    });
    const res = await plan();
    expect([res.statusCode, res.json().code, res.json().detail]).toEqual([
      403,
      'WORKSPACE_NOT_ALLOWED',
      "The workspace is not on the Allowed Workspaces of any of the user's groups",
    ]);
    await h.call('add_user_group', {
      target_user: { user_id: userId },
      target_group: { group_id: developers },
    });
    await h.call('update_image', { target_image: { image_id: imageId, enabled: false } });
    expect((await plan()).json()).toMatchObject({
      status: 403,
      code: 'WORKSPACE_NOT_ALLOWED',
      detail: 'The workspace is disabled',
    });
  });

  it('answers 404 for an unknown user or workspace and 400 for a missing one', async () => {
    expect((await plan(UNKNOWN)).json().code).toBe('USER_NOT_FOUND');
    expect((await plan(userId, UNKNOWN)).json().code).toBe('IMAGE_NOT_FOUND');
    expect((await h.call('get_launch_plan', { target_user: { user_id: userId } })).statusCode).toBe(
      400,
    );
  });

  it('needs images.view', async () => {
    await agent('agent-1');
    expect(
      (await plan(userId, imageId, await h.issueKey(['settings.view', 'users.view']))).statusCode,
    ).toBe(403);
    expect(
      (await plan(userId, imageId, await h.issueKey(['images.view'], { readOnly: true })))
        .statusCode,
    ).toBe(200);
  });

  it('plans a session from the example registry and the example settings file', async () => {
    // The example expects these two workspaces installed and the user ada (made in beforeEach).
    const registryId = (
      await h.call('add_registry', { registry_url: path.join(EXAMPLES, 'registry') })
    ).json().registry.registry_id;
    const install = async (name: string) =>
      (await h.call('install_workspace', { registry_id: registryId, name })).json().image.image_id;
    // beforeEach's firefox goes first: the installed copy then gets the settings name the file uses.
    await h.call('delete_image', { target_image: { image_id: imageId } });
    const terminal = await install('kasmweb/terminal:1.16.0');
    await install('kasmweb/firefox:1.16.0');
    await h.call('delete_zone', { target_zone: { zone_id: zoneId } });
    const settings = createSettingsService({
      settings: createSettingsRepository(h.data),
      enginePolicy: enginePolicy(h.config),
    });
    const result = await settings.apply(path.join(EXAMPLES, 'settings/settings.yaml'), {
      prune: false,
      dryRun: false,
    });
    expect(result).toMatchObject({ status: 'applied', problems: [] });
    await h.call('add_images_group', {
      target_group: { group_id: ALL_USERS },
      target_image: { image_id: terminal },
    });

    const lp = (await plan(userId, terminal)).json().launch_plan;
    expect(lp.agent).toMatchObject({ hostname: 'agent-eu-1.internal', zone_name: 'eu-west' });
    expect(lp.session_url).toBe(`https://eu.desk.example.com:8443/desktop/kasm/${lp.session_id}/`);
    expect(lp.persistent_profile_path).toBe(`/mnt/profiles/ada/${terminal}`);
    expect(
      lp.file_mappings.map((m: { destination: string; source: { name: string } }) => [
        m.destination,
        m.source.name,
      ]),
    ).toEqual([
      ['/dockerstartup/custom_setup.sh', 'kasmweb/terminal:1.16.0'],
      ['/home/kasm-user/Desktop/WELCOME.txt', 'kasmweb/terminal:1.16.0'],
      ['/etc/profile.d/company.sh', 'All Users'],
      ['/home/kasm-user/.gitconfig', 'ada'],
    ]);
  });
});
