import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { extract, pack, type Header } from 'tar-stream';
import { EngineError, ProfileRefusedError, type ProfileSpec, type ProfileUser } from '../engines';
import { profileUser } from './profile-user';

// Where a helper container sees the profile root. The helper is created, never started: the
// engine resolves links inside the helper's own filesystem when it reads or writes there, so a
// link to / leads into the helper's image, never to the host's root.
const ROOT_IN_HELPER = '/.workspace-profile-root';

type Level = { kind: 'missing' } | { kind: 'folder' | 'link' | 'other'; uid: number };

/**
 * What lies at a path of the helper, not followed: the first header of the engine's archive of
 * it (a link is archived as a link), read without the rest of a folder's contents.
 */
async function levelOf(helper: Docker.Container, path: string): Promise<Level> {
  let response: Readable;
  try {
    response = (await helper.getArchive({ path })) as Readable;
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return { kind: 'missing' };
    throw error;
  }
  const entries = extract();
  try {
    const header = await new Promise<Header>((resolve, reject) => {
      entries.once('entry', resolve);
      entries.once('error', reject);
      entries.once('finish', () => reject(new Error(`the engine sent no entry for ${path}`)));
      response.once('error', reject).pipe(entries);
    });
    const uid = header.uid ?? -1;
    if (header.type === 'directory') return { kind: 'folder', uid };
    return { kind: header.type === 'symlink' ? 'link' : 'other', uid };
  } finally {
    entries.on('error', () => undefined).destroy();
    response.on('error', () => undefined).destroy();
  }
}

/** Why the engine may not mount through a level of a profile; undefined when it may. */
function levelProblem(level: Level, last: boolean): string | undefined {
  if (level.kind === 'link') return 'is a symbolic link: a profile is never made through one';
  if (level.kind === 'other') return 'is not a folder';
  // The engine resolves the host path again when it mounts: a folder a session can write (another
  // profile's home) could have been swapped for a link by then.
  if (!last && level.kind === 'folder' && level.uid !== 0) {
    return `belongs to uid ${level.uid}, not root: a profile never lies inside a folder a session can change, such as another profile`;
  }
  return undefined;
}

/** Folders as a tar: new ones above the home owned by root, the home by the session's user. */
async function foldersTar(names: readonly string[], user: ProfileUser): Promise<Buffer> {
  const archive = pack();
  const mtime = new Date();
  names.forEach((_name, i) => {
    const home = i === names.length - 1;
    archive.entry({
      name: `${names.slice(0, i + 1).join('/')}/`,
      type: 'directory',
      mode: home ? 0o750 : 0o755,
      uid: home ? user.uid : 0,
      gid: home ? user.gid : 0,
      mtime,
    });
  });
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Makes a session's profile folder on the engine's host and answers its host path. Each level
 * is looked at without following it: a link anywhere (a user may have replaced a folder of their
 * own profile that another workspace's profile lies in) refuses the launch. Missing levels are
 * then written as a tar the engine unpacks without replacing anything that is not a folder; the
 * home is owned by the image's user, so that a session running as uid 1000 can write it.
 */
export async function prepareProfile(
  docker: Docker,
  sessionId: string,
  image: string,
  profile: ProfileSpec,
  labels: Record<string, string>,
): Promise<string> {
  const hostPath = [profile.root, ...profile.folders].join('/');
  const fail = (error: unknown): never => {
    if (error instanceof EngineError) throw error;
    const message = (error as { json?: { message?: string } }).json?.message ?? String(error);
    throw new EngineError('ENGINE_PROFILE_REFUSED', `${hostPath}: ${message}`);
  };
  const imageUser = await docker
    .getImage(image)
    .inspect()
    .then((info) => info.Config?.User ?? '', fail);
  const helper = await docker
    .createContainer({
      name: `session-${sessionId}-profile`,
      Image: image,
      Entrypoint: ['/never-started'],
      Cmd: [],
      Labels: labels,
      NetworkDisabled: true,
      HostConfig: { Binds: [`${profile.root}:${ROOT_IN_HELPER}`] },
    })
    .catch(fail);
  try {
    const { folders } = profile;
    let present = 0;
    for (; present < folders.length; present += 1) {
      const level = folders.slice(0, present + 1);
      const found = await levelOf(helper, [ROOT_IN_HELPER, ...level].join('/')).catch(fail);
      if (found.kind === 'missing') break;
      const problem = levelProblem(found, present === folders.length - 1);
      if (problem) {
        throw new ProfileRefusedError(
          `The profile folder ${[profile.root, ...level].join('/')} ${problem}`,
        );
      }
    }
    // The home itself is always in the tar, so that its owner is set even when it exists.
    const from = Math.min(present, folders.length - 1);
    const user = profileUser(imageUser, profile.user);
    await helper
      .putArchive(await foldersTar(folders.slice(from), user), {
        path: [ROOT_IN_HELPER, ...folders.slice(0, from)].join('/'),
        noOverwriteDirNonDir: true,
      })
      .catch(fail);
    return hostPath;
  } finally {
    // v: the anonymous volumes of an image's VOLUME lines go with it.
    await helper.remove({ force: true, v: true }).catch(() => undefined);
  }
}
