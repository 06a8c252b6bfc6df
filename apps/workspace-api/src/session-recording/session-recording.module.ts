import type { FastifyBaseLogger } from 'fastify';
import { Counter, Gauge, type Registry } from '@platform/metrics';
import { toWireId } from '@platform/schemas';
import { createWorkerLoop } from '@platform/worker-loop';
import type { AuditTrail } from '../audit';
import type { RecordingStoreOptions } from '../config-recording-store';
import type { Database } from '../db';
import { RecordingUnavailableError } from '../errors';
import type { ReachedDisplay } from '../sessions';
import { createRecordingStorage } from './recording-storage';
import { createRecordingStore } from './recording-store';
import { createRecordingUploads } from './recording-uploads';
import { createRecordingsRepository } from './recordings.repository';
import { createRecordingsService } from './recordings.service';
import {
  createSessionRecorder,
  type RecordedSession,
  type RecordingPolicy,
} from './session-recorder';

/** How long a viewer's stream waits for the session's recording to start. */
const ADMIT_TIMEOUT_MS = 15_000;
/** A session whose policy said "not recorded" is asked again after this long. */
const POLICY_TTL_MS = 10_000;
/** A session whose recording failed to start is tried again by the loop after this long. */
const FAILURE_RETRY_MS = 30_000;
const RETENTION_BATCH = 100;
/** A recording under way whose row was not touched for this long lost its process. */
const STALE_MS = 30_000;

export interface SessionRecordingDeps {
  database: Database;
  dir: string;
  /** The S3-compatible store ended recordings move to; null: they stay in `dir`. */
  store: RecordingStoreOptions | null;
  key: Buffer | null;
  keyframeMs: number;
  scanMs: number;
  registry: Registry;
  audit: Pick<AuditTrail, 'record'>;
  log: FastifyBaseLogger;
  reach: (kasmId: string) => Promise<ReachedDisplay>;
  running: () => Promise<{ id: string; userId: string | null; imageId: string }[]>;
  policyOf: (imageId: string, userId: string) => Promise<RecordingPolicy>;
  usernameOf: (userId: string) => Promise<string>;
  /** Closes the session's viewers (a recording that must be made failed). */
  closeViewers: (kasmId: string) => void;
}

/**
 * Session recording (docs/recording.md): the recorder, the loop that starts it for every running
 * session whose policy says so (watched or not) and removes recordings past their retention, the
 * proxy's admission of a viewer's stream, and what an operator sees of failures: the metric
 * workspace_recording_failures_total and an audit event recording_failed.
 */
export function createSessionRecordingFeature(deps: SessionRecordingDeps) {
  const rows = createRecordingsRepository(deps.database);
  const store = deps.store && createRecordingStore(deps.store);
  const storage = createRecordingStorage({ dir: deps.dir, store, rows });
  const uploads =
    store &&
    createRecordingUploads({
      store,
      rows,
      dir: deps.dir,
      retryMs: deps.store?.retryMs ?? 0,
      registry: deps.registry,
      audit: deps.audit,
      log: deps.log,
    });
  const failures = new Counter({
    name: 'workspace_recording_failures_total',
    help: 'Session recordings that could not be started or written, by what the policy did: continued (the session went on unrecorded) or refused',
    labelNames: ['outcome'],
    registers: [deps.registry],
  });
  const activeGauge = new Gauge({
    name: 'workspace_recordings_active',
    help: 'Sessions this process is recording now',
    registers: [deps.registry],
  });

  function failed(session: RecordedSession, policy: RecordingPolicy, error: Error): void {
    const outcome = policy.refuse ? 'refused' : 'continued';
    failures.inc({ outcome });
    deps.log.error({ err: error, kasmId: session.kasmId, outcome }, 'session recording failed');
    void deps.audit.record(
      { actor: { kind: 'system', name: 'recorder' }, channel: 'session' },
      {
        operation: 'recording_failed',
        target: { type: 'kasm', id: toWireId(session.kasmId) },
        before: null,
        after: { reason: error.message, outcome, user_id: toWireId(session.userId) },
      },
      { result: 'failed', status: 503, errorCode: 'SESSION_RECORDING_UNAVAILABLE' },
    );
    if (policy.refuse) deps.closeViewers(session.kasmId);
  }

  const recorder = createSessionRecorder({
    dir: deps.dir,
    key: deps.key,
    keyframeMs: deps.keyframeMs,
    rows,
    reach: deps.reach,
    log: deps.log,
    onFailure: failed,
    onStarted: () => activeGauge.inc(),
    onEnded: () => {
      activeGauge.dec();
      uploads?.kick();
    },
  });

  const unrecorded = new Map<string, number>();
  async function decide(kasm: { id: string; userId: string; imageId: string }) {
    const policy = await deps.policyOf(kasm.imageId, kasm.userId);
    if (!policy.record) unrecorded.set(kasm.id, Date.now() + POLICY_TTL_MS);
    return policy;
  }

  async function record(session: RecordedSession, policy: RecordingPolicy): Promise<boolean> {
    try {
      return await recorder.ensure(session, policy);
    } catch (error) {
      // The loop tries again later, not every scan: each failure is counted and audited.
      unrecorded.set(session.kasmId, Date.now() + FAILURE_RETRY_MS);
      failed(session, policy, error as Error);
      return false;
    }
  }

  /** Starts the recordings due: every running session with a user whose policy records it. */
  async function scan(): Promise<void> {
    await rows.touch(recorder.activeRows());
    await rows.interruptStale(STALE_MS);
    const now = Date.now();
    for (const kasm of await deps.running()) {
      const { id, userId } = kasm;
      if (!userId || recorder.isRecording(id) || (unrecorded.get(id) ?? 0) > now) continue;
      const policy = await decide({ ...kasm, userId });
      if (!policy.record) continue;
      const session = {
        kasmId: id,
        userId,
        imageId: kasm.imageId,
        username: await deps.usernameOf(userId),
      };
      void record(session, policy);
    }
  }

  /** Removes the files (or stored objects) and rows of recordings past their retention. */
  async function retention(): Promise<number> {
    const expired = await rows.expired(new Date(), RETENTION_BATCH);
    for (const row of expired) {
      await storage.remove(row);
      await rows.remove(row.id);
      deps.log.info(
        { recordingId: row.id, kasmId: row.kasmId },
        'recording removed: past its retention',
      );
    }
    return expired.length;
  }

  const loop = createWorkerLoop({
    intervalMs: deps.scanMs,
    runOnce: async () => {
      await scan().catch((error: unknown) =>
        deps.log.warn({ err: error }, 'recording scan failed'),
      );
      await retention().catch((error: unknown) =>
        deps.log.warn({ err: error }, 'recording retention failed'),
      );
      // Ended recordings not uploaded yet (the store was down, the process stopped first).
      uploads?.kick();
      return 0;
    },
    log: deps.log,
  });

  return {
    rows,
    recorder,
    service: createRecordingsService({ rows, storage, key: deps.key, audit: deps.audit }),
    scan,
    retention,
    /** Uploads due now, then resolves (null: no store). */
    upload: uploads && (() => (uploads.kick(), uploads.idle())),
    start: () => loop.start(),
    async stop(): Promise<void> {
      await loop.stop();
      // Recordings ended by the stop stay in RECORDINGS_DIR: uploaded at the next start.
      await uploads?.stop();
      await recorder.closeAll();
    },

    /**
     * A viewer's stream of a session, before it is piped: a session its policy records is
     * recorded first (from its first frame); one that cannot be and must be is refused.
     * Answers where the viewer's input goes (null: not recorded).
     */
    async admitStream(session: RecordedSession): Promise<((message: Buffer) => void) | null> {
      const policy = await decide({ id: session.kasmId, ...session });
      if (!policy.record) return null;
      const recording = record(session, policy);
      const timeout = new Promise<false>((resolve) =>
        setTimeout(() => resolve(false), ADMIT_TIMEOUT_MS).unref(),
      );
      const recorded = await Promise.race([recording, timeout]);
      if (!recorded && policy.refuse)
        throw new RecordingUnavailableError('its recording did not start');
      return (message) => recorder.input(session.kasmId, message);
    },

    /** The session's access ended: its recording ends with what it holds on disk. */
    end: (kasmId: string) => void recorder.end(kasmId),
  };
}
export type SessionRecordingFeature = ReturnType<typeof createSessionRecordingFeature>;
