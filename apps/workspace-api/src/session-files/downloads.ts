import { PassThrough, type Readable } from 'node:stream';
import { extract } from 'tar-stream';
import { FileNotFoundError, FileNotRegularError } from '../errors';
import { SCRIPTS, scriptFailure } from './container-scripts';
import { checkFileName } from './file-names';
import type { SessionContainer } from './resumable-uploads';

export interface DownloadEntry {
  name: string;
  size: number;
  /** Seconds since the epoch. */
  mtime: number;
}

export interface OpenDownload {
  name: string;
  size: number;
  body: Readable;
}

const SCRIPT_TIMEOUT_MS = 60_000;
const LINE = /^(\d+)\/(\d+)\/(.+)$/;

/** The regular files in ~/Downloads, by name; an absent folder lists nothing. */
export async function listDownloads(box: SessionContainer): Promise<DownloadEntry[]> {
  const result = await box.engine.exec(box.containerId, {
    cmd: SCRIPTS.listDownloads,
    timeoutMs: SCRIPT_TIMEOUT_MS,
  });
  if (result.exitCode !== 0) throw scriptFailure(result.exitCode, 'Listing ~/Downloads');
  return result.output
    .split('\n')
    .slice(1)
    .flatMap((line) => {
      const match = LINE.exec(line);
      if (!match) return [];
      try {
        checkFileName(match[3]);
      } catch {
        return [];
      }
      return [{ name: match[3], size: Number(match[1]), mtime: Number(match[2]) }];
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * One file of ~/Downloads, streamed from the engine's archive of it and untarred on the way:
 * never held in memory. The engine archives a link as a link (it does not follow the last
 * component), so whatever the folder's user swapped in after the check, only a regular file's
 * own bytes ever leave: anything else in the tar is refused.
 */
export async function openDownload(box: SessionContainer, rawName: string): Promise<OpenDownload> {
  const name = checkFileName(rawName);
  const checked = await box.engine.exec(box.containerId, {
    cmd: SCRIPTS.downloadPath,
    env: { NAME: name },
    timeoutMs: SCRIPT_TIMEOUT_MS,
  });
  if (checked.exitCode !== 0) throw scriptFailure(checked.exitCode, 'Reading ~/Downloads');
  const folder = checked.output.trim();
  const tar = await box.engine.readArchive(box.containerId, `${folder}/${name}`);
  if (!tar) throw new FileNotFoundError('No such file in ~/Downloads');
  return new Promise<OpenDownload>((resolve, reject) => {
    const untar = extract();
    let body: PassThrough | undefined;
    let first = true;
    untar.on('entry', (header, stream, next) => {
      if (!first || header.type !== 'file' || header.name !== name) {
        stream.resume();
        tar.destroy();
        untar.destroy();
        if (first)
          reject(
            new FileNotRegularError(
              'Only regular files can be downloaded (not links, folders or devices)',
            ),
          );
        return;
      }
      first = false;
      const out = new PassThrough();
      body = out;
      stream.pipe(out);
      // Only the one entry is wanted: the rest of the archive is not read.
      let ended = false;
      stream.once('end', () => {
        ended = true;
        tar.destroy();
        next();
      });
      out.once('close', () => {
        if (!ended) {
          tar.destroy();
          untar.destroy();
        }
      });
      resolve({ name, size: header.size ?? 0, body: out });
    });
    untar.once('error', (error) => {
      reject(error);
      body?.destroy(error);
    });
    untar.once(
      'finish',
      () => first && reject(new FileNotFoundError('No such file in ~/Downloads')),
    );
    tar.once('error', (error) => untar.destroy(error));
    tar.pipe(untar);
  });
}
