import type { FastifyPluginAsync } from 'fastify';
import cookie from '@fastify/cookie';
import httpProxy from '@fastify/http-proxy';
import { PLATFORM_COOKIES } from '../web/web-security';
import type { SessionAccess, SessionTarget } from './session-access';

export const GRANT_COOKIE = 'kasm_grant';
export const TOKEN_PARAM = 'kasm_token';
/** Admitted targets by raw request: the proxy's hooks see the request through different types. */
const admitted = new WeakMap<object, SessionTarget>();
const targetOf = (request: { raw: object }): SessionTarget => {
  const target = admitted.get(request.raw);
  // preHandler admitted every request that reaches the proxy; this is a programming error.
  if (!target) throw new Error('session proxy request without an admitted target');
  return target;
};

/**
 * The Cookie header without our grant and the web page's login session: the container never
 * sees the platform's credentials (the login cookie's path is `/`, so browsers send it here too).
 */
function withoutGrant(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const ours = [GRANT_COOKIE, ...PLATFORM_COOKIES].map((name) => `${name}=`);
  const kept = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part && !ours.some((name) => part.startsWith(name)));
  return kept.length > 0 ? kept.join('; ') : undefined;
}

/**
 * `/kasm/<kasm_id>/…` to the session's container, HTTP and WebSocket, for holders of the
 * session's grant cookie only. A visit with `?kasm_token=` exchanges the connect token for the
 * cookie and redirects to the same address without it. The container's own credentials (Basic,
 * VNC_PW) are added here; its self-signed certificate is accepted on this hop only.
 */
export const sessionProxy: FastifyPluginAsync<{ access: SessionAccess }> = async (
  app,
  { access },
) => {
  await app.register(cookie);

  await app.register(httpProxy, {
    prefix: '/kasm/:kasmId',
    upstream: '',
    websocket: true,
    // The service's own request line is the one log line per request; reply-from would add two.
    disableRequestLogging: true,
    undici: { connect: { rejectUnauthorized: false } },
    async preHandler(request, reply) {
      const { kasmId } = request.params as { kasmId: string };
      const url = new URL(request.url, 'http://proxy.invalid');
      const token = url.searchParams.get(TOKEN_PARAM);
      if (token !== null) {
        const grant = await access.exchange(kasmId, token);
        url.searchParams.delete(TOKEN_PARAM);
        reply.setCookie(GRANT_COOKIE, grant, {
          path: `/kasm/${kasmId}/`,
          httpOnly: true,
          sameSite: 'lax',
          secure: request.protocol === 'https',
        });
        return reply.redirect(`${url.pathname}${url.search}`, 303);
      }
      admitted.set(request.raw, await access.admit(kasmId, request.cookies[GRANT_COOKIE]));
    },
    replyOptions: {
      getUpstream: (request) => targetOf(request).origin,
      rewriteRequestHeaders: (request, headers) => ({
        ...headers,
        cookie: withoutGrant(headers.cookie as string | undefined),
        authorization: targetOf(request).authorization,
      }),
    },
    // rewriteRequestHeaders is honoured for WebSockets at run time, though the types omit it.
    wsClientOptions: {
      rejectUnauthorized: false,
      rewriteRequestHeaders: (
        headers: Record<string, string>,
        request: { raw: object; headers: Record<string, string | undefined> },
      ) => ({
        ...headers,
        ...(withoutGrant(request.headers.cookie)
          ? { cookie: withoutGrant(request.headers.cookie) }
          : {}),
        authorization: targetOf(request).authorization,
      }),
    } as object,
  });
};
