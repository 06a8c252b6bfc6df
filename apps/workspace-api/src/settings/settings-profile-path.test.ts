import { settingsSnapshot, useSettingsFixture } from '../../test/settings-files';

const fixture = useSettingsFixture();

describe('settings apply: persistent_profile_path', () => {
  it('refuses a path with a .. segment at its line and changes nothing', async () => {
    const before = await settingsSnapshot(fixture.h);
    const file = await fixture.files.write(
      'climb.yaml',
      'version: 1\nworkspaces:\n  - {name: kasmweb/terminal:1.16.0, persistent_profile_path: "/{user_id}/%2E%2E"}\n',
    );
    const result = await fixture.apply(file);
    expect(result.status).toBe('invalid');
    expect(result.problems.map((p) => `${p.line} ${p.path}: ${p.message}`)).toEqual([
      '3 workspaces[0].persistent_profile_path: must not contain . or .. segments, raw or percent-encoded',
    ]);
    expect(await settingsSnapshot(fixture.h)).toEqual(before);
  });
});
