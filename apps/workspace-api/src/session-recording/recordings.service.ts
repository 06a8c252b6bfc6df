import { toTimestamp, toUuid, toWireId } from '@platform/schemas';
import type { AuditContext, AuditTrail } from '../audit';
import { RecordingNotFoundError } from '../errors';
import type { RecordingStorage } from './recording-storage';
import { verifyRecordingStream } from './recording-verifier';
import type { RecordingRow, RecordingsRepository } from './recordings.repository';
import type { GetRecordingsBody, RecordingResponse } from './recordings.schemas';

const wireOrNull = (id: string | null) => (id ? toWireId(id) : null);

export function toRecordingResponse(row: RecordingRow): RecordingResponse {
  return {
    recording_id: toWireId(row.id),
    kasm_id: toWireId(row.kasmId),
    user_id: wireOrNull(row.userId),
    username: row.username,
    image_id: wireOrNull(row.imageId),
    image_name: row.imageName,
    status: row.status,
    keystrokes: row.keystrokes,
    bytes: Number(row.bytes),
    chunks: row.chunks,
    digest: row.digest,
    started: toTimestamp(row.startedAt),
    ended: toTimestamp(row.endedAt),
    expires: toTimestamp(row.expiresAt),
    location: row.uploadedAt ? 'store' : 'local',
    upload_attempts: row.uploadAttempts,
    upload_error: row.uploadError,
  };
}

/**
 * Reading recordings: the list, a file with its digests, a check of its chain. Fetching a file
 * (to watch or download it) is itself audited: recording_viewed, by whom and from where.
 */
export function createRecordingsService(deps: {
  rows: RecordingsRepository;
  storage: RecordingStorage;
  key: Buffer | null;
  audit: Pick<AuditTrail, 'record'>;
}) {
  async function find(recordingId: string): Promise<RecordingRow> {
    const row = await deps.rows.find(toUuid(recordingId));
    if (!row) throw new RecordingNotFoundError(`recording_id ${recordingId}`);
    return row;
  }

  return {
    imageNames: () => deps.rows.imageNames(),

    /** The console's list: by username and workspace name, as people know them. */
    async list(filter: { username?: string; workspace?: string; since?: string; until?: string }) {
      const { rows, total } = await deps.rows.page(
        {
          username: filter.username,
          imageName: filter.workspace,
          from: filter.since ? new Date(filter.since) : undefined,
          to: filter.until ? new Date(filter.until) : undefined,
        },
        1,
        200,
      );
      return { rows, total };
    },

    async page(query: GetRecordingsBody) {
      const { rows, total } = await deps.rows.page(
        {
          userId: query.user_id && toUuid(query.user_id),
          imageId: query.image_id && toUuid(query.image_id),
          kasmId: query.kasm_id && toUuid(query.kasm_id),
          from: query.since ? new Date(query.since) : undefined,
          to: query.until ? new Date(query.until) : undefined,
        },
        query.page + 1,
        query.page_size,
      );
      return {
        recordings: rows.map(toRecordingResponse),
        total,
        page: query.page,
        page_size: query.page_size,
      };
    },

    /**
     * The file streamed (from RECORDINGS_DIR or the store), its chain's last link and its bytes'
     * SHA-256 (base64); audited as watched.
     */
    async open(recordingId: string, viewer: AuditContext, purpose: 'play' | 'download') {
      const row = await find(recordingId);
      const file = await deps.storage.readWithDigest(row);
      await deps.audit
        .record(viewer, {
          operation: 'recording_viewed',
          target: { type: 'recording', id: toWireId(row.id) },
          before: null,
          after: { purpose, kasm_id: toWireId(row.kasmId), username: row.username },
        })
        .catch((error: unknown) => {
          file.body.destroy();
          throw error;
        });
      return { row, ...file };
    },

    /** The recording and what its chain says (the console's player page). */
    async describe(recordingId: string) {
      const row = await find(recordingId);
      return { row, verified: await this.verify(recordingId) };
    },

    async verify(recordingId: string) {
      const row = await find(recordingId);
      const { body } = await deps.storage.read(row);
      const { verified: checked } = await verifyRecordingStream(body, deps.key, row.digest);
      return checked.ok
        ? {
            ok: true,
            reason: null,
            chunks: checked.chunks,
            digest: checked.digest,
            duration_ms: checked.durationMs,
            ended: checked.ended,
          }
        : {
            ok: false,
            reason: checked.reason,
            chunks: checked.chunks,
            digest: null,
            duration_ms: null,
            ended: false,
          };
    },
  };
}
export type RecordingsService = ReturnType<typeof createRecordingsService>;
