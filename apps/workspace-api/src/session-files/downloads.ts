import { createHash } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { EngineFailedError } from '../errors';
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
  /** The digest of the bytes sent, once all of them were (never, when the body failed). */
  sha256: Promise<string>;
}

const SCRIPT_TIMEOUT_MS = 60_000;
const LINE = /^(\d+)\/(\d+)\/(.+)$/;
const SIZE = /^\d{1,16}$/;
const MAX_LINE = 64;

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

/** Reads `stream` up to its first newline; what follows stays in it, unread. */
function firstLine(stream: Readable): Promise<string | null> {
  return new Promise((resolve, reject) => {
    let line = Buffer.alloc(0);
    const settle = (value: string | null) => {
      stream.off('data', onData).off('end', onEnd).off('error', reject);
      resolve(value);
    };
    const onEnd = () => settle(null);
    const onData = (chunk: Buffer) => {
      const newline = chunk.indexOf(10);
      if (newline < 0) {
        line = Buffer.concat([line, chunk]);
        if (line.length > MAX_LINE) settle(null);
        return;
      }
      stream.pause();
      stream.unshift(chunk.subarray(newline + 1));
      settle(Buffer.concat([line, chunk.subarray(0, newline)]).toString('latin1'));
    };
    stream.on('data', onData).once('end', onEnd).once('error', reject);
  });
}

/**
 * The first `size` bytes of `stdout`, digested on the way: `sha256` settles once all of them
 * passed. Fewer (the file shrank, the command failed) fail the body, so that an answer is cut
 * short of its length rather than ending as if whole; more (it grew) are not read.
 */
function exactly(stdout: Readable, size: number) {
  const hash = createHash('sha256');
  let left = size;
  let digested: (sum: string) => void = () => undefined;
  const sha256 = new Promise<string>((resolve) => (digested = resolve));
  const short = () => new EngineFailedError('The file ended short of its size in the session');
  const body = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (left === 0) return done();
      const part = chunk.length > left ? chunk.subarray(0, left) : chunk;
      left -= part.length;
      done(null, part);
      hash.update(part);
      if (left === 0) whole();
    },
    flush: (done) => done(left === 0 ? null : short()),
  });
  function whole() {
    digested(hash.digest('hex'));
    stdout.unpipe(body);
    body.end();
  }
  stdout.once('error', (error) => body.destroy(error));
  stdout.once('close', () => left > 0 && body.destroy(short()));
  // An answer cut by its client ends the command's connection too.
  body.once('close', () => stdout.destroy());
  if (size === 0) whole();
  else stdout.pipe(body);
  return { body, sha256 };
}

/**
 * One file of ~/Downloads, streamed from `cat` run as the image's user (one command: the checks,
 * the size, the bytes) and never held in memory: the engine's stream is read only as fast as the
 * answer goes out. Only the bytes of the regular file that was checked ever leave (the script).
 */
export async function openDownload(box: SessionContainer, rawName: string): Promise<OpenDownload> {
  const name = checkFileName(rawName);
  const run = await box.engine.execRead(box.containerId, {
    cmd: SCRIPTS.download,
    env: { NAME: name },
  });
  const line = await firstLine(run.stdout);
  if (line === null || !SIZE.test(line)) {
    run.stdout.destroy();
    const { exitCode } = await run.ended;
    throw scriptFailure(exitCode === 0 ? -1 : exitCode, 'Reading ~/Downloads');
  }
  const size = Number(line);
  return { name, size, ...exactly(run.stdout, size) };
}
