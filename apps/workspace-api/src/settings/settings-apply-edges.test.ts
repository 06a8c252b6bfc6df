import { symlink } from 'node:fs/promises';
import path from 'node:path';
import {
  FULL_SETTINGS,
  settingsCounts,
  settingsSnapshot,
  settingsDir,
  useSettingsFixture,
  type SettingsFixture,
} from '../../test/settings-files';

const fixture = useSettingsFixture();
// Copied from the fixture once its beforeAll has filled it in.
let { h, files, settings, full, apply } = {} as SettingsFixture;
beforeAll(() => ({ h, files, settings, full, apply } = fixture));

describe('settings apply: engine agents', () => {
  const ENGINE_FILE = `version: 1
zones: [{name: local, proxy_hostname: desk.example.com}]
agents: [{hostname: engine-1, zone: local, docker_url: "unix:///var/run/docker.sock", cores_override: 4}]
`;

  it('creates an agent with its engine address, leaves its detected resources to the heartbeat, and round-trips', async () => {
    const file = await files.write('engine.yaml', ENGINE_FILE);
    expect(await apply(file)).toMatchObject({ status: 'applied', problems: [] });
    const agent = await h.db.agent.findUniqueOrThrow({ where: { hostname: 'engine-1' } });
    expect(agent).toMatchObject({ dockerUrl: 'unix:///var/run/docker.sock', coresOverride: 4 });
    // The heartbeat's findings are not settings: a second apply leaves them alone.
    await h.db.agent.update({ where: { id: agent.id }, data: { cores: 16, memory: 2n ** 34n } });
    expect(await apply(file)).toMatchObject({ status: 'unchanged', written: 0 });
    const exported = await settings.export();
    expect(exported).toContain('docker_url: unix:///var/run/docker.sock');
    expect(exported).not.toMatch(/^\s+cores: 16$/m);
    const again = await apply(await files.write('exported-engine.yaml', exported));
    expect(again).toMatchObject({ status: 'unchanged', written: 0 });
  });

  it('refuses engine addresses create_agent refuses, at the line of the field, and writes nothing', async () => {
    const file = await files.write(
      'engines.yaml',
      `version: 1
zones: [{name: local, proxy_hostname: desk.example.com}]
agents:
  - {hostname: plain, zone: local, docker_url: "tcp://10.0.0.5:2375"}
  - {hostname: socket, zone: local, docker_url: "unix:///run/containerd/containerd.sock"}
  - hostname: no-ca
    zone: local
    docker_url: "tcp://10.0.0.5:2376"
    tls_cert_path: ${path.join(files.dir, 'cert.pem')}
    tls_key_path: ${path.join(files.dir, 'key.pem')}
  - hostname: missing
    zone: local
    docker_url: "tcp://10.0.0.5:2376"
    tls_ca_path: ${path.join(files.dir, 'ca.pem')}
    tls_cert_path: ${path.join(files.dir, 'cert.pem')}
    tls_key_path: ${path.join(files.dir, 'key.pem')}
`,
    );
    const result = await apply(file);
    expect(result.status).toBe('invalid');
    expect(result.problems.map((p) => [p.line, p.path, p.message.split(/[:;,(]/)[0]])).toEqual([
      [4, 'agents[0].docker_url', 'tcp'],
      [5, 'agents[1].docker_url', 'names a socket this service does not allow'],
      [6, 'agents[2].tls_ca_path', 'is required with a client certificate'],
      [14, 'agents[3].tls_ca_path', 'names no readable PEM file of its kind inside ENGINE_TLS_DIR'],
      [
        15,
        'agents[3].tls_cert_path',
        'names no readable PEM file of its kind inside ENGINE_TLS_DIR',
      ],
      [
        16,
        'agents[3].tls_key_path',
        'names no readable PEM file of its kind inside ENGINE_TLS_DIR',
      ],
    ]);
    expect(await h.db.agent.count()).toBe(0);
  });

  it('needs cores and memory for an agent without docker_url', async () => {
    const file = await files.write(
      'planner.yaml',
      'version: 1\nzones: [{name: z, proxy_hostname: a.example.com}]\nagents: [{hostname: p, zone: z, cores: 2}]\n',
    );
    const result = await apply(file);
    expect(result.problems.map((p) => p.message)).toEqual([
      'needs cores and memory, or a docker_url to detect them from',
    ]);
  });
});

describe('settings apply: content files, round trips and concurrency', () => {
  it('accepts content_file only inside the settings file’s directory, also through links', async () => {
    const outside = await settingsDir();
    try {
      await outside.write('secret.txt', 'secret');
      await symlink(path.join(outside.dir, 'secret.txt'), path.join(files.dir, 'link.txt'));
      const mapping = (file: string) =>
        `version: 1\nusers: [{username: ada, file_mappings: [{name: m, destination: /m, content_file: "${file}"}]}]\n`;
      const messages = async (file: string) =>
        (await apply(await files.write('c.yaml', mapping(file)))).problems.map((p) => p.message);
      expect(await messages('../secret.txt')).toEqual([
        `must stay inside ${files.dir}, the settings file's directory`,
      ]);
      expect(await messages(path.join(outside.dir, 'secret.txt'))).toEqual([
        'must be a path relative to the settings file',
      ]);
      expect(await messages('link.txt')).toEqual([
        `leads outside ${files.dir} through a symbolic link`,
      ]);
      expect(await messages('missing.sh')).toEqual([
        `there is no file ${path.join(files.dir, 'missing.sh')}`,
      ]);
      expect(await messages('scripts')).toEqual([
        `${path.join(files.dir, 'scripts')} is not a file`,
      ]);
      expect(await messages('scripts/./setup.sh')).toEqual([]);
      expect(await settingsCounts(h)).toEqual({ zones: 0, agents: 0, mappings: 1 });
    } finally {
      await outside.remove();
    }
  });

  it('follows links that stay inside, as Kubernetes mounts a ConfigMap (files linked into ..data/)', async () => {
    const mount = await settingsDir();
    try {
      await mount.write(
        '..2026_11_21_06_00_00.1/settings.yaml',
        'version: 1\nusers: [{username: ada, file_mappings: [{name: m, destination: /m, content_file: scripts/s.sh}]}]\n',
      );
      await mount.write('..2026_11_21_06_00_00.1/scripts/s.sh', 'echo mounted\n');
      await symlink('..2026_11_21_06_00_00.1', path.join(mount.dir, '..data'));
      await symlink('..data/settings.yaml', path.join(mount.dir, 'settings.yaml'));
      await symlink('..data/scripts', path.join(mount.dir, 'scripts'));
      const result = await apply(path.join(mount.dir, 'settings.yaml'));
      expect(result).toMatchObject({ status: 'applied', problems: [] });
      expect((await h.db.fileMapping.findFirstOrThrow()).content).toBe('echo mounted\n');
    } finally {
      await mount.remove();
    }
  });

  it('exports a file that applies as no changes, also with --prune and after changes made over the API', async () => {
    await apply(full);
    const groupId = (await h.call('get_groups'))
      .json()
      .groups.find((g: { name: string }) => g.name === 'Developers').group_id;
    const image_id = (await h.call('get_images'))
      .json()
      .images.find((i: { name: string }) => i.name === 'kasmweb/terminal:1.16.0').image_id;
    const policy = {
      allow_kasm_uploads: false,
      max_upload_bytes: 2 ** 40,
      allow_kasm_clipboard_down: false,
      max_clipboard_bytes: 4096,
    };
    expect(
      (await h.call('update_image', { target_image: { image_id, ...policy } })).statusCode,
    ).toBe(200);
    const refusals = {
      group_id: groupId,
      allow_kasm_downloads: false,
      allow_kasm_clipboard_up: false,
    };
    expect((await h.call('update_group', { target_group: refusals })).statusCode).toBe(200);
    const created = await h.call('create_file_mapping', {
      target_file_mapping: {
        group_id: groupId,
        name: 'Tricky',
        destination: '/t',
        content: 'a\r\n  b\t\n\n\n',
      },
    });
    expect(created.statusCode).toBe(200);
    const text = await settings.export();
    for (const line of [
      'allow_kasm_uploads: false',
      'max_upload_bytes: 1099511627776',
      'allow_kasm_clipboard_down: false',
      'max_clipboard_bytes: 4096',
      'allow_kasm_downloads: false',
      'allow_kasm_clipboard_up: false',
    ])
      expect(text).toContain(line);
    // Defaults are left out: only what was changed is written, once per field.
    expect(text.match(/allow_kasm_|max_\w+_bytes/g)).toHaveLength(6);
    const exported = await files.write('exported.yaml', text);
    const before = await settingsSnapshot(h);
    expect(await apply(exported)).toMatchObject({ status: 'unchanged', written: 0 });
    expect(await apply(exported, { prune: true })).toMatchObject({
      status: 'unchanged',
      written: 0,
    });
    expect(await settingsSnapshot(h)).toEqual(before);
  });

  it('serializes concurrent applies: the same file twice is applied once, the other sees no changes', async () => {
    const results = await Promise.all([apply(full), apply(full)]);
    expect(results.map((r) => r.status).sort()).toEqual(['applied', 'unchanged']);
    expect(await settingsCounts(h)).toEqual({ zones: 2, agents: 2, mappings: 3 });
  });

  it('serializes concurrent applies of different files: the result is exactly one of them', async () => {
    const other = await files.write(
      'other.yaml',
      FULL_SETTINGS.replace(/proxy_port: 0/, 'proxy_port: 80').replace('cores: 8,', 'cores: 16,'),
    );
    for (let round = 0; round < 4; round += 1) {
      const results = await Promise.all([
        apply(full, { prune: true }),
        apply(other, { prune: true }),
        apply(full, { prune: true }),
      ]);
      expect(results.every((r) => r.status !== 'invalid')).toBe(true);
      const [fullMatches, otherMatches] = await Promise.all([
        apply(full, { dryRun: true }),
        apply(other, { dryRun: true }),
      ]);
      expect(
        [fullMatches.status, otherMatches.status].filter((s) => s === 'unchanged'),
      ).toHaveLength(1);
      expect(await settingsCounts(h)).toEqual({ zones: 2, agents: 2, mappings: 3 });
    }
  });
});
