import type { Server } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AuditTrail } from '../audit';
import type { Config } from '../config';
import { createClipboardAudit } from './clipboard-audit';
import { createWatchAudit } from './watch-audit';
import type { KasmReads, KasmsRepository, SocketHop } from '../sessions';
import { createJoinerStreams } from './joiner-streams';
import { createSessionAccess, type ShareSpender } from './session-access';
import { createInputRecorder } from './session-input';
import {
  createRequestAdmission,
  createSignedInAs,
  createSocketHold,
  type SignedInUser,
  type SocketHold,
} from './session-admission';
import type { SessionProxyOptions } from './session-proxy';
import { createSessionsServer, originGuard } from './sessions-listener';
import { createSessionSockets, SOCKET_RECHECK_MS } from './session-sockets';

/** What the proxy is built from: the sessions feature's rows, reads and hop, and its access hook. */
export interface SessionProxyDeps {
  config: Config;
  kasms: KasmsRepository;
  reads: KasmReads;
  socketHop: SocketHop;
  /** Registers what to do when a session's access ends (its grants revoked, its sockets closed). */
  onAccessEnded: (end: (kasmId: string) => void) => void;
  /** Spends share links for joiners' grants (session-sharing/). */
  spendShare?: ShareSpender;
  log: FastifyBaseLogger;
}

/**
 * The session proxy's parts: grants (access), the open WebSockets (sockets) and the input
 * recorder, wired to the sessions feature; `options` completes them with what the proxy tells
 * or asks of others (metrics, the web page's sign-in).
 */
export function createSessionProxyFeature(deps: SessionProxyDeps) {
  const { config, kasms, reads, socketHop, log } = deps;
  const access = createSessionAccess(
    kasms,
    reads,
    { grantTtlMs: config.SESSION_GRANT_TTL_SECONDS * 1000 },
    deps.spendShare,
  );
  const joiners = createJoinerStreams();
  const sockets = createSessionSockets({
    intervalMs: SOCKET_RECHECK_MS,
    maxPerGrant: config.SESSION_GRANT_MAX_WEBSOCKETS,
    idleMs: config.SESSION_WEBSOCKET_IDLE_SECONDS * 1000,
  });
  deps.onAccessEnded((kasmId) => {
    access.revoke(kasmId);
    sockets.closeSession(kasmId);
  });
  const recordInput = createInputRecorder({
    write: (kasmId, at) => kasms.recordInput(kasmId, at),
    onError: (error, kasmId) => log.warn({ err: error, kasmId }, 'session input not recorded'),
  });
  return {
    /**
     * What sharing changes on open streams: a joiner's role (live, no reconnect) and the end of
     * joiners' grants (removed, their link revoked), their streams closed at once here.
     */
    joinerStreams: {
      setRole(grantId: string, role: 'view' | 'control'): void {
        access.forgetGrant(grantId);
        joiners.setRole(grantId, role);
      },
      close(grantIds: string[]): void {
        for (const grantId of grantIds) access.forgetGrant(grantId);
        joiners.close(grantIds);
      },
    },
    /** How another route on the sessions origin admits a request as the proxy does (session files). */
    admission: (signedInUser: SignedInUser, ownerOnly = true) =>
      createRequestAdmission(access, signedInUser, ownerOnly),
    /** Closes every stream of a session's viewers (its recording, which must be made, failed). */
    closeViewers: (kasmId: string) => sockets.closeSession(kasmId),
    /** How another route's WebSocket is held with the proxy's own (session sound). */
    socketHold: (signedInUser: SignedInUser): SocketHold =>
      createSocketHold(access, sockets, createSignedInAs(signedInUser)),
    options: ({
      audit,
      ...others
    }: Pick<
      SessionProxyOptions,
      'onUpstream' | 'signedInUser' | 'sessionPolicy' | 'landing' | 'recordStream'
    > & {
      audit: Pick<AuditTrail, 'record'>;
    }): SessionProxyOptions => ({
      ...others,
      access,
      sockets,
      joiners,
      socketHop,
      recordInput,
      clipboardRefused: createClipboardAudit(audit),
      // The watch is over: its grant ends (the owner's notice with it), here at once.
      watched: createWatchAudit(
        audit,
        async (kasmId, grantId) => {
          access.forgetGrant(grantId);
          await kasms.deleteParticipant(access.sessionId(kasmId), grantId);
        },
        config.SESSION_WATCH_GRACE_SECONDS * 1000,
      ),
    }),
  };
}

/**
 * The sessions listener (SESSION_PORT): the same app, answering only `/kasm/…`, closed with it.
 * Its guard goes in before any route: which listener a request came through decides what may
 * answer it.
 */
export function attachSessionsListener(app: FastifyInstance, config: Config): Server {
  app.addHook('onRequest', originGuard(config.SESSION_PORT !== 0));
  const server = createSessionsServer(app);
  app.addHook('onClose', async () => {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  });
  return server;
}
