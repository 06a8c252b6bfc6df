import { useSettingsFixture, type SettingsFixture } from '../../test/settings-files';

const fixture = useSettingsFixture();
let { h, files, apply, settings } = {} as SettingsFixture;
beforeAll(() => ({ h, files, apply, settings } = fixture));

const permissionsOf = async (name: string) =>
  (await h.db.group.findUniqueOrThrow({ where: { name } })).permissions;

describe("a settings file's group permissions", () => {
  it('sets them, says what changes, keeps those of groups it names without them, and exports them', async () => {
    const file = await files.write(
      'groups.yaml',
      'version: 1\ngroups:\n  - {name: Developers, permissions: [users.view, sessions.view]}\n  - {name: Administrators}\n',
    );
    const dry = await apply(file, { dryRun: true, prune: true });
    // Prune clears the profile path the file does not give; permissions it does not give stay.
    expect(dry.changes.filter((c) => c.entity === 'group')).toEqual([
      expect.objectContaining({
        entity: 'group',
        key: 'Developers',
        fields: [{ field: 'permissions', from: '', to: 'sessions.view, users.view' }],
      }),
    ]);
    expect(await apply(file, { prune: true })).toMatchObject({ status: 'applied', written: 2 });
    expect(await permissionsOf('Developers')).toEqual(['users.view', 'sessions.view']);
    expect(await permissionsOf('Administrators')).toEqual(['global_admin']);
    const exported = await settings.export();
    expect(exported).toContain('permissions:');
    const again = await files.write('exported.yaml', exported);
    expect(await apply(again, { prune: true })).toMatchObject({ status: 'unchanged' });
  });

  it('refuses a permission outside the catalogue, at its place in the file', async () => {
    const file = await files.write(
      'bad.yaml',
      'version: 1\ngroups:\n  - {name: Developers, permissions: [root]}\n',
    );
    const result = await apply(file);
    expect(result.status).not.toBe('applied');
    expect(JSON.stringify(result.problems)).toContain('groups');
    expect(await permissionsOf('Developers')).toEqual([]);
  });
});
