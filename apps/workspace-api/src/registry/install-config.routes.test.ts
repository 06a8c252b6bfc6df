import type { Harness } from '../../test/harness';
import { registryList, workspaceEntry } from '../../test/registry-fixtures';
import { useRegistryFixture } from '../../test/registry-routes-fixture';
import { registryFiles, type RegistryServer } from '../../test/registry-server';
import { REASONS } from '../domain';

// A registry is untrusted input (spec §11): this one asks for everything a container could be
// given to reach its host, and for commands as root over a password sent in clear.
const HOSTILE = workspaceEntry({
  name: 'evil/desktop:1.16.0',
  friendly_name: 'Desktop',
  run_config: {
    hostname: 'kasm',
    scheme: 'http',
    port: 8080,
    privileged: true,
    user: 'root',
    network_mode: 'host',
    pid_mode: 'host',
    devices: ['/dev/kvm:/dev/kvm'],
    cap_add: ['SYS_ADMIN'],
    security_opt: ['seccomp=unconfined'],
    volumes: { '/': { bind: '/host', mode: 'rw' } },
    environment: { A: '1' },
  },
  exec_config: {
    go: { cmd: 'echo go', user: 'root', privileged: true, cap_add: ['ALL'] },
    assign: { cmd: 'echo assign', user: '0:0' },
    pre_launch: { cmd: 'chown -R 0 /home', user: 'root' },
  },
  volume_mappings: { '/var/run/docker.sock': { bind: '/var/run/docker.sock', mode: 'rw' } },
});

const IGNORED = [
  { key: 'run_config.privileged', reason: REASONS.isolation },
  { key: 'run_config.user', reason: REASONS.isolation },
  { key: 'run_config.network_mode', reason: REASONS.isolation },
  { key: 'run_config.pid_mode', reason: REASONS.isolation },
  { key: 'run_config.devices', reason: REASONS.isolation },
  { key: 'run_config.cap_add', reason: REASONS.isolation },
  { key: 'run_config.security_opt', reason: REASONS.isolation },
  { key: 'run_config.volumes', reason: REASONS.isolation },
  { key: 'run_config.environment', reason: REASONS.runKey },
  { key: 'exec_config.go.cap_add', reason: REASONS.isolation },
  { key: 'exec_config.pre_launch', reason: REASONS.step },
  { key: 'run_config.scheme', reason: REASONS.plainHttp },
  { key: 'exec_config.go.user', reason: REASONS.rootExec },
  { key: 'exec_config.go.privileged', reason: REASONS.privilegedExec },
  { key: 'exec_config.assign.user', reason: REASONS.rootExec },
  { key: 'volume_mappings./var/run/docker.sock', reason: REASONS.volumeMapping },
];

// The registry's entry is stored as jsonb, which keeps keys in its own order.
const byKey = (notes: { key: string }[]) => [...notes].sort((a, b) => a.key.localeCompare(b.key));

let h: Harness;
let server: RegistryServer;
let registryId: string;
const serve = (entry: Record<string, unknown>) =>
  server.serve('/reg', registryFiles('1.0', { '1.0': registryList([entry]) }));
const fixture = useRegistryFixture((f) => ({ h, server } = f));
beforeEach(async () => {
  serve(HOSTILE);
  registryId = (await fixture.addOk(`${server.origin}/reg`)).registry_id;
});

const install = () =>
  h.call('install_workspace', { registry_id: registryId, name: 'evil/desktop:1.16.0' });

describe('a registry entry’s run_config and exec_config', () => {
  it('lists, before any install, each key a workspace from the entry would not honour', async () => {
    const { workspaces } = await fixture.workspacesOf(registryId);
    expect(byKey(workspaces[0].ignored_config)).toEqual(byKey(IGNORED));
  });

  it('installs only the allowlisted keys, no host paths, and reports each key left out', async () => {
    const res = await install();
    expect(res.statusCode).toBe(200);
    expect(byKey(res.json().ignored_config)).toEqual(byKey(IGNORED));
    expect(res.json().image).toMatchObject({
      run_config: { hostname: 'kasm', scheme: 'http', port: 8080 },
      exec_config: {
        go: { cmd: 'echo go', user: 'root', privileged: true },
        assign: { cmd: 'echo assign', user: '0:0' },
      },
      volume_mappings: {},
      allow_root_exec: false,
      allow_plain_http: false,
    });
    const [stored] = (await h.call('get_images')).json().images;
    expect(Object.keys(stored.run_config).sort()).toEqual(['hostname', 'port', 'scheme']);
    expect(Object.keys(stored.exec_config).sort()).toEqual(['assign', 'go']);
  });

  it('lets only an administrator’s update_image allow root commands and plain HTTP, explicitly', async () => {
    const { image } = (await install()).json();
    const res = await h.call('update_image', {
      target_image: { image_id: image.image_id, allow_root_exec: true, allow_plain_http: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().image).toMatchObject({ allow_root_exec: true, allow_plain_http: true });
    const off = await h.call('update_image', {
      target_image: { image_id: image.image_id, allow_plain_http: false },
    });
    expect(off.json().image).toMatchObject({ allow_root_exec: true, allow_plain_http: false });
  });

  it('refuses the allowances to a key holding only images.modify, and lets settings.modify set them', async () => {
    const { image } = (await install()).json();
    const imageKey = await h.issueKey(['images.modify']);
    for (const allowance of ['allow_root_exec', 'allow_plain_http']) {
      const body = { target_image: { image_id: image.image_id, [allowance]: true } };
      const res = await h.call('update_image', body, imageKey);
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toContain('global_admin or settings.modify');
    }
    const stored = (await h.call('get_images')).json().images[0];
    expect(stored).toMatchObject({ allow_root_exec: false, allow_plain_http: false });
    const settingsKey = await h.issueKey(['images.modify', 'settings.modify']);
    const body = { target_image: { image_id: image.image_id, allow_root_exec: true } };
    expect((await h.call('update_image', body, settingsKey)).statusCode).toBe(200);
    const off = { target_image: { image_id: image.image_id, allow_root_exec: false } };
    expect((await h.call('update_image', off, imageKey)).statusCode).toBe(200);
  });

  it('keeps the allowances out of a refresh and a reinstall: a registry never sets them', async () => {
    const { image } = (await install()).json();
    await h.call('delete_image', { target_image: { image_id: image.image_id } });
    serve({ ...HOSTILE, allow_root_exec: true, allow_plain_http: true });
    expect((await h.call('refresh_registry', { registry_id: registryId })).statusCode).toBe(200);
    expect((await install()).json().image).toMatchObject({
      allow_root_exec: false,
      allow_plain_http: false,
    });
  });
});
