import { parseIsoDay } from '../domain';

export const TOKEN_SCOPES = ['read', 'write'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** What a route needs of a token: `read` for reads, `write` for anything that changes state. */
export type RouteAccess = TokenScope;

/**
 * The longest a token may be issued for: a forgotten token stops working within a year and a
 * day. Tokens without an expiry stay possible (the first token, automation that rotates itself).
 */
export const MAX_TOKEN_LIFETIME_DAYS = 366;

const MS_PER_DAY = 86_400_000;
const DAYS = /^([1-9]\d{0,3})d$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

export const isTokenScope = (value: string): value is TokenScope =>
  (TOKEN_SCOPES as readonly string[]).includes(value);

/** Write implies read. */
export const scopeAllows = (scope: string, access: RouteAccess): boolean =>
  scope === 'write' || (scope === 'read' && access === 'read');

/**
 * The instant an expiry given as `30d` (days from now), `YYYY-MM-DD` (that day's start, UTC)
 * or an ISO 8601 instant with its zone means; throws a message naming the accepted forms.
 */
export function parseExpiry(text: string, now: Date): Date {
  const days = DAYS.exec(text);
  if (days) return new Date(now.getTime() + Number(days[1]) * MS_PER_DAY);
  const day = parseIsoDay(text);
  if (day !== null) return new Date(day * MS_PER_DAY);
  const instant = INSTANT.test(text) ? new Date(text) : null;
  // Date accepts 2025-02-30T…; the round trip through the day refuses it.
  if (instant && !Number.isNaN(instant.getTime()) && parseIsoDay(text.slice(0, 10)) !== null) {
    return instant;
  }
  throw new Error(
    `"${text}" is not an expiry: give days (30d), a date (2026-06-30) or an instant (2026-06-30T12:00:00Z)`,
  );
}

/** Why a token may not be issued with this expiry, or null when it may. */
export function expiryProblem(expiresAt: Date, now: Date): string | null {
  if (Number.isNaN(expiresAt.getTime())) return 'The expiry is not a valid instant';
  if (expiresAt.getTime() <= now.getTime()) return 'The expiry must be in the future';
  if (expiresAt.getTime() > now.getTime() + MAX_TOKEN_LIFETIME_DAYS * MS_PER_DAY) {
    return `The expiry must be at most ${MAX_TOKEN_LIFETIME_DAYS} days away`;
  }
  return null;
}

export type TokenState = 'active' | 'revoked' | 'expired';

/** A revoked token stays revoked whatever its expiry; an expired one is refused like an unknown one. */
export function tokenState(
  token: { revokedAt: Date | null; expiresAt: Date | null },
  now: Date,
): TokenState {
  if (token.revokedAt) return 'revoked';
  if (token.expiresAt && token.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}
