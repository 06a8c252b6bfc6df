import { toUuid } from '@platform/schemas';
import { createHarness, type Harness } from '../harness';
import { createGroup } from '../group-factories';
import { createImage } from '../image-factories';
import { signedInWith, submit } from './admin-fixtures';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  await h.db.image.deleteMany();
});

/** Whether the page's checkbox of a field is ticked; fails the test when there is none. */
function ticked(body: string, name: string): boolean {
  const input = new RegExp(`<input[^>]*id="f-${name}"[^>]*>`).exec(body)?.[0];
  expect(input).toContain('type="checkbox"');
  return /\schecked\b/.test(input ?? '');
}
const valueOf = (body: string, name: string) =>
  new RegExp(`<input[^>]*id="f-${name}"[^>]*value="([^"]*)"`).exec(body)?.[1];
const auditOf = async (operation: string) =>
  (await h.call('get_audit_log', { channel: 'console', operation })).json().events;

describe("the workspace form's files and clipboard", () => {
  const form = {
    friendly_name: 'Tools',
    cores: '1',
    memory_mb: '2000',
    persistent_profile_path: '',
  };

  it('shows the policy, saves ticked boxes and limits (empty: none), shows it again, audited', async () => {
    const imageId = await createImage(h.db);
    const { client } = await signedInWith(h, ['images.view', 'images.modify']);
    const page = `/admin/workspaces/images/${imageId}`;
    const before = (await client.get(page)).body;
    expect(ticked(before, 'allow_kasm_uploads')).toBe(true);
    expect(ticked(before, 'allow_kasm_clipboard_down')).toBe(true);
    expect(valueOf(before, 'max_upload_bytes')).toBe('');

    const saved = await submit(client, page, page, {
      ...form,
      allow_kasm_downloads: 'on',
      allow_kasm_clipboard_up: 'on',
      max_upload_bytes: ' 1048576 ',
      max_clipboard_bytes: '',
    });
    expect(saved.statusCode).toBe(303);
    expect(await h.db.image.findUniqueOrThrow({ where: { id: toUuid(imageId) } })).toMatchObject({
      allowUploads: false,
      allowDownloads: true,
      allowClipboardUp: true,
      allowClipboardDown: false,
      maxUploadBytes: 1_048_576n,
      maxClipboardBytes: null,
    });
    const shown = (await client.get(page)).body;
    expect(ticked(shown, 'allow_kasm_uploads')).toBe(false);
    expect(ticked(shown, 'allow_kasm_downloads')).toBe(true);
    expect(ticked(shown, 'allow_kasm_clipboard_down')).toBe(false);
    expect(valueOf(shown, 'max_upload_bytes')).toBe('1048576');
    expect(valueOf(shown, 'max_clipboard_bytes')).toBe('');

    const [event] = await auditOf('update_image');
    expect(event.before).toMatchObject({ allow_kasm_uploads: true, max_upload_bytes: null });
    expect(event.after).toMatchObject({ allow_kasm_uploads: false, max_upload_bytes: 1_048_576 });

    const lifted = await submit(client, page, page, { ...form, max_upload_bytes: '' });
    expect(lifted.statusCode).toBe(303);
    const row = await h.db.image.findUniqueOrThrow({ where: { id: toUuid(imageId) } });
    expect(row.maxUploadBytes).toBeNull();
  });

  it.each([
    ['max_upload_bytes', 'lots', 'max_upload_bytes: must be a whole number'],
    ['max_upload_bytes', '1.5', 'max_upload_bytes: must be a whole number'],
    ['max_upload_bytes', '-1', 'max_upload_bytes: must be a whole number'],
    ['max_upload_bytes', '0', 'max_upload_bytes: must be from 1 to 9007199254740991'],
    ['max_upload_bytes', '99999999999999999', 'max_upload_bytes: must be a whole number'],
    ['max_clipboard_bytes', '2000000000', 'max_clipboard_bytes: must be from 1 to 1073741824'],
    ['max_clipboard_bytes', 'x'.repeat(30), 'The form was not valid'],
  ])(
    'refuses %s "%s" with the form\'s error, and changes nothing',
    async (name, value, message) => {
      const imageId = await createImage(h.db);
      const { client } = await signedInWith(h, ['images.view', 'images.modify']);
      const page = `/admin/workspaces/images/${imageId}`;
      const res = await submit(client, page, page, { ...form, [name]: value });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('role="alert"');
      expect(res.body).toContain(message);
      const row = await h.db.image.findUniqueOrThrow({ where: { id: toUuid(imageId) } });
      expect(row).toMatchObject({
        allowUploads: true,
        maxUploadBytes: null,
        maxClipboardBytes: null,
      });
    },
  );

  it('refuses a forged CSRF token, and shows the policy read-only without images.modify', async () => {
    const imageId = await createImage(h.db, { allowDownloads: false, maxClipboardBytes: 512 });
    const page = `/admin/workspaces/images/${imageId}`;
    const { client } = await signedInWith(h, ['images.view']);
    const shown = (await client.get(page)).body;
    expect(shown).not.toContain('id="f-allow_kasm_uploads"');
    expect(shown).toContain('Downloads from ~/Downloads: refused');
    expect(shown).toContain('Largest clipboard text (bytes): 512');
    const editor = await signedInWith(h, ['images.view', 'images.modify'], 'editor');
    await editor.client.get(page);
    const forged = await editor.client.post(page, { ...form, _csrf: 'forged' });
    expect(forged.statusCode).toBe(403);
    const row = await h.db.image.findUniqueOrThrow({ where: { id: toUuid(imageId) } });
    expect(row.allowUploads).toBe(true);
  });
});

describe("the group form's refusals", () => {
  it('creates a group allowing everything by default, saves refusals, shows them again, audited', async () => {
    const { client } = await signedInWith(h, ['groups.view', 'groups.create', 'groups.modify']);
    const list = (await client.get('/admin/groups')).body;
    for (const name of ['allow_kasm_uploads', 'allow_kasm_clipboard_up'])
      expect(ticked(list, name)).toBe(true);

    const group = await createGroup(h, { name: 'Contractors' });
    const page = `/admin/groups/${group.group_id}`;
    const saved = await submit(client, page, `${page}/update`, {
      name: 'Contractors',
      priority: '100',
      allow_kasm_uploads: 'on',
      allow_kasm_clipboard_up: 'on',
    });
    expect(saved.statusCode).toBe(303);
    const answered = (
      await h.call('get_group', { target_group: { group_id: group.group_id } })
    ).json().group;
    expect(answered).toMatchObject({
      allow_kasm_uploads: true,
      allow_kasm_downloads: false,
      allow_kasm_clipboard_up: true,
      allow_kasm_clipboard_down: false,
    });
    const shown = (await client.get(page)).body;
    expect(ticked(shown, 'allow_kasm_uploads')).toBe(true);
    expect(ticked(shown, 'allow_kasm_downloads')).toBe(false);
    expect(ticked(shown, 'allow_kasm_clipboard_down')).toBe(false);

    const [event] = await auditOf('update_group');
    expect(event.before).toMatchObject({ allow_kasm_downloads: true });
    expect(event.after).toMatchObject({ allow_kasm_downloads: false });
  });

  it('writes no refusal from a form with another bad field, and shows them read-only to viewers', async () => {
    const group = await createGroup(h, { name: 'Visitors', allow_kasm_uploads: false });
    const page = `/admin/groups/${group.group_id}`;
    const { client } = await signedInWith(h, ['groups.view', 'groups.modify']);
    const bad = await submit(client, page, `${page}/update`, { name: 'Visitors', priority: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('priority: must be a whole number');
    const row = await h.db.group.findUniqueOrThrow({ where: { id: toUuid(group.group_id) } });
    expect(row).toMatchObject({ allowUploads: false, allowDownloads: true });

    const viewer = await signedInWith(h, ['groups.view'], 'viewer');
    const shown = (await viewer.client.get(page)).body;
    expect(shown).not.toContain('id="f-allow_kasm_uploads"');
    expect(shown).toContain('Uploads into ~/Uploads: refused');
    expect(shown).toContain('Downloads from ~/Downloads: allowed');
  });
});
