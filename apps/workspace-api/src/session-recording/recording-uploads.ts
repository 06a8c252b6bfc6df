import { createReadStream } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { Counter, Gauge, type Registry } from '@platform/metrics';
import { toWireId } from '@platform/schemas';
import type { AuditTrail } from '../audit';
import type { RecordingStore } from './recording-store';
import { digestOf } from './recording-storage';
import type { RecordingRow, RecordingsRepository } from './recordings.repository';

const BATCH = 20;
const HOUR_MS = 3_600_000;
/** A recording whose file is not on this machine (another replica's disk) is looked for again after this. */
const ELSEWHERE_MS = 10 * 60_000;

/**
 * Moves ended recordings to the store (docs/recording.md#storage): each file is uploaded
 * streamed, read back and compared (size and SHA-256), recorded in its row, then removed from
 * RECORDINGS_DIR. A failed upload keeps the file and is tried again later, further apart each
 * time; the operator sees it in workspace_recording_uploads_total{outcome="failed"}, the log and
 * the audit trail (recording_upload_failed). One upload runs at a time, beside the recorder's
 * loop, so a slow store never delays the start of a recording.
 */
export function createRecordingUploads(deps: {
  store: RecordingStore;
  rows: RecordingsRepository;
  dir: string;
  retryMs: number;
  registry: Registry;
  audit: Pick<AuditTrail, 'record'>;
  log: FastifyBaseLogger;
}) {
  const uploads = new Counter({
    name: 'workspace_recording_uploads_total',
    help: 'Recordings uploaded to the S3-compatible store, by outcome: stored (verified, local file removed) or failed (kept in RECORDINGS_DIR, tried again later)',
    labelNames: ['outcome'],
    registers: [deps.registry],
  });
  const awaiting = new Gauge({
    name: 'workspace_recordings_awaiting_upload',
    help: 'Ended recordings still in RECORDINGS_DIR, not yet in the S3-compatible store',
    registers: [deps.registry],
  });
  const aborting = new AbortController();
  let running: Promise<void> | null = null;
  let again = false;

  async function upload(row: RecordingRow): Promise<void> {
    const file = path.join(deps.dir, row.path);
    const size = await stat(file).then(
      (info) => info.size,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      },
    );
    if (size === null) {
      deps.log.debug(
        { recordingId: row.id },
        'recording file not here: another replica may hold it',
      );
      await deps.rows.uploadDeferred(row.id, new Date(Date.now() + ELSEWHERE_MS));
      return;
    }
    const local = await digestOf(
      size === 0 ? Readable.from([]) : createReadStream(file, { start: 0, end: size - 1 }),
    );
    const target = { bucket: deps.store.bucket, key: deps.store.keyOf(row.path) };
    await deps.store.put(target, file, {
      bytes: local.bytes,
      // The object tells what it is without the database: for backups and restores.
      metadata: {
        sha256: local.sha256,
        'recording-digest': row.digest ?? '',
        'kasm-id': row.kasmId,
        'recording-id': row.id,
      },
      signal: aborting.signal,
    });
    const back = await deps.store.get(target, aborting.signal);
    const remote = await digestOf(back.body);
    if (remote.bytes !== local.bytes || remote.sha256 !== local.sha256)
      throw new Error(
        `the stored object does not match the file (${remote.bytes} bytes read back of ${local.bytes})`,
      );
    if (!(await deps.rows.stored(row.id, { ...target, sha256: local.sha256 }))) {
      // Removed meanwhile (retention): leave nothing behind in the store.
      await deps.store.remove(target);
      return;
    }
    await unlink(file).catch(() => undefined);
    uploads.inc({ outcome: 'stored' });
    deps.log.info(
      { recordingId: row.id, kasmId: row.kasmId, bytes: local.bytes, key: target.key },
      'recording moved to the store',
    );
  }

  async function failed(row: RecordingRow, error: Error): Promise<void> {
    const attempts = row.uploadAttempts + 1;
    const waitMs = Math.min(deps.retryMs * 2 ** (attempts - 1), HOUR_MS);
    const retryAt = new Date(Date.now() + waitMs);
    // The SDK's error names what failed (a refused connection, a signature the store refused);
    // its whole object carries the request, so only the name and message are kept.
    const reason = `${error.name}: ${error.message}`.slice(0, 2000);
    uploads.inc({ outcome: 'failed' });
    deps.log.warn(
      { recordingId: row.id, kasmId: row.kasmId, attempts, reason, retryAt },
      'recording upload failed: kept in RECORDINGS_DIR, tried again later',
    );
    await deps.rows.uploadDeferred(row.id, retryAt, reason);
    await deps.audit.record(
      { actor: { kind: 'system', name: 'recorder' }, channel: 'session' },
      {
        operation: 'recording_upload_failed',
        target: { type: 'recording', id: toWireId(row.id) },
        before: null,
        after: { reason, attempts, retry_at: retryAt.toISOString(), kasm_id: toWireId(row.kasmId) },
      },
      { result: 'failed', status: 503, errorCode: 'RECORDING_STORE_UNAVAILABLE' },
    );
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      const due = await deps.rows.awaitingUpload(new Date(), BATCH);
      for (const row of due) {
        if (aborting.signal.aborted) return;
        await upload(row).catch((error: Error) =>
          aborting.signal.aborted ? undefined : failed(row, error),
        );
      }
      if (due.length === BATCH) again = true;
      awaiting.set(await deps.rows.countAwaitingUpload());
    } while (again && !aborting.signal.aborted);
  }

  return {
    /** Uploads what is due, now or after the upload under way (a recording ended, the loop ran). */
    kick(): void {
      if (aborting.signal.aborted) return;
      if (running) {
        again = true;
        return;
      }
      running = drain()
        .catch((error: unknown) => deps.log.warn({ err: error }, 'recording uploads failed'))
        .finally(() => (running = null));
    },
    /** Whether an upload pass is under way (tests wait for it to end). */
    idle: () => running ?? Promise.resolve(),
    /** Stops at once: an upload under way is abandoned (its file stays, uploaded at the next start). */
    async stop(): Promise<void> {
      aborting.abort();
      await running;
      deps.store.close();
    },
  };
}
export type RecordingUploads = ReturnType<typeof createRecordingUploads>;
