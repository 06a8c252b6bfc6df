import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomSecret } from '@platform/secrets';
import { cookieOptions, formCookieName } from '../domain';
import { CsrfRejectedError } from '../errors';

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
