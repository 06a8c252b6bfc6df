import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { type RfbClient, startRfbClient } from '../session-driver';
import type { ReachedDisplay } from '../sessions';
import { ChunkType, type RecordingMeta } from './recording-file';
import { openRecordingWriter, type RecordingWriter } from './recording-writer';
import type { RecordingsRepository } from './recordings.repository';
import { inputKind, keyframeUpdate, pixelFormatRgbx, playbackHandshake } from './rfb-recording';

/** What a session's workspace and its user's groups say of recording it. */
export interface RecordingPolicy {
  record: boolean;
  keystrokes: boolean;
  /** A session that cannot be recorded is refused (else it goes on, reported). */
  refuse: boolean;
  retentionDays: number | null;
  imageName: string;
}

export interface RecordedSession {
  kasmId: string;
  userId: string;
  imageId: string;
  username: string;
}

/** How opening a display for recording may take at most. */
const OPEN_TIMEOUT_MS = 10_000;
const DAY_MS = 86_400_000;

interface Active {
  rowId: string;
  /** Milliseconds since the recording started. */
  now: () => number;
  keystrokes: boolean;
  writer: RecordingWriter;
  client: RfbClient;
  ended: Promise<void>;
}

export interface SessionRecorderDeps {
  dir: string;
  key: Buffer | null;
  keyframeMs: number;
  rows: RecordingsRepository;
  reach: (kasmId: string) => Promise<ReachedDisplay>;
  log: FastifyBaseLogger;
  /** A recording that could not be made or went on failing: the metric, the audit, the policy. */
  onFailure: (session: RecordedSession, policy: RecordingPolicy, error: Error) => void;
  onStarted?: () => void;
  onEnded?: () => void;
}

/** `<yyyy>/<mm>/<dd>/<kasm_id>-<recording id>.rec`, by the UTC day it started. */
export const recordingPath = (startedAt: Date, kasmId: string, rowId: string) => {
  const day = startedAt.toISOString().slice(0, 10).split('-');
  return path.posix.join(...day, `${kasmId}-${rowId}.rec`);
};

/**
 * Records sessions on a VNC connection of the service's own (rfb-client.ts, as the session
 * driver reads a screen): every server message as it comes, a keyframe when one is due, the
 * viewers' input the proxy hands over (key events only where allowed). The container never
 * sees the recording: a process inside it can end the stream, which ends the recording with
 * everything up to then on disk and verifiable.
 */
export function createSessionRecorder(deps: SessionRecorderDeps) {
  const active = new Map<string, Active>();
  const starting = new Map<string, Promise<boolean>>();

  /** The display's stream, or null while it cannot be opened (not up yet, or gone). */
  async function openDisplay(kasmId: string) {
    try {
      return await (await deps.reach(kasmId)).open(OPEN_TIMEOUT_MS);
    } catch (error) {
      deps.log.debug({ err: error, kasmId }, 'display not reachable for recording yet');
      return null;
    }
  }

  async function begin(session: RecordedSession, policy: RecordingPolicy): Promise<boolean> {
    const stream = await openDisplay(session.kasmId);
    if (!stream) return false;
    const startedAt = new Date();
    const t0 = performance.now();
    const id = randomUUID();
    const relative = recordingPath(startedAt, session.kasmId, id);
    const row = await deps.rows.claim({
      id,
      kasmId: session.kasmId,
      userId: session.userId,
      username: session.username,
      imageId: session.imageId,
      imageName: policy.imageName,
      path: relative,
      keystrokes: policy.keystrokes,
      startedAt,
      expiresAt: policy.retentionDays
        ? new Date(startedAt.getTime() + policy.retentionDays * DAY_MS)
        : null,
    });
    if (!row) {
      // Another replica records it already (one recording at a time per session).
      stream.close();
      return false;
    }
    const meta: RecordingMeta = {
      format: 1,
      kasmId: session.kasmId,
      userId: session.userId,
      username: session.username,
      imageId: session.imageId,
      startedAt: startedAt.toISOString(),
      width: stream.width,
      height: stream.height,
      keystrokes: policy.keystrokes,
      signed: deps.key !== null,
    };
    let failure: Error | null = null;
    let writer: RecordingWriter;
    try {
      writer = await openRecordingWriter({
        file: path.join(deps.dir, relative),
        meta,
        key: deps.key,
        onFlushed: (progress) => void deps.rows.progress(row.id, progress).catch(() => undefined),
        onError: (error) => {
          failure = error;
          stream.close();
        },
      });
    } catch (error) {
      stream.close();
      await deps.rows.finish(row.id, {
        status: 'failed',
        bytes: 0,
        chunks: 0,
        digest: '',
        error: (error as Error).message,
      });
      throw error;
    }
    const now = () => performance.now() - t0;
    writer.append({
      type: ChunkType.server,
      at: 0,
      payload: playbackHandshake(stream.width, stream.height),
    });
    let lastKeyframe = -Infinity;
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    const client = startRfbClient(stream, (error) => void finish(error.message).then(end, end), {
      pixelFormat: pixelFormatRgbx(),
      onMessage: (message) => {
        const at = now();
        writer.append({ type: ChunkType.server, at, payload: message });
        if (message[0] === 0 && at - lastKeyframe >= deps.keyframeMs) {
          lastKeyframe = at;
          writer.append({ type: ChunkType.keyframe, at, payload: keyframeUpdate(client.screen) });
        }
      },
    });
    const entry: Active = {
      rowId: row.id,
      keystrokes: policy.keystrokes,
      writer,
      client,
      ended,
      now,
    };
    active.set(session.kasmId, entry);
    deps.onStarted?.();

    async function finish(reason: string): Promise<void> {
      if (active.get(session.kasmId) !== entry) return;
      active.delete(session.kasmId);
      writer.append({
        type: ChunkType.end,
        at: now(),
        payload: Buffer.from(JSON.stringify({ reason })),
      });
      const progress = await writer.close();
      const error: Error | null = failure ?? writer.failed;
      await deps.rows
        .finish(entry.rowId, {
          status: error ? 'failed' : 'complete',
          ...progress,
          error: error?.message,
        })
        .catch((e: unknown) =>
          deps.log.error({ err: e, kasmId: session.kasmId }, 'recording row not finished'),
        );
      deps.onEnded?.();
      if (error) deps.onFailure(session, policy, error);
    }
    try {
      await client.ready();
    } catch {
      // The stream ended before its first screen: finish() has run and recorded why.
      return false;
    }
    return true;
  }

  return {
    isRecording: (kasmId: string) => active.has(kasmId),
    /** The rows of the recordings under way here (kept fresh: another replica takes over stale ones). */
    activeRows: () => [...active.values()].map((entry) => entry.rowId),

    /**
     * Records the session unless it is already: resolves true once its first screen is on record,
     * false when the display went away first; a recording that cannot be written throws.
     */
    ensure(session: RecordedSession, policy: RecordingPolicy): Promise<boolean> {
      if (active.has(session.kasmId)) return Promise.resolve(true);
      const pending = starting.get(session.kasmId);
      if (pending) return pending;
      const started = begin(session, policy).finally(() => starting.delete(session.kasmId));
      starting.set(session.kasmId, started);
      return started;
    },

    /** A viewer's input message (KeyEvent, PointerEvent) on a recorded session's stream. */
    input(kasmId: string, message: Buffer): void {
      const entry = active.get(kasmId);
      const kind = inputKind(message);
      if (!entry || !kind || (kind === 'key' && !entry.keystrokes)) return;
      entry.writer.append({
        type: kind === 'key' ? ChunkType.key : ChunkType.pointer,
        at: entry.now(),
        payload: Buffer.from(message),
      });
    },

    /** Ends a session's recording (its access ended) once what it holds is on disk. */
    async end(kasmId: string): Promise<void> {
      const entry = active.get(kasmId);
      if (!entry) return;
      entry.client.close();
      await entry.ended;
    },

    async closeAll(): Promise<void> {
      await Promise.all([...active.keys()].map((kasmId) => this.end(kasmId)));
    },
  };
}
export type SessionRecorder = ReturnType<typeof createSessionRecorder>;
