import { dirname } from 'node:path';
import { pack } from 'tar-stream';
import type { ContainerFile } from '../engines';

/** A tar of the workspace's files, written into a created container before it starts. */
export async function tarOf(files: readonly ContainerFile[]): Promise<Buffer> {
  const archive = pack();
  for (const file of files) {
    const name = file.path.replace(/^\/+/, '');
    const owner = file.privateTo;
    if (!owner) {
      archive.entry({ name, mode: file.executable ? 0o755 : 0o644 }, file.content);
      continue;
    }
    // A private file (the session's key) sits in a folder only its owner may enter.
    const { uid, gid } = owner;
    archive.entry({ name: dirname(name), type: 'directory', mode: 0o700, uid, gid });
    archive.entry({ name, mode: 0o600, uid, gid }, file.content);
  }
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
