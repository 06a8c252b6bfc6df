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

/**
 * An administrator's watch from when to when (docs/sharing.md, "Watching"): `watch_started` when
 * the first stream of a watch grant opens here, `watch_ended` with its duration when the last one
 * closes; then the grant ends (`end`), so the owner's notice goes with it and a new watch starts
 * from the console again.
 */
export function createWatchAudit(
  audit: Pick<AuditTrail, 'record'>,
  end: (kasmId: string, grantId: string) => Promise<unknown>,
) {
  const open = new Map<string, { streams: number; since: Date }>();
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
  return (stream: WatchStream, socket: ClosableSocket): void => {
    let watch = open.get(stream.grantId);
    if (!watch) {
      watch = { streams: 0, since: new Date() };
      open.set(stream.grantId, watch);
      void record(stream, 'watch_started', { started: watch.since.toISOString() });
    }
    watch.streams++;
    const started = watch;
    socket.once('close', () => {
      if (--started.streams > 0) return;
      open.delete(stream.grantId);
      const ended = new Date();
      void record(stream, 'watch_ended', {
        started: started.since.toISOString(),
        ended: ended.toISOString(),
        duration_seconds: Math.round((ended.getTime() - started.since.getTime()) / 1000),
      });
      void end(stream.kasmId, stream.grantId).catch(() => undefined);
    });
  };
}
export type WatchAudit = ReturnType<typeof createWatchAudit>;
