import { createHash } from 'node:crypto';
import { open, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { toWireId } from '@platform/schemas';
import { RecordingNotFoundError, RecordingStoreUnavailableError } from '../errors';
import type { RecordingStore, StoredObject } from './recording-store';
import { StoredObjectMissing } from './recording-store';
import type { RecordingRow, RecordingsRepository } from './recordings.repository';

/** The bytes of a recording, streamed, and how many. */
export interface RecordingBytes {
  body: Readable;
  bytes: number;
}

/** How many bytes a stream holds and their SHA-256 (hex), read through without keeping them. */
export async function digestOf(stream: AsyncIterable<Buffer> | Iterable<Buffer>) {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const piece of stream) {
    hash.update(piece);
    bytes += piece.length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

export const storedObjectOf = (row: RecordingRow): StoredObject | null =>
  row.storeBucket && row.storeKey ? { bucket: row.storeBucket, key: row.storeKey } : null;

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Where a recording's bytes are, for the readers (download, player, verify) and retention: its
 * file in RECORDINGS_DIR until it is uploaded, then its object in the store. Both are streamed.
 */
export function createRecordingStorage(deps: {
  dir: string;
  store: RecordingStore | null;
  rows: Pick<RecordingsRepository, 'find'>;
}) {
  const fileOf = (row: RecordingRow) => path.join(deps.dir, row.path);
  const gone = (row: RecordingRow, where: string) =>
    new RecordingNotFoundError(`recording_id ${toWireId(row.id)} (its ${where} is gone)`);

  async function fromStore(row: RecordingRow, object: StoredObject): Promise<RecordingBytes> {
    if (!deps.store)
      throw new RecordingStoreUnavailableError(
        'the recording is in a store this service has no settings for',
      );
    try {
      return await deps.store.get(object);
    } catch (error) {
      if (error instanceof StoredObjectMissing) throw gone(row, 'object in the store');
      throw new RecordingStoreUnavailableError((error as Error).name);
    }
  }

  /** The recording's bytes (at most `limit` of a local file, which may still grow). */
  async function read(row: RecordingRow, limit?: number): Promise<RecordingBytes> {
    const object = storedObjectOf(row);
    if (object) return fromStore(row, object);
    try {
      const handle = await open(fileOf(row), 'r');
      const bytes = Math.min(limit ?? Infinity, (await handle.stat()).size);
      if (bytes === 0) {
        await handle.close();
        return { body: Readable.from([]), bytes };
      }
      return { body: handle.createReadStream({ start: 0, end: bytes - 1 }), bytes };
    } catch (error) {
      if (!isMissing(error)) throw error;
      // Uploaded (and removed here) since the row was read: it is in the store now.
      const now = await deps.rows.find(row.id);
      const moved = now && storedObjectOf(now);
      if (moved) return fromStore(now, moved);
      throw gone(row, 'file');
    }
  }

  return {
    read,

    /** The bytes with their SHA-256 (base64) known before the first is sent (repr-digest). */
    async readWithDigest(row: RecordingRow): Promise<RecordingBytes & { sha256: string }> {
      if (storedObjectOf(row) && row.sha256)
        return { ...(await read(row)), sha256: Buffer.from(row.sha256, 'hex').toString('base64') };
      // A local file is read twice: once for its digest, then as sent, up to the same length.
      const counted = await digestOf((await read(row)).body);
      const sent = await read(row, counted.bytes);
      return { ...sent, sha256: Buffer.from(counted.sha256, 'hex').toString('base64') };
    },

    /** Removes the recording's bytes wherever they are (its object, and any local file left). */
    async remove(row: RecordingRow): Promise<void> {
      const object = storedObjectOf(row);
      if (object) {
        if (!deps.store)
          throw new RecordingStoreUnavailableError(
            'the recording is in a store this service has no settings for',
          );
        await deps.store.remove(object);
      }
      await unlink(fileOf(row)).catch((error: unknown) => {
        if (!isMissing(error)) throw error;
      });
    },
  };
}
export type RecordingStorage = ReturnType<typeof createRecordingStorage>;
