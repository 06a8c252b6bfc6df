import type { IncomingMessage } from 'node:http';
import type Docker from 'dockerode';
import { pack } from 'tar-stream';
import { EngineError, SESSION_LABEL, type ProfileSpec, type ProfileUser } from './engine';
import { profileUser } from './profile-user';

// Where a helper container sees the profile root. The helper is created, never started: the
// engine resolves links inside the helper's own filesystem when it reads or writes there, so a
// link to / leads into the helper's image, never to the host's root.
const ROOT_IN_HELPER = '/.workspace-profile-root';
const MODE_DIR = 2 ** 31;
const MODE_SYMLINK = 2 ** 27;
const has = (mode: number, bit: number) => Math.floor(mode / bit) % 2 === 1;

type Kind = 'missing' | 'folder' | 'link' | 'other';

async function kindOf(helper: Docker.Container, path: string): Promise<Kind> {
  let response: IncomingMessage;
  try {
    response = (await helper.infoArchive({ path })) as IncomingMessage;
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return 'missing';
    throw error;
  }
  response.resume();
  const header = response.headers['x-docker-container-path-stat'];
  const stat = JSON.parse(Buffer.from(String(header), 'base64').toString('utf8')) as {
    mode: number;
  };
  if (has(stat.mode, MODE_SYMLINK)) return 'link';
  return has(stat.mode, MODE_DIR) ? 'folder' : 'other';
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
): Promise<string> {
  const hostPath = [profile.root, ...profile.folders].join('/');
  const fail = (error: unknown): never => {
    if (error instanceof EngineError) throw error;
    const message = (error as { json?: { message?: string } }).json?.message ?? String(error);
    throw new EngineError(`The profile folder ${hostPath} could not be prepared: ${message}`);
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
      Labels: { [SESSION_LABEL]: sessionId },
      NetworkDisabled: true,
      HostConfig: { Binds: [`${profile.root}:${ROOT_IN_HELPER}`] },
    })
    .catch(fail);
  try {
    const { folders } = profile;
    let present = 0;
    for (; present < folders.length; present += 1) {
      const level = folders.slice(0, present + 1);
      const kind = await kindOf(helper, [ROOT_IN_HELPER, ...level].join('/')).catch(fail);
      if (kind === 'missing') break;
      if (kind !== 'folder') {
        const what = kind === 'link' ? 'a symbolic link' : 'not a folder';
        throw new EngineError(
          `The profile folder ${[profile.root, ...level].join('/')} is ${what}: a profile is never made through it`,
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
    await helper.remove({ force: true }).catch(() => undefined);
  }
}
