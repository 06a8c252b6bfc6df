import { useSettingsFixture, type SettingsFixture } from '../../test/settings-files';
import { formatChange } from './settings-format';

const fixture = useSettingsFixture();
let { h, files, apply, settings } = {} as SettingsFixture;
beforeAll(() => ({ h, files, apply, settings } = fixture));

const terminal = () => h.db.image.findFirstOrThrow({ where: { name: 'kasmweb/terminal:1.16.0' } });
const developers = () => h.db.group.findUniqueOrThrow({ where: { name: 'Developers' } });

const POLICY_FILE = `version: 1
workspaces:
  - name: kasmweb/terminal:1.16.0
    allow_kasm_uploads: false
    allow_kasm_clipboard_down: false
    max_upload_bytes: 5000000000
    max_clipboard_bytes: 65536
groups:
  - name: Developers
    allow_kasm_downloads: false
    allow_kasm_clipboard_up: false
`;

describe("a settings file's session policies", () => {
  it('sets a workspace policy and group refusals, lists them in the dry run, and applies once', async () => {
    const file = await files.write('policy.yaml', POLICY_FILE);
    const dry = await apply(file, { dryRun: true });
    expect(dry.changes.map(formatChange)).toEqual([
      '~ workspace "kasmweb/terminal:1.16.0": allow_kasm_uploads true → false, allow_kasm_clipboard_down true → false, max_upload_bytes null → 5000000000, max_clipboard_bytes null → 65536',
      '~ group "Developers": allow_kasm_downloads true → false, allow_kasm_clipboard_up true → false',
    ]);
    expect(await terminal()).toMatchObject({ allowUploads: true, maxUploadBytes: null });

    expect(await apply(file)).toMatchObject({ status: 'applied', written: 2 });
    expect(await terminal()).toMatchObject({
      allowUploads: false,
      allowDownloads: true,
      allowClipboardUp: true,
      allowClipboardDown: false,
      maxUploadBytes: 5_000_000_000n,
      maxClipboardBytes: 65536,
    });
    expect(await developers()).toMatchObject({
      allowUploads: true,
      allowDownloads: false,
      allowClipboardUp: false,
      allowClipboardDown: true,
    });
    // The API answers what the file set.
    const group = (
      await h.call('get_group', { target_group: { group_id: (await developers()).id } })
    ).json().group;
    expect(group).toMatchObject({ allow_kasm_downloads: false, allow_kasm_clipboard_up: false });
    expect(await apply(file)).toMatchObject({ status: 'unchanged', written: 0 });
  });

  it('lifts a limit with null, keeps what a file leaves out, and with --prune resets only workspaces', async () => {
    await apply(await files.write('policy.yaml', POLICY_FILE));
    const lifted = await files.write(
      'lifted.yaml',
      'version: 1\nworkspaces: [{name: "kasmweb/terminal:1.16.0", max_upload_bytes: null}]\ngroups: [{name: Developers}]\n',
    );
    expect((await apply(lifted)).changes.map(formatChange)).toEqual([
      '~ workspace "kasmweb/terminal:1.16.0": max_upload_bytes 5000000000 → null',
    ]);
    expect(await terminal()).toMatchObject({ allowUploads: false, maxUploadBytes: null });

    const pruned = await apply(lifted, { prune: true });
    expect(pruned.changes.filter((c) => c.entity === 'workspace').map(formatChange)).toEqual([
      '~ workspace "kasmweb/firefox:1.16.0": persistent_profile_path "/keep/{username}" → ""',
      '~ workspace "kasmweb/terminal:1.16.0": allow_kasm_uploads false → true, allow_kasm_clipboard_down false → true, max_clipboard_bytes 65536 → null',
    ]);
    // A group's refusal is never lifted by leaving it out: its members keep being refused.
    expect(pruned.changes.filter((c) => c.entity === 'group')).toEqual([]);
    expect(await developers()).toMatchObject({ allowDownloads: false, allowClipboardUp: false });
  });

  it('exports only the fields off their defaults, and the export applies as no changes', async () => {
    await apply(await files.write('policy.yaml', POLICY_FILE));
    const text = await settings.export();
    expect(text).toContain(
      '    allow_kasm_uploads: false\n    allow_kasm_clipboard_down: false\n    max_upload_bytes: 5000000000\n    max_clipboard_bytes: 65536\n',
    );
    expect(text).toContain('  - name: Developers\n    allow_kasm_downloads: false\n');
    expect(text).not.toMatch(/: true$|: null$/m);
    const exported = await files.write('exported.yaml', text);
    expect(await apply(exported, { prune: true })).toMatchObject({ status: 'unchanged' });
  });

  it("refuses values update_image and update_group refuse, at the field's line, and writes nothing", async () => {
    const file = await files.write(
      'bad.yaml',
      `version: 1
workspaces:
  - name: kasmweb/terminal:1.16.0
    allow_kasm_uploads: "no"
    max_upload_bytes: 0
    max_clipboard_bytes: 2000000000
groups:
  - {name: Developers, allow_kasm_downloads: 1, max_upload_bytes: 5}
`,
    );
    const result = await apply(file);
    expect(result.status).toBe('invalid');
    expect(result.problems.map((p) => `${p.line} ${p.path}`)).toEqual([
      '4 workspaces[0].allow_kasm_uploads',
      '5 workspaces[0].max_upload_bytes',
      '6 workspaces[0].max_clipboard_bytes',
      '8 groups[0].allow_kasm_downloads',
      '8 groups[0].max_upload_bytes',
    ]);
    expect(await terminal()).toMatchObject({ allowUploads: true, maxUploadBytes: null });
    expect(await developers()).toMatchObject({ allowDownloads: true });
  });
});
