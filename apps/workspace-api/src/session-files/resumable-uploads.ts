import { createHash, randomBytes } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import type { Engine, ExecSpec } from '../engines';
import { FileTooLargeError, UploadBusyError, UploadOffsetMismatchError } from '../errors';
import { SCRIPTS, scriptFailure } from './container-scripts';
import { checkFileName, splitName } from './file-names';

/** The session's container, as its engine reaches it. */
export interface SessionContainer {
  engine: Engine;
  containerId: string;
}

export interface UploadState {
  size: number;
  name: string;
  /** Bytes received so far: where the next PATCH starts. */
  offset: number;
}

export interface FinishedUpload {
  /** The name it got in ~/Uploads (`name (1).ext` when the name was taken). */
  name: string;
  size: number;
  sha256: string;
}

// Short commands: a container that takes longer than this to answer `stat` is not answering.
const SCRIPT_TIMEOUT_MS = 60_000;
const UPLOAD_ID = /^[0-9a-f]{32}$/;

export const isUploadId = (id: string) => UPLOAD_ID.test(id);

async function run(box: SessionContainer, what: string, spec: ExecSpec): Promise<string> {
  const result = await box.engine.exec(box.containerId, { timeoutMs: SCRIPT_TIMEOUT_MS, ...spec });
  if (result.exitCode !== 0) throw scriptFailure(result.exitCode, what);
  return result.output;
}

/**
 * Passes at most `limit` bytes on, and fails with a 413 (passing nothing more) past it. Each chunk
 * is handed on before `onChunk` sees it, so that the engine gets it while it is digested here.
 * The chunk that completes the upload is held until the body ends: the command puts the file in
 * place once it has all of it, which a body running past it must not bring about.
 */
function capped(limit: number, onChunk: (chunk: Buffer) => void) {
  let seen = 0;
  let last: Buffer | null = null;
  const pass = (stream: Transform, chunk: Buffer) => {
    stream.push(chunk);
    onChunk(chunk);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > limit) return done(new FileTooLargeError('The body runs past the upload’s size'));
      if (seen === limit) last = chunk;
      else pass(this, chunk);
      done();
    },
    flush(done) {
      if (last) pass(this, last);
      done();
    },
  });
}

/**
 * Resumable uploads into ~/Uploads (decision record 0013): the part grows in
 * `~/Uploads/.partial/<id>` by appending what each PATCH brings, and moves to its name once
 * complete. One writer per upload at a time in this process; a status read waits for it, so
 * that an offset is never read while bytes of a cut request are still being appended.
 */
export function createResumableUploads() {
  const writing = new Map<string, Promise<unknown>>();

  async function status(box: SessionContainer, id: string): Promise<UploadState> {
    const lines = (
      await run(box, 'Reading the upload', { cmd: SCRIPTS.uploadStatus, env: { ID: id } })
    ).split('\n');
    return { size: Number(lines[0]), name: lines[1] ?? '', offset: Number(lines[2]?.trim()) };
  }

  return {
    async create(box: SessionContainer, name: string, size: number): Promise<string> {
      const id = randomBytes(16).toString('hex');
      const env = { ID: id, SIZE: String(size), NAME: checkFileName(name) };
      await run(box, 'Starting the upload', { cmd: SCRIPTS.createUpload, env });
      return id;
    },

    async status(box: SessionContainer, id: string): Promise<UploadState> {
      await writing.get(id)?.catch(() => undefined);
      return status(box, id);
    },

    /**
     * Appends `body` at `offset` (which must be the part's size) and, when that completes the
     * upload, moves it into place: the finished file, or the state to resume from.
     */
    async append(
      box: SessionContainer,
      id: string,
      offset: number,
      body: Readable,
      checkSize: (size: number) => Promise<void>,
    ): Promise<{ state: UploadState; finished: FinishedUpload | null }> {
      if (writing.has(id)) throw new UploadBusyError('Another request is writing this upload');
      const work = (async () => {
        const before = await status(box, id);
        await checkSize(before.size);
        if (before.offset !== offset) {
          throw new UploadOffsetMismatchError(
            `The upload holds ${before.offset} bytes: send from there`,
          );
        }
        const { stem, extension } = splitName(checkFileName(before.name));
        const env = { ID: id, SIZE: String(before.size), STEM: stem, EXT: extension };
        // In one go from the start, the digest is taken on the way; a resumed one is digested once whole.
        const hash = offset === 0 ? createHash('sha256') : null;
        const limit = capped(before.size - offset, (chunk) => hash?.update(chunk));
        let refused: unknown;
        body.pipe(limit).once('error', (error) => (refused = error));
        body.once('error', () => limit.end());
        body.once('close', () => limit.end());
        const result = await box.engine.execInput(
          box.containerId,
          { cmd: SCRIPTS.appendUpload, env: { ...env, SUM: hash ? '0' : '1' } },
          limit,
        );
        if (result.exitCode !== 0) throw scriptFailure(result.exitCode, 'Writing the upload');
        if (refused) throw refused;
        // The part's size, then (once complete) the name it got and the digest taken there.
        const [size = '', name = '', sum = ''] = result.output.split('\n');
        const state = { ...before, offset: Number(size.trim()) };
        if (state.offset < state.size) return { state, finished: null };
        const sha256 = hash?.digest('hex') ?? sum.slice(0, 64);
        return { state, finished: { name, size: state.size, sha256 } };
      })();
      writing.set(id, work);
      try {
        return await work;
      } finally {
        writing.delete(id);
      }
    },

    async cancel(box: SessionContainer, id: string): Promise<void> {
      if (writing.has(id)) throw new UploadBusyError('Another request is writing this upload');
      await run(box, 'Cancelling the upload', { cmd: SCRIPTS.cancelUpload, env: { ID: id } });
    },
  };
}
export type ResumableUploads = ReturnType<typeof createResumableUploads>;
