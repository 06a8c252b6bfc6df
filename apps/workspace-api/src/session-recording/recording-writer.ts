import { mkdir, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { type Chunk, encodeChunk, encodeHeader, type RecordingMeta } from './recording-file';

/** How often what was recorded reaches the disk (written and synced): a crash loses at most this. */
export const FLUSH_MS = 1000;

export interface WriterProgress {
  bytes: number;
  chunks: number;
  /** The chain's last link on disk, hex. */
  digest: string;
}

/**
 * Appends a recording's chunks to its file: each encoded and chained at once (so the order is
 * the order of `append`), written and synced every FLUSH_MS, and at `close`. The file is
 * created, never opened over an existing one. A write that fails ends the writer: `onError`
 * hears it once and later appends are dropped.
 */
export async function openRecordingWriter(options: {
  file: string;
  meta: RecordingMeta;
  key: Buffer | null;
  onFlushed?: (progress: WriterProgress) => void;
  onError: (error: Error) => void;
}) {
  const { key } = options;
  await mkdir(path.dirname(options.file), { recursive: true, mode: 0o750 });
  const handle: FileHandle = await open(options.file, 'wx', 0o640);
  const header = encodeHeader(options.meta, key);
  let link = header.link;
  let pending: Buffer[] = [header.bytes];
  let pendingLink = link;
  let failed: Error | null = null;
  let closed = false;
  const progress: WriterProgress = { bytes: 0, chunks: 0, digest: link.toString('hex') };
  let pendingChunks = 0;
  let flushing: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    flushing = flushing.then(async () => {
      if (failed || pending.length === 0) return;
      const bytes = Buffer.concat(pending);
      const [chunks, digest] = [pendingChunks, pendingLink.toString('hex')];
      pending = [];
      pendingChunks = 0;
      try {
        await handle.write(bytes);
        await handle.datasync();
      } catch (error) {
        failed = error as Error;
        options.onError(failed);
        return;
      }
      progress.bytes += bytes.length;
      progress.chunks += chunks;
      progress.digest = digest;
      options.onFlushed?.({ ...progress });
    });
    return flushing;
  };
  const timer = setInterval(() => void flush(), FLUSH_MS);
  timer.unref();
  await flush();

  return {
    get failed() {
      return failed;
    },
    progress: () => ({ ...progress }),
    append(chunk: Chunk): void {
      if (failed || closed) return;
      const encoded = encodeChunk(chunk, link, key);
      link = encoded.link;
      pending.push(encoded.bytes);
      pendingLink = link;
      pendingChunks++;
    },
    /** Writes what is pending and closes the file; the progress as it stands on disk. */
    async close(): Promise<WriterProgress> {
      closed = true;
      clearInterval(timer);
      await flush();
      await handle.close().catch(() => undefined);
      return { ...progress };
    },
  };
}
export type RecordingWriter = Awaited<ReturnType<typeof openRecordingWriter>>;
