import { PLATFORM_COOKIES as WEB_COOKIES } from '../domain';

export const GRANT_COOKIE = 'kasm_grant';

/**
 * The cookies the platform sets: the proxy's grant, the login session and the pre-sign-in form
 * secret (under their plain and `__Host-` names).
 */
export const PLATFORM_COOKIES: readonly string[] = [GRANT_COOKIE, ...WEB_COOKIES];

const nameOf = (pair: string) => pair.slice(0, Math.max(0, pair.indexOf('='))).trim();

/**
 * A Cookie header without the platform's cookies, for the container: it never sees the
 * browser's credentials to the platform (they are sent here too, as their paths cover `/kasm/`).
 */
export function containerCookieHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const kept = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part && !PLATFORM_COOKIES.includes(nameOf(part)));
  return kept.length > 0 ? kept.join('; ') : undefined;
}

/**
 * One `Set-Cookie` of the container as the browser may store it, or null to drop it. A cookie
 * named like one of the platform's is dropped: it could overwrite or shadow the grant or the
 * login. The others are kept but confined to the session: `Path` is put under
 * `/kasm/<kasm_id>/` (keeping the container's own path below it) and `Domain` is removed, so
 * they reach neither the platform's pages nor another session, nor other host names.
 */
export function scopeSetCookie(value: string, kasmId: string): string | null {
  const [pair, ...attributes] = value.split(';');
  const name = nameOf(pair);
  if (!name || PLATFORM_COOKIES.includes(name)) return null;
  let ownPath = '/';
  const kept = attributes
    .map((attribute) => attribute.trim())
    .filter((attribute) => {
      const key = nameOf(`${attribute}=`).toLowerCase();
      if (key === 'path') {
        const path = attribute.slice(attribute.indexOf('=') + 1).trim();
        if (path.startsWith('/')) ownPath = path;
        return false;
      }
      return attribute !== '' && key !== 'domain';
    });
  const path = `/kasm/${kasmId}${ownPath}`;
  return [pair.trim(), `Path=${path}`, ...kept].join('; ');
}

/** The container's `Set-Cookie` header values, scoped to the session (see scopeSetCookie). */
export function scopeSetCookies(
  header: string | string[] | undefined,
  kasmId: string,
): string[] | undefined {
  if (header === undefined) return undefined;
  const scoped = (Array.isArray(header) ? header : [header])
    .map((value) => scopeSetCookie(value, kasmId))
    .filter((value): value is string => value !== null);
  return scoped.length > 0 ? scoped : undefined;
}
