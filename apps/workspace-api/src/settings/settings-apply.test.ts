import path from 'node:path';
import {
  FULL_SETTINGS,
  SETUP_SCRIPT,
  settingsCounts,
  settingsSnapshot,
  useSettingsFixture,
  type SettingsFixture,
} from '../../test/settings-files';
import { fieldUpdate } from '../../test/settings-fixtures';

const fixture = useSettingsFixture();
// Copied from the fixture once its beforeAll has filled it in.
let { h, files, full, apply } = {} as SettingsFixture;
beforeAll(() => ({ h, files, full, apply } = fixture));

describe('settings apply', () => {
  it('creates everything the file names on an empty database, in one go', async () => {
    const result = await apply(full);
    expect(result).toMatchObject({ status: 'applied', problems: [], written: 8 });
    expect(await settingsCounts(h)).toEqual({ zones: 2, agents: 2, mappings: 3 });
    const agent2 = await h.db.agent.findUniqueOrThrow({
      where: { hostname: 'agent-2' },
      include: { zone: true },
    });
    expect(agent2).toMatchObject({
      zone: { name: 'eu', proxyPort: 8443, proxyPath: '/desktop/' },
      coresOverride: 6,
      memoryOverride: 12_000_000_000n,
    });
    const terminal = await h.db.image.findFirstOrThrow({
      where: { name: 'kasmweb/terminal:1.16.0' },
      include: { fileMappings: true },
    });
    expect(terminal.persistentProfilePath).toBe('/mnt/profiles/{username}');
    expect(terminal.fileMappings).toEqual([
      expect.objectContaining({
        destination: '/dockerstartup/setup.sh',
        executable: true,
        content: SETUP_SCRIPT,
      }),
    ]);
    const firefox = await h.db.image.findFirstOrThrow({
      where: { name: 'kasmweb/firefox:1.16.0' },
    });
    expect(firefox.persistentProfilePath).toBe('/keep/{username}');
  });

  it('writes nothing the second time and says so', async () => {
    await apply(full);
    const before = await settingsSnapshot(h);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await apply(full)).toEqual({
      status: 'unchanged',
      problems: [],
      changes: [],
      written: 0,
    });
    expect(await settingsSnapshot(h)).toEqual(before);
  });

  it('changes nothing on a dry run, and reports what an apply would do', async () => {
    const result = await apply(full, { dryRun: true });
    expect(result.status).toBe('dry_run');
    expect(result.written).toBe(0);
    expect(result.changes.map((c) => `${c.action} ${c.entity} ${c.key}`)).toEqual([
      'create zone default',
      'create zone eu',
      'create agent agent-1',
      'create agent agent-2',
      'update workspace kasmweb/terminal:1.16.0',
      'create file_mapping /dockerstartup/setup.sh',
      'create file_mapping /etc/profile.d/env.sh',
      'create file_mapping /home/kasm-user/.gitconfig',
    ]);
    expect(await settingsCounts(h)).toEqual({ zones: 0, agents: 0, mappings: 0 });
    expect(
      (await h.db.image.findFirstOrThrow({ where: { name: 'kasmweb/terminal:1.16.0' } }))
        .persistentProfilePath,
    ).toBe('');
  });

  it('updates only what changed in the file', async () => {
    await apply(full);
    const before = await h.db.agent.findUniqueOrThrow({ where: { hostname: 'agent-1' } });
    const changed = await files.write(
      'changed.yaml',
      FULL_SETTINGS.replace('proxy_port: 8443', 'proxy_port: 9443'),
    );
    const result = await apply(changed);
    expect(result.changes).toEqual([fieldUpdate('zone', { key: 'eu' }, 'proxy_port', 8443, 9443)]);
    expect(
      (await h.db.agent.findUniqueOrThrow({ where: { hostname: 'agent-1' } })).updatedAt,
    ).toEqual(before.updatedAt);
  });

  it("sets a workspace's idle limit and action, and a second apply writes nothing", async () => {
    const idle = await files.write(
      'idle.yaml',
      FULL_SETTINGS.replace(
        'persistent_profile_path: /mnt/profiles/{username}',
        'persistent_profile_path: /mnt/profiles/{username}\n    idle_limit_seconds: 900\n    idle_action: destroy',
      ),
    );
    expect((await apply(idle)).status).toBe('applied');
    const terminal = await h.db.image.findFirstOrThrow({
      where: { name: 'kasmweb/terminal:1.16.0' },
    });
    expect(terminal).toMatchObject({ idleLimitSeconds: 900, idleAction: 'destroy' });
    expect((await apply(idle)).status).toBe('unchanged');
  });

  it('removes what the file no longer names only with --prune', async () => {
    await apply(full);
    const smaller = await files.write(
      'smaller.yaml',
      'version: 1\nzones: [{name: default, proxy_hostname: desk.example.com, proxy_port: 0}]\n',
    );
    expect(await apply(smaller)).toMatchObject({ status: 'unchanged' });
    expect(await settingsCounts(h)).toEqual({ zones: 2, agents: 2, mappings: 3 });

    const pruned = await apply(smaller, { prune: true });
    expect(pruned.status).toBe('applied');
    expect(await settingsCounts(h)).toEqual({ zones: 1, agents: 0, mappings: 0 });
    const paths = (await h.db.image.findMany({ orderBy: { name: 'asc' } })).map(
      (i) => i.persistentProfilePath,
    );
    expect(paths).toEqual(['', '']);
  });

  it('rejects an invalid file whole, listing every problem with its line, and writes nothing', async () => {
    const broken = await files.write(
      'broken.yaml',
      `${FULL_SETTINGS}  - username: ghost\n    file_mappings: [{name: x, destination: relative}]\n`.replace(
        'proxy_port: 8443',
        'proxy_port: 99999',
      ),
    );
    const result = await apply(broken);
    expect(result.status).toBe('invalid');
    expect(result.problems.map((p) => `${p.line}:${p.column} ${p.path}: ${p.message}`)).toEqual([
      '4:83 zones[1].proxy_port: must be at most 65535',
      '21:15 users[1].username: no user has the username "ghost"',
      '22:44 users[1].file_mappings[0].destination: must be an absolute file path without . or .. segments or a trailing /',
    ]);
    expect(await settingsCounts(h)).toEqual({ zones: 0, agents: 0, mappings: 0 });
  });

  it('reports a settings file that cannot be read', async () => {
    await expect(apply(path.join(files.dir, 'nope.yaml'))).rejects.toMatchObject({
      code: 'SETTINGS_FILE_UNREADABLE',
    });
  });
});
