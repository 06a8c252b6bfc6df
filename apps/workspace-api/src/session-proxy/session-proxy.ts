import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import httpProxy from '@fastify/http-proxy';
import { toWireId } from '@platform/schemas';
import { publicProtocol } from '../domain';
import {
  KasmNotFoundError,
  ProxyAccessDeniedError,
  ProxyCertificateRefusedError,
  ProxyOriginRejectedError,
  ProxyPathInvalidError,
  ProxyServiceWorkerRefusedError,
  ProxySocketLimitError,
  ShareNotFoundError,
  ShareRefusedError,
} from '../errors';
import { CONNECT_TOKEN_THROTTLE } from '../plugins';
import { CertificatePinError, type Hop, type SocketHop } from '../sessions';
import { containerCookieHeader, GRANT_COOKIE } from './proxy-cookies';
import { isServiceWorkerScript, sessionResponseHeaders } from './proxy-headers';
import type { SessionPolicy } from '../images';
import { requestOrigin } from '../audit';
import type { ClipboardAudit } from './clipboard-audit';
import { createClipboardGuard } from './clipboard-guard';
import type { JoinerStreams } from './joiner-streams';
import type { WatchAudit } from './watch-audit';
import type { Referee, StreamRole } from './rfb-referee';
import type { SessionAccess, SessionTarget } from './session-access';
import { createSignedInAs, createSocketHold, type SignedInUser } from './session-admission';
import { createTlsPins, createUpstreamAgent, socketOrigin } from './proxy-upstream';
import { originMatchesHost } from './session-origin';
import { needsOwnerPage, sendOwnerPage, type SessionOwner } from './session-owner-page';
import type { SessionSockets } from './session-sockets';
import { pipeUrl, pipeWebSocket } from './websocket-pipe';

export { GRANT_COOKIE } from './proxy-cookies';
export const TOKEN_PARAM = 'kasm_token';
/** A share link's secret (session-sharing/): spent for a joiner's grant as a token is. */
export const SHARE_PARAM = 'kasm_share';
const PREFIX = '/kasm/';

/** The path and query on the container of a `/kasm/<kasm_id>/…` address (`/` for none). */
const containerPath = (url: string): string => {
  const slash = url.indexOf('/', PREFIX.length);
  return slash === -1 ? '/' : url.slice(slash);
};

/** Admitted targets by raw request: the proxy's hooks see the request through different types. */
const admitted = new WeakMap<object, SessionTarget>();
const targetOf = (request: { raw: object }): SessionTarget => {
  const target = admitted.get(request.raw);
  // preHandler admitted every request that reaches the proxy; this is a programming error.
  if (!target) throw new Error('session proxy request without an admitted target');
  return target;
};

/** Whether an admitted request asks for the session's own page, `/kasm/<kasm_id>/`. */
const asksForLanding = (request: FastifyRequest) =>
  (request.method === 'GET' || request.method === 'HEAD') &&
  containerPath(request.url).split('?', 1)[0] === '/';

/**
 * The platform's page of a session, answered at `/kasm/<kasm_id>/` instead of the container's
 * (which stays at its own paths, e.g. noVNC's `vnc.html`) for a workspace served over HTTPS.
 */
export type SessionLanding = (
  reply: FastifyReply,
  session: SessionOwner & { kasmId: string; role: StreamRole },
) => unknown;

/** A connect token refused for what it is: wrong, spent, or for no session. */
const isRefusedToken = (error: unknown) =>
  error instanceof ProxyAccessDeniedError ||
  error instanceof KasmNotFoundError ||
  error instanceof ShareRefusedError ||
  error instanceof ShareNotFoundError;

export interface SessionProxyOptions {
  access: SessionAccess;
  sockets: SessionSockets;
  /** Joiners' streams by grant: their referees' roles, changed live, and their closing. */
  joiners: JoinerStreams;
  socketHop: SocketHop;
  /** Told of each connection opened to a container: HTTP or WebSocket, and by which hop. */
  onUpstream: (kind: 'http' | 'websocket', hop: Hop) => void;
  /** Notes input from the browser on a session's stream (the idle limit), throttled. */
  recordInput: (kasmId: string) => void;
  signedInUser: SignedInUser;
  /** The session user's effective transfer policy (workspace and groups), read at each open. */
  sessionPolicy: (imageId: string, userId: string) => Promise<SessionPolicy>;
  /** Records a clipboard transfer the policy refused on a stream (rate-limited). */
  clipboardRefused: ClipboardAudit;
  /**
   * Before a stream is piped: records the session where its policy says so (refusing the stream
   * when a recording that must be made cannot be); answers where the viewer's input goes.
   */
  recordStream?: (session: {
    kasmId: string;
    userId: string;
    imageId: string;
    username: string;
  }) => Promise<((message: Buffer) => void) | null>;
  /** Records an administrator's watch from its first stream to its last, then ends its grant. */
  watched: WatchAudit;
  /** The page a browser lands on at the session's root; without it, the container's page. */
  landing?: SessionLanding;
}

/**
 * `/kasm/<kasm_id>/…` to the session's container, HTTP and WebSocket, for holders of the
 * session's grant cookie only. A visit with `?kasm_token=` spends the connect token for the
 * cookie and redirects to the same address without it; a signed-out browser's own page load
 * first gets a page naming whose session it is. The platform's cookies never reach the
 * container and the container's cookies stay inside the session's path. The container's own
 * credentials (Basic, VNC_PW) are added here, and sent over TLS only once the container
 * presented its session's pinned certificate (anything else gets nothing, and the user a 502).
 * A session whose folder of the socket hop holds a socket is reached there instead, plain, with
 * the same credentials.
 */
export const sessionProxy: FastifyPluginAsync<SessionProxyOptions> = async (
  app,
  {
    access,
    sockets,
    joiners,
    socketHop,
    onUpstream,
    recordInput,
    signedInUser,
    sessionPolicy,
    clipboardRefused,
    recordStream,
    watched,
    landing,
  },
) => {
  await app.register(cookie);
  const pins = createTlsPins();
  const upstreamAgent = createUpstreamAgent(socketHop, (hop) => onUpstream('http', hop), pins);
  // Whoever answered is not the session's container: it got nothing, and the user a 502.
  const refusedBy = (
    request: { log: FastifyRequest['log'] },
    kasmId: string,
    error: CertificatePinError,
  ) =>
    request.log.warn(
      { kasmId, reason: error.message },
      'session proxy refused a container connection: not the session’s pinned certificate',
    );
  app.addHook('onClose', async () => {
    watched.flush();
    sockets.closeAll();
    await upstreamAgent.close();
  });

  const signedInAs = createSignedInAs(signedInUser);
  const holdSocket = createSocketHold(access, sockets, signedInAs);

  await app.register(httpProxy, {
    prefix: '/kasm/:kasmId',
    upstream: '',
    // Upgrades are routed through Fastify (and so the preHandler below, which pipes them).
    websocket: true,
    // The service's own request line is the one log line per request; reply-from would add two.
    disableRequestLogging: true,
    undici: upstreamAgent,
    async preHandler(request, reply) {
      const { kasmId } = request.params as { kasmId: string };
      const upgrade = request.headers.upgrade?.toLowerCase() === 'websocket';
      if (isServiceWorkerScript(request.headers)) throw new ProxyServiceWorkerRefusedError();
      if (upgrade && !originMatchesHost(request.headers.origin, request.host))
        throw new ProxyOriginRejectedError();
      const url = new URL(request.url, 'http://proxy.invalid');
      const token = url.searchParams.get(TOKEN_PARAM);
      const share = token === null ? url.searchParams.get(SHARE_PARAM) : null;
      if (token !== null || share !== null) {
        const browserUser = await signedInAs(request);
        // Each refused token is a guess at a session's link: counted per (address, session).
        const grant = await app.authThrottle.guard(
          CONNECT_TOKEN_THROTTLE,
          request,
          kasmId,
          () => {
            const by = { hostname: request.hostname, signedInAs: browserUser };
            return token !== null
              ? access.exchange(kasmId, token, by)
              : access.exchangeShare(kasmId, share ?? '', by);
          },
          isRefusedToken,
        );
        url.searchParams.delete(TOKEN_PARAM);
        url.searchParams.delete(SHARE_PARAM);
        // No Domain: the cookie is host-only, for the session's host alone.
        reply.setCookie(GRANT_COOKIE, grant.cookie, {
          path: `/kasm/${kasmId}/`,
          httpOnly: true,
          sameSite: 'lax',
          secure: publicProtocol(request) === 'https',
          expires: grant.expiresAt,
        });
        const next = `${url.pathname}${url.search}`;
        if (token !== null && needsOwnerPage(request, browserUser))
          return sendOwnerPage(reply, await access.ownerOf(kasmId), next);
        return reply.redirect(next, 303);
      }
      const grant = request.cookies[GRANT_COOKIE];
      const target = await access.admit(kasmId, grant, await signedInAs(request));
      const wireId = toWireId(access.sessionId(kasmId));
      // A joiner watches or drives the desktop's stream; the workspace's own page takes no writes.
      if (target.role !== 'owner' && !['GET', 'HEAD'].includes(request.method))
        throw new ProxyAccessDeniedError('A joiner of the session may only read its pages');
      // The desktop contract (Kasm's images and the platform's: HTTPS, a VNC stream at
      // /websockify) gets the page; a plain-HTTP web workspace keeps its own root.
      if (!upgrade && landing && target.origin.startsWith('https:') && asksForLanding(request))
        return landing(reply, {
          ...(await access.ownerOf(kasmId)),
          kasmId: wireId,
          role: target.role,
        });
      const onSocket = await socketHop.hasSocket(wireId);
      if (!upgrade) {
        if (!onSocket) pins.note(target.origin, target.pin);
        const origin = onSocket ? socketOrigin(wireId) : target.origin;
        admitted.set(request.raw, { ...target, origin });
        return;
      }
      // A socket that cannot be opened safely (gone, or swapped for something else): TLS it is.
      const socket = onSocket ? await socketHop.connect(wireId).catch(() => undefined) : undefined;
      const pipeTo = pipeUrl(
        socket ? socketOrigin(wireId) : target.origin,
        containerPath(request.url),
      );
      if (!pipeTo) {
        socket?.destroy();
        throw new ProxyPathInvalidError();
      }
      // Admitted, so the session has its user; the policy is the one of this stream's opening.
      const { userId, username } = target;
      if (!userId) throw new ProxyAccessDeniedError('The session has no user yet');
      const policy = await sessionPolicy(target.imageId, userId);
      const origin = { kasmId, userId, username, ...requestOrigin(request) };
      // A joiner's stream is refereed by its role, which the owner may change while it runs.
      const referee: Referee | null = target.role === 'owner' ? null : { role: target.role };
      const guard = createClipboardGuard(
        {
          allowUp: policy.allowClipboardUp,
          allowDown: policy.allowClipboardDown,
          maxBytes: policy.maxClipboardBytes,
        },
        (refusal) => clipboardRefused(origin, refusal),
        referee,
      );
      const onInputMessage = await recordStream?.({
        kasmId: access.sessionId(kasmId),
        userId,
        imageId: target.imageId,
        username,
      });
      const client = request.raw.socket;
      const held = holdSocket(request, kasmId, client, undefined, (now) => {
        if (referee) referee.role = now.role;
      });
      if (!held) {
        socket?.destroy();
        throw new ProxySocketLimitError();
      }
      if (referee) joiners.enter(target.grantId, client, referee);
      if (target.role === 'watch')
        watched(
          {
            grantId: target.grantId,
            kasmId,
            watcher: target.joinerName,
            watcherId: target.joinerId,
            owner: username,
            clientIp: origin.clientIp,
            userAgent: origin.userAgent,
          },
          client,
        );
      onUpstream('websocket', socket ? 'socket' : 'tls');
      reply.hijack();
      pipeWebSocket(client, request.raw, pipeTo, {
        headers: {
          cookie: containerCookieHeader(request.headers.cookie),
          authorization: target.authorization,
        },
        rewriteResponseHeaders: (headers) => sessionResponseHeaders(headers, kasmId),
        // The idle limit counts the owner's input; a joiner's keeps no session alive.
        onInput: referee ? undefined : () => recordInput(kasmId),
        // A joiner's input reaches the desktop, and so the recording, only while they control it.
        onInputMessage:
          referee && onInputMessage
            ? (message: Buffer) => referee.role === 'control' && onInputMessage(message)
            : onInputMessage,
        socket,
        pin: target.pin,
        guard,
        onGuardClosed: (error) =>
          request.log.warn(
            { kasmId, reason: error.message },
            'session stream closed: the clipboard policy could not be enforced on it',
          ),
        onRefused: (error) => {
          if (error instanceof CertificatePinError) refusedBy(request, kasmId, error);
        },
      });
    },
    replyOptions: {
      getUpstream: (request) => targetOf(request).origin,
      onError: (reply, { error }) => {
        const cause = (error as { cause?: unknown }).cause;
        if (!(cause instanceof CertificatePinError)) return reply.send(error);
        const { kasmId } = reply.request.params as { kasmId: string };
        refusedBy(reply.request, kasmId, cause);
        return reply.send(new ProxyCertificateRefusedError());
      },
      rewriteRequestHeaders: (request, headers) => ({
        ...headers,
        cookie: containerCookieHeader(headers.cookie as string | undefined),
        authorization: targetOf(request).authorization,
      }),
      rewriteHeaders: (headers, request) =>
        sessionResponseHeaders(headers, (request as { params: { kasmId: string } }).params.kasmId),
    },
  });
};
