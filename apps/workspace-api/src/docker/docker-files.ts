import { pack } from 'tar-stream';
import type { ContainerFile } from '../engines';

/** A tar of the workspace's files, written into a created container before it starts. */
export async function tarOf(files: readonly ContainerFile[]): Promise<Buffer> {
  const archive = pack();
  for (const file of files) {
    archive.entry(
      { name: file.path.replace(/^\/+/, ''), mode: file.executable ? 0o755 : 0o644 },
      file.content,
    );
  }
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
