import {
  settingsSnapshot,
  useSettingsFixture,
  type SettingsFixture,
} from '../../test/settings-files';

const fixture = useSettingsFixture();
let { h, files, apply } = {} as SettingsFixture;
beforeAll(() => ({ h, files, apply } = fixture));

const FILE = `version: 1
zones: [{name: lab, proxy_hostname: lab.example.com}]
workspaces:
  - name: kasmweb/terminal:1.16.0
    staging: [{zone: lab, num_sessions: 2, expiration: 1.5}]
`;

describe('settings apply with staging', () => {
  it('creates staging in a zone the same apply creates, then writes nothing, and prune removes it', async () => {
    const file = await files.write('staging.yaml', FILE);
    expect(await apply(file)).toMatchObject({ status: 'applied', problems: [], written: 2 });
    const [config] = await h.db.stagingConfig.findMany({ include: { zone: true, image: true } });
    expect(config).toMatchObject({
      numSessions: 2,
      expirationHours: 1.5,
      zone: { name: 'lab' },
      image: { name: 'kasmweb/terminal:1.16.0' },
    });
    const before = await settingsSnapshot(h);
    expect((await apply(file)).status).toBe('unchanged');
    expect(await settingsSnapshot(h)).toEqual(before);

    const bare = await files.write(
      'bare.yaml',
      'version: 1\nzones: [{name: lab, proxy_hostname: lab.example.com}]\n',
    );
    expect((await apply(bare)).status).toBe('unchanged');
    expect(await apply(bare, { prune: true })).toMatchObject({ status: 'applied' });
    expect(await h.db.stagingConfig.count()).toBe(0);
  });
});
