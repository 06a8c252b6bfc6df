import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { extract } from 'tar-stream';
import { runsAsRoot } from './container-user';

// The files are a few kilobytes; a larger one is not a passwd file to trust.
const FILE_LIMIT_BYTES = 1_048_576;

/** A file of the container as text, '' when missing; null when it is not a plain file (a link). */
async function fileText(container: Docker.Container, path: string): Promise<string | null> {
  let response: Readable;
  try {
    response = (await container.getArchive({ path })) as Readable;
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return '';
    throw error;
  }
  const entries = extract();
  try {
    return await new Promise<string | null>((resolve, reject) => {
      entries.once('entry', (header, stream) => {
        if (header.type !== 'file' || (header.size ?? 0) > FILE_LIMIT_BYTES) {
          resolve(null);
          return;
        }
        const chunks: Buffer[] = [];
        stream.on('data', (chunk) => chunks.push(chunk as Buffer));
        stream.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        stream.once('error', reject);
      });
      entries.once('error', reject);
      entries.once('finish', () => resolve(''));
      response.once('error', reject).pipe(entries);
    });
  } finally {
    entries.on('error', () => undefined).destroy();
    response.on('error', () => undefined).destroy();
  }
}

/**
 * Whether a command run as `user` in the container (none: the image's own user, root when it
 * names none) gets uid or gid 0, by the container's own /etc/passwd and /etc/group, as the engine
 * resolves it. Files that are links, which the engine would follow inside the container, are taken
 * as saying root: nothing is guessed in their favour.
 */
export async function containerRunsAsRoot(
  container: Docker.Container,
  user: string | undefined,
): Promise<boolean> {
  if (!user) {
    const configured = (await container.inspect()).Config.User;
    if (!configured) return true;
    return containerRunsAsRoot(container, configured);
  }
  const [passwd, group] = await Promise.all([
    fileText(container, '/etc/passwd'),
    fileText(container, '/etc/group'),
  ]);
  if (passwd === null || group === null) return true;
  return runsAsRoot(user, passwd, group);
}
