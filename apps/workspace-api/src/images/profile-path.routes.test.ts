import { UNKNOWN_ID } from '../../test/factories';
import { useHarness, type Harness } from '../../test/harness';
import { createImage } from '../../test/image-factories';

let h: Harness;
let imageId: string;
useHarness((ready) => (h = ready));
beforeEach(async () => {
  imageId = await createImage(h.db, { name: 'kasmweb/terminal:1.16.0' });
});

const set = (persistent_profile_path: unknown, credentials = h.admin) =>
  h.call(
    'set_persistent_profile_path',
    { target_image: { image_id: imageId, persistent_profile_path } },
    credentials,
  );
const get = () => h.call('get_persistent_profile_path', { target_image: { image_id: imageId } });

describe('persistent profile path operations', () => {
  it('sets and reads the path, the same one update_image and get_images show', async () => {
    expect((await get()).json()).toEqual({
      image_id: imageId,
      name: 'kasmweb/terminal:1.16.0',
      persistent_profile_path: '',
    });
    expect((await set('s3://profiles/{user_id}/{image_id}')).json().persistent_profile_path).toBe(
      's3://profiles/{user_id}/{image_id}',
    );
    expect((await h.call('get_images')).json().images[0].persistent_profile_path).toBe(
      's3://profiles/{user_id}/{image_id}',
    );
    await h.call('update_image', {
      target_image: { image_id: imageId, persistent_profile_path: '/mnt/{username}' },
    });
    expect((await get()).json().persistent_profile_path).toBe('/mnt/{username}');
    expect((await set('')).json().persistent_profile_path).toBe('');
  });

  it('answers 400 PROFILE_PATH_INVALID with every problem, exactly as update_image does', async () => {
    const res = await set('relative/{home}');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('PROFILE_PATH_INVALID');
    expect(res.json().errors).toHaveLength(3);
    const viaUpdate = await h.call('update_image', {
      target_image: { image_id: imageId, persistent_profile_path: 'relative/{home}' },
    });
    expect(viaUpdate.json().errors).toEqual(res.json().errors);
    expect((await get()).json().persistent_profile_path).toBe('');
  });

  it.each([
    ['/{user_id}/..', 'must not contain . or .. segments, raw or percent-encoded'],
    ['/{user_id}/%2e%2e', 'must not contain . or .. segments, raw or percent-encoded'],
    ['/p/{username}/%252E%252E/', 'must not contain . or .. segments, raw or percent-encoded'],
    ['/p/{username}\\..\\..', 'must separate folders with /, not \\'],
    [
      '/p/{username}\t',
      'must not contain control characters (NUL included), raw or percent-encoded',
    ],
  ])(
    'answers 400 PROFILE_PATH_INVALID for %p, the path that reached the host root',
    async (path, message) => {
      const res = await set(path);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'PROFILE_PATH_INVALID',
        errors: [{ field: 'target_image.persistent_profile_path', message }],
      });
      expect((await get()).json().persistent_profile_path).toBe('');
    },
  );

  it('answers 404 for an unknown workspace and 400 without a path', async () => {
    expect(
      (
        await h.call('get_persistent_profile_path', { target_image: { image_id: UNKNOWN_ID } })
      ).json().code,
    ).toBe('IMAGE_NOT_FOUND');
    expect(
      (
        await h.call('set_persistent_profile_path', {
          target_image: { image_id: UNKNOWN_ID, persistent_profile_path: '' },
        })
      ).json().code,
    ).toBe('IMAGE_NOT_FOUND');
    expect(
      (await h.call('set_persistent_profile_path', { target_image: { image_id: imageId } }))
        .statusCode,
    ).toBe(400);
  });

  it('needs settings.view to read and settings.modify to set', async () => {
    const imagesModify = await h.issueKey(['images.modify', 'images.view']);
    expect((await set('/p/{username}', imagesModify)).statusCode).toBe(403);
    expect((await set('/p/{username}', await h.issueKey(['settings.modify']))).statusCode).toBe(
      200,
    );
    const viewer = await h.issueKey(['settings.view']);
    expect(
      (await h.call('get_persistent_profile_path', { target_image: { image_id: imageId } }, viewer))
        .statusCode,
    ).toBe(200);
  });
});
