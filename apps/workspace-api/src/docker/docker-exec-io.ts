import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { pack } from 'tar-stream';
import type { ContainerFile } from '../engines';

const EXEC_OUTPUT_LIMIT = 1_048_576;

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

/** A finished exec's output, stdout and stderr together, at most EXEC_OUTPUT_LIMIT. */
export async function collectExec(docker: Docker, stream: NodeJS.ReadableStream): Promise<string> {
  const out = new PassThrough();
  let output = '';
  out.on('data', (chunk: Buffer) => {
    if (output.length < EXEC_OUTPUT_LIMIT) output += chunk.toString('utf8');
  });
  docker.modem.demuxStream(stream, out, out);
  await new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', reject);
  });
  return output.slice(0, EXEC_OUTPUT_LIMIT);
}
