import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomSecret } from '@platform/secrets';
import { CsrfRejectedError } from '../errors';

/** The browser's login session (a row of `session`, stored as the token's SHA-256). */
export const SESSION_COOKIE = 'ws_session';
/** Before sign-in, forms are bound to this random cookie instead (login CSRF). */
export const FORM_COOKIE = 'ws_form';
/**
 * Over TLS both cookies carry the `__Host-` prefix: a browser then keeps them only when Secure,
 * for Path=/ and without Domain, so neither a sibling subdomain nor a plain-HTTP response can
 * plant or shadow them. Over plain HTTP (development) they keep the names above.
 */
const HOST_PREFIX = '__Host-';
const overTls = (request: FastifyRequest) => request.protocol === 'https';
export const sessionCookieName = (request: FastifyRequest) =>
  overTls(request) ? `${HOST_PREFIX}${SESSION_COOKIE}` : SESSION_COOKIE;
export const formCookieName = (request: FastifyRequest) =>
  overTls(request) ? `${HOST_PREFIX}${FORM_COOKIE}` : FORM_COOKIE;
/** Every name the platform's own cookies may have; none of them may reach a container. */
export const PLATFORM_COOKIES = [SESSION_COOKIE, FORM_COOKIE].flatMap((name) => [
  name,
  `${HOST_PREFIX}${name}`,
]);
export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/**
 * The synchronizer token of a form: an HMAC of the cookie's secret, so it is bound to that
 * browser session (or pre-sign-in cookie) and needs no storage. A page from another site can
 * neither read it nor derive it.
 */
export const csrfTokenFor = (secret: string) =>
  createHmac('sha256', secret).update('csrf').digest('base64url');

function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Refuses a state-changing request whose token (form field or header) does not match `secret`. */
export function assertCsrf(request: FastifyRequest, secret: string | undefined): void {
  const body = request.body as Record<string, unknown> | undefined;
  const given = body?.[CSRF_FIELD] ?? request.headers[CSRF_HEADER];
  if (!secret || !sameToken(given, csrfTokenFor(secret))) throw new CsrfRejectedError();
}

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

/** The pre-sign-in form secret: the browser's own, or a new one set on this reply. */
export function formSecret(request: FastifyRequest, reply: FastifyReply): string {
  const existing = request.cookies[formCookieName(request)];
  if (existing && /^[A-Za-z0-9_-]{20,100}$/.test(existing)) return existing;
  const secret = randomSecret(24);
  reply.setCookie(formCookieName(request), secret, {
    ...cookieOptions(request),
    sameSite: 'strict',
  });
  return secret;
}
