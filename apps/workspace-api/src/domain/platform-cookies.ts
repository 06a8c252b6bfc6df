import type { FastifyRequest } from 'fastify';

// The platform's own cookies: the web page sets them, the session proxy reads the login cookie
// and keeps all of them from the containers.

/** The browser's login session (a row of `session`, stored as the token's SHA-256). */
export const SESSION_COOKIE = 'ws_session';
/** Before sign-in, forms are bound to this random cookie instead (login CSRF). */
export const FORM_COOKIE = 'ws_form';
/** An OpenID Connect sign-in under way: its state, nonce and PKCE verifier (sso/). */
export const SSO_COOKIE = 'ws_sso';
/**
 * Over TLS both cookies carry the `__Host-` prefix: a browser then keeps them only when Secure,
 * for Path=/ and without Domain, so neither a sibling subdomain nor a plain-HTTP response can
 * plant or shadow them. Over plain HTTP (development) they keep the names above.
 */
const HOST_PREFIX = '__Host-';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * PUBLIC_URL is https: browsers reach the service over TLS whatever the hop behind the
     * terminating proxy says (a TRUST_PROXY left unset hides its X-Forwarded-Proto).
     */
    publicHttps?: boolean;
  }
}

/** The scheme browsers reach the service with: https over TLS or when PUBLIC_URL says so. */
export const publicProtocol = (request: FastifyRequest): 'https' | 'http' =>
  request.protocol === 'https' || request.server.publicHttps === true ? 'https' : 'http';
const overTls = (request: FastifyRequest) => publicProtocol(request) === 'https';
export const sessionCookieName = (request: FastifyRequest) =>
  overTls(request) ? `${HOST_PREFIX}${SESSION_COOKIE}` : SESSION_COOKIE;
export const formCookieName = (request: FastifyRequest) =>
  overTls(request) ? `${HOST_PREFIX}${FORM_COOKIE}` : FORM_COOKIE;
export const ssoCookieName = (request: FastifyRequest) =>
  overTls(request) ? `${HOST_PREFIX}${SSO_COOKIE}` : SSO_COOKIE;
/** Every name the platform's own cookies may have; none of them may reach a container. */
export const PLATFORM_COOKIES = [SESSION_COOKIE, FORM_COOKIE, SSO_COOKIE].flatMap((name) => [
  name,
  `${HOST_PREFIX}${name}`,
]);

/** Path=/ and no Domain always, Secure over TLS: what a `__Host-` cookie must have. */
export function cookieOptions(request: FastifyRequest, maxAgeSeconds?: number) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: overTls(request),
    ...(maxAgeSeconds ? { maxAge: maxAgeSeconds } : {}),
  };
}
