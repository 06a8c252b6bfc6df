import { parse } from 'yaml';
import { auditedSettingsChanges } from '../../src/settings';
import { createGroup } from '../group-factories';
import { useSettingsFixture, type SettingsFixture } from '../settings-files';

const fixture = useSettingsFixture();
let { h, files, settings, apply } = {} as SettingsFixture;
beforeAll(() => ({ h, files, settings, apply } = fixture));

const SECRET_VALUE = 'never-exported-8d41f0c2';
beforeAll(() => {
  process.env.TEST_SSO_FILE_SECRET = SECRET_VALUE;
});
afterAll(() => {
  delete process.env.TEST_SSO_FILE_SECRET;
});
beforeEach(() => createGroup(h, { name: 'Admins' }));

/** In the order export writes: providers by name, mappings by value then group. */
const PROVIDERS = `version: 1
sso_providers:
  - name: acme
    kind: oidc
    display_name: Acme Corp
    enabled: true
    oidc:
      issuer: https://id.example.org/realms/acme
      client_id: workspaces
      client_secret: {env: TEST_SSO_FILE_SECRET}
      scopes: [openid, profile, groups]
    group_mappings:
      - {value: admins, group: Admins}
      - {value: devs, group: Developers}
  - name: lab
    kind: oidc
    display_name: Lab
    enabled: false
    oidc:
      issuer: http://127.0.0.1:9/lab
      client_id: lab
      client_secret: {file: /run/secrets/lab-oidc}
      allow_http: true
`;

const ssoSection = (text: string) => (parse(text) as { sso_providers?: unknown }).sso_providers;

describe('identity providers in the settings file', () => {
  it('applies providers, and exports exactly the file it applied: secrets by reference, never their values', async () => {
    const file = await files.write('sso.yaml', PROVIDERS);
    const result = await apply(file);
    expect(result).toMatchObject({ status: 'applied', written: 2 });
    const stored = await h.db.ssoProvider.findMany({
      orderBy: { name: 'asc' },
      include: { groupMappings: { include: { group: true } } },
    });
    expect(stored.map((p) => [p.name, p.kind, p.displayName, p.enabled])).toEqual([
      ['acme', 'oidc', 'Acme Corp', true],
      ['lab', 'oidc', 'Lab', false],
    ]);
    expect(stored[0].groupMappings.map((m) => `${m.value}=${m.group.name}`).sort()).toEqual([
      'admins=Admins',
      'devs=Developers',
    ]);

    const exported = await settings.export();
    expect(ssoSection(exported)).toEqual(ssoSection(PROVIDERS));
    expect(exported).not.toContain(SECRET_VALUE);
    expect(JSON.stringify(stored)).not.toContain(SECRET_VALUE);
    expect(exported).toContain('env: TEST_SSO_FILE_SECRET');

    // The export applied again (also as the whole truth) changes nothing.
    const again = await files.write('exported.yaml', exported);
    expect(await apply(again)).toMatchObject({ status: 'unchanged', written: 0 });
    expect(await apply(again, { prune: true })).toMatchObject({ status: 'unchanged' });
  });

  it('updates what changed, prunes providers the file drops, and audits each change by name', async () => {
    await apply(await files.write('sso.yaml', PROVIDERS));
    const changed = PROVIDERS.replace('display_name: Acme Corp', 'display_name: Acme')
      .replace('      - {value: admins, group: Admins}\n', '')
      .replace(/ {2}- name: lab[\s\S]*$/, '');
    const file = await files.write('changed.yaml', changed);
    const planned = await apply(file, { prune: true, dryRun: true });
    const providerChanges = planned.changes.filter((c) => c.entity === 'sso_provider');
    expect(providerChanges.map((c) => [c.action, c.key, c.fields.map((f) => f.field)])).toEqual([
      ['delete', 'lab', []],
      ['update', 'acme', ['display_name', 'group_mappings']],
    ]);
    const result = await apply(file, { prune: true });
    expect(result.status).toBe('applied');
    expect(await h.db.ssoProvider.findMany({ select: { name: true } })).toEqual([{ name: 'acme' }]);
    expect(ssoSection(await settings.export())).toEqual(ssoSection(changed));
    const events = auditedSettingsChanges(result.changes).filter(
      (e) => e.target.type === 'sso_provider',
    );
    expect(events.map((e) => [e.target, e.before, e.after])).toEqual([
      [{ type: 'sso_provider', id: 'lab' }, expect.objectContaining({ key: 'lab' }), null],
      [
        { type: 'sso_provider', id: 'acme' },
        expect.objectContaining({ display_name: 'Acme Corp' }),
        expect.objectContaining({ display_name: 'Acme' }),
      ],
    ]);
  });

  it('reports every problem of the providers at once, with its place, and writes nothing', async () => {
    const file = await files.write(
      'bad.yaml',
      `version: 1
sso_providers:
  - name: acme
    kind: oidc
    display_name: Acme
    oidc:
      issuer: https://id.example.org
      client_id: ws
      client_secret: hunter2
    group_mappings:
      - {value: devs, group: Nobody}
  - name: nosettings
    kind: oidc
    display_name: No settings
  - name: acme
    kind: oidc
    display_name: Twice
    oidc: {issuer: https://id.example.org, client_id: ws}
  - name: Bad Name
    kind: saml2
    display_name: Wrong
`,
    );
    const result = await apply(file);
    expect(result.status).toBe('invalid');
    expect(result.problems.map((p) => [p.line, p.path, p.message])).toEqual([
      [9, 'sso_providers[0].oidc.client_secret', expect.stringContaining('{env: VARIABLE}')],
      [11, 'sso_providers[0].group_mappings[0].group', 'no group is named "Nobody"'],
      // A missing block is told at its provider.
      [12, 'sso_providers[1].oidc', 'is required'],
      [15, 'sso_providers[2].name', 'sso provider "acme" is listed twice (first at line 3)'],
      [19, 'sso_providers[3].name', expect.stringContaining('must be lowercase letters')],
      [20, 'sso_providers[3].kind', expect.stringMatching(/^must be|matches none/)],
    ]);
    expect(await h.db.ssoProvider.count()).toBe(0);
  });
});
