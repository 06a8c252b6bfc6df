import { randomUUID } from 'node:crypto';
import { toWireId } from '@platform/schemas';
import { userInput } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { createImage } from '../../test/image-factories';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());
beforeEach(() => h.reset());

const newUser = async () =>
  (await h.call('create_user', { target_user: userInput() })).json().user.user_id as string;
const attributesOf = async (user_id: string) =>
  (await h.call('get_attributes', { target_user: { user_id } })).json().user_attributes;
const update = (fields: Record<string, unknown>) =>
  h.call('update_user_attributes', { target_user_attributes: fields });

describe('get_attributes', () => {
  it('answers the defaults for a user who never changed them', async () => {
    const user_id = await newUser();
    expect(await attributesOf(user_id)).toEqual({
      user_id,
      default_image: null,
      show_tips: true,
      auto_login_kasm: false,
      toggle_control_panel: true,
      theme: 'Light',
      chat_sfx: true,
      ssh_public_key: '',
      preferred_language: '',
      preferred_timezone: '',
    });
  });

  it('answers 404 for an unknown user', async () => {
    const res = await h.call('get_attributes', {
      target_user: { user_id: toWireId(randomUUID()) },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('USER_NOT_FOUND');
  });
});

describe('update_user_attributes', () => {
  it('changes only the fields given; null leaves a field as it is', async () => {
    const user_id = await newUser();
    const imageId = await createImage(h.db);
    const res = await update({ user_id, default_image: imageId, theme: 'Dark', show_tips: false });
    expect(res.statusCode).toBe(200);
    await update({ user_id, preferred_timezone: 'Europe/Berlin', theme: null });
    expect(await attributesOf(user_id)).toMatchObject({
      default_image: imageId,
      theme: 'Dark',
      show_tips: false,
      preferred_timezone: 'Europe/Berlin',
      chat_sfx: true,
    });
  });

  it('clears the default workspace with "", and when the workspace is deleted', async () => {
    const user_id = await newUser();
    const imageId = await createImage(h.db);
    await update({ user_id, default_image: imageId });
    await update({ user_id, default_image: '' });
    expect((await attributesOf(user_id)).default_image).toBeNull();
    await update({ user_id, default_image: imageId });
    await h.call('delete_image', { target_image: { image_id: imageId } });
    expect((await attributesOf(user_id)).default_image).toBeNull();
  });

  it('answers 404 for an unknown user or workspace, 400 for a wrong type', async () => {
    const user_id = await newUser();
    const ghost = toWireId(randomUUID());
    expect((await update({ user_id: ghost, theme: 'Dark' })).statusCode).toBe(404);
    const noImage = await update({ user_id, default_image: ghost });
    expect(noImage.statusCode).toBe(404);
    expect(noImage.json().code).toBe('IMAGE_NOT_FOUND');
    expect((await update({ user_id, show_tips: 'yes' })).statusCode).toBe(400);
  });

  it('needs users.modify; get_attributes needs users.view', async () => {
    const user_id = await newUser();
    const viewer = await h.issueKey(['users.view'], { readOnly: true });
    expect((await h.call('get_attributes', { target_user: { user_id } }, viewer)).statusCode).toBe(
      200,
    );
    const res = await h.call(
      'update_user_attributes',
      { target_user_attributes: { user_id, theme: 'Dark' } },
      viewer,
    );
    expect(res.statusCode).toBe(403);
  });
});

describe('request_kasm without image_id', () => {
  it('answers 400 when the user has no default workspace', async () => {
    const res = await h.call('request_kasm', { user_id: await newUser() });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { field: 'image_id', message: 'is required: the user has no default_image attribute' },
    ]);
  });

  it('launches the default workspace (here refused: it is on none of the user’s groups)', async () => {
    const user_id = await newUser();
    await update({ user_id, default_image: await createImage(h.db) });
    const res = await h.call('request_kasm', { user_id, image_id: null });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('WORKSPACE_NOT_ALLOWED');
  });
});
