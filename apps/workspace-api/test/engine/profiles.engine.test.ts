import {
  existsSync,
  lstatSync,
  mkdirSync,
  readlinkSync,
  statSync,
  symlinkSync,
  unlinkSync,
} from 'node:fs';
import path from 'node:path';
import { toUuid } from '@platform/schemas';
import { TEST_WEB_IMAGE } from '@platform/testing';
import { closeWorld, createSessionWorld, docker, LONG, type SessionWorld } from './session-fixture';

jest.setTimeout(4 * LONG);

// The test web image runs as root; Kasm's run as uid 1000, as this one made from it does.
const UID_1000_IMAGE = 'platform-test/web-uid1000:1';

let w: SessionWorld;
beforeAll(async () => {
  const base = await docker.createContainer({ Image: TEST_WEB_IMAGE });
  await base.commit({ repo: 'platform-test/web-uid1000', tag: '1', changes: 'USER 1000:1000' });
  await base.remove({ force: true });
  w = await createSessionWorld();
});
afterAll(async () => {
  await closeWorld(w);
  await docker
    .getImage(UID_1000_IMAGE)
    .remove({ force: true })
    .catch(() => undefined);
});

const exec = async (kasm_id: string, user_id: string, cmd: string) => {
  const res = await w.h.call('exec_command_kasm', { kasm_id, user_id, exec_config: { cmd } });
  expect(res.statusCode).toBe(200);
  return res.json() as { exit_code: number; output: string };
};

async function launch(userId: string, imageId: string, status: 'running' | 'error') {
  const { kasm_id } = await w.request({ user_id: userId, image_id: imageId });
  return { kasm_id, row: await w.waitForStatus(toUuid(kasm_id), status) };
}

describe('a profile of an image that runs as uid 1000', () => {
  it('is writable by the session user and its files are there in the next session', async () => {
    const imageId = await w.addImage({
      name: UID_1000_IMAGE,
      persistentProfilePath: `${w.profiles}/{image_id}/{username}`,
    });
    const user = await w.member('kim');
    // As the engine made it before: owned by root, so that uid 1000 could not write it.
    mkdirSync(path.join(w.profiles, imageId, 'kim'), { recursive: true, mode: 0o755 });
    const first = await launch(user.user_id, imageId, 'running');
    const wrote = await exec(
      first.kasm_id,
      user.user_id,
      'id -u; touch /home/kasm-user/x && echo "from the first session" > /home/kasm-user/notes.txt',
    );
    expect(wrote).toMatchObject({ exit_code: 0, output: '1000\n' });
    const home = statSync(path.join(w.profiles, imageId, 'kim'));
    expect([home.uid, home.gid, home.mode & 0o777]).toEqual([1000, 1000, 0o750]);
    const above = statSync(path.join(w.profiles, imageId));
    expect([above.uid, above.mode & 0o777]).toEqual([0, 0o755]);

    await w.h.call('destroy_kasm', { kasm_id: first.kasm_id, user_id: user.user_id });
    const second = await launch(user.user_id, imageId, 'running');
    const read = await exec(second.kasm_id, user.user_id, 'cat /home/kasm-user/notes.txt');
    expect(read).toMatchObject({ exit_code: 0, output: 'from the first session\n' });
  });
});

describe('a profile nested in another user-writable profile', () => {
  it.each([
    ['the home itself', '{username}/inner'],
    ['a folder above the home', '{username}/inner/{image_id}'],
  ])(
    'is refused when the user replaced %s with a link to /, which stays as the user left it',
    async (_what, below) => {
      const outer = w.imageId;
      const nested = await w.addImage({
        name: UID_1000_IMAGE,
        persistentProfilePath: `${w.profiles}/${below}`,
      });
      const user = await w.member(`mallory-${below.split('/').length}`);
      const { kasm_id } = await launch(user.user_id, outer, 'running');
      const replaced = await exec(
        kasm_id,
        user.user_id,
        'rm -rf /home/kasm-user/inner && ln -s / /home/kasm-user/inner',
      );
      expect(replaced.exit_code).toBe(0);
      const link = path.join(w.profiles, user.username, 'inner');

      const refused = await launch(user.user_id, nested, 'error');
      expect(refused.row.statusMessage).toBe(
        `The profile folder ${path.dirname(link)} belongs to uid 1000, not root: a profile never lies inside a folder a session can change, such as another profile`,
      );
      expect(await w.containersOf(refused.kasm_id)).toHaveLength(0);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(readlinkSync(link)).toBe('/');
      expect(existsSync(path.join('/', nested))).toBe(false);
    },
  );
});

describe('a profile path through a link on the host', () => {
  it.each([
    ['a folder above the home', 'links/{username}', 'links', 'through-links'],
    ['the home', '{username}', 'linked-home', 'linked-home'],
  ])(
    'is refused when %s is a link to /, and nothing is made through it',
    async (_what, below, at, username) => {
      const link = path.join(w.profiles, at);
      symlinkSync('/', link);
      const imageId = await w.addImage({
        name: UID_1000_IMAGE,
        persistentProfilePath: `${w.profiles}/${below}`,
      });
      const user = await w.member(username);
      const refused = await launch(user.user_id, imageId, 'error');
      expect(refused.row.statusMessage).toBe(
        `The profile folder ${link} is a symbolic link: a profile is never made through one`,
      );
      expect(await w.containersOf(refused.kasm_id)).toHaveLength(0);
      expect(readlinkSync(link)).toBe('/');
      expect(existsSync(path.join('/', username))).toBe(false);
      unlinkSync(link);
    },
  );
});

describe('a profile path stored before the rules', () => {
  it.each([
    ['climbs with ..', (root: string) => `${root}/{user_id}/..`, 'has a ., .. or \\ segment'],
    ['lies outside PROFILE_ROOT', () => '/{user_id}', "is not a folder inside the agent's"],
  ])('is refused at launch when it %s', async (_what, template, reason) => {
    const imageId = await w.addImage({
      name: UID_1000_IMAGE,
      persistentProfilePath: template(w.profiles),
    });
    const user = await w.member();
    const refused = await launch(user.user_id, imageId, 'error');
    expect(refused.row.statusMessage).toContain(reason);
    expect(existsSync(path.join('/', user.user_id))).toBe(false);
    expect(await w.containersOf(refused.kasm_id)).toHaveLength(0);
  });
});
