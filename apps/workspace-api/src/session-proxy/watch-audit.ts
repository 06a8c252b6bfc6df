import { toWireId } from '@platform/schemas';
import type { AuditContext, AuditTrail } from '../audit';
import type { ClosableSocket } from './session-sockets';

/** An administrator's watch stream: whose grant, who watches whose session, from where. */
export interface WatchStream {
  grantId: string;
  kasmId: string;
  watcher: string;
  watcherId: string | null;
  owner: string;
  clientIp: string | null;
  userAgent: string | null;
}

/** A watch open in this process: its streams, and the end it waits out while none is open. */
interface OpenWatch {
  streams: number;
  since: Date;
  stream: WatchStream;
  /** When its last stream closed, while the grace runs; null while a stream is open. */
  lastClosed: Date | null;
  grace: NodeJS.Timeout | null;
}

/**
 * An administrator's watch from when to when (docs/sharing.md, "Watching"): `watch_started` when
 * the first stream of a watch grant opens here, `watch_ended` with its duration once the last one
 * closed and `graceMs` passed without a new one; then the grant ends (`end`), so the owner's
 * notice goes with it and a new watch starts from the console again. A stream back within the
 * grace (a network blip, the watcher's page reconnecting) continues the same watch: no pair of
 * events per blip, and the owner's notice, which follows the grant, stays.
 */
export function createWatchAudit(
  audit: Pick<AuditTrail, 'record'>,
  end: (kasmId: string, grantId: string) => Promise<unknown>,
  graceMs = 0,
) {
  const open = new Map<string, OpenWatch>();
  let closing = false;
  const record = (stream: WatchStream, operation: string, after: Record<string, unknown>) => {
    const context: AuditContext = {
      actor: {
        kind: 'user',
        id: stream.watcherId ? toWireId(stream.watcherId) : '',
        username: stream.watcher,
      },
      channel: 'session',
      clientIp: stream.clientIp,
      userAgent: stream.userAgent,
    };
    return audit.record(context, {
      operation,
      target: { type: 'kasm', id: toWireId(stream.kasmId) },
      before: null,
      after: { watcher: stream.watcher, owner: stream.owner, ...after },
    });
  };
  /** The watch is over: it ended when its last stream closed, not when the grace ran out. */
  const finish = (grantId: string, watch: OpenWatch) => {
    if (watch.grace) clearTimeout(watch.grace);
    open.delete(grantId);
    const ended = watch.lastClosed ?? new Date();
    void record(watch.stream, 'watch_ended', {
      started: watch.since.toISOString(),
      ended: ended.toISOString(),
      duration_seconds: Math.round((ended.getTime() - watch.since.getTime()) / 1000),
    });
    void end(watch.stream.kasmId, grantId).catch(() => undefined);
  };

  const watched = (stream: WatchStream, socket: ClosableSocket): void => {
    let watch = open.get(stream.grantId);
    if (!watch) {
      watch = { streams: 0, since: new Date(), stream, lastClosed: null, grace: null };
      open.set(stream.grantId, watch);
      void record(stream, 'watch_started', { started: watch.since.toISOString() });
    }
    if (watch.grace) clearTimeout(watch.grace);
    watch.grace = null;
    watch.lastClosed = null;
    watch.streams++;
    const started = watch;
    socket.once('close', () => {
      if (--started.streams > 0) return;
      started.lastClosed = new Date();
      if (closing || graceMs === 0) return finish(stream.grantId, started);
      started.grace = setTimeout(() => finish(stream.grantId, started), graceMs);
    });
  };
  return Object.assign(watched, {
    /** The service stops: watches waiting out their grace end now, and any closing after them. */
    flush(): void {
      closing = true;
      for (const [grantId, watch] of open) if (watch.streams === 0) finish(grantId, watch);
    },
  });
}
export type WatchAudit = ReturnType<typeof createWatchAudit>;
