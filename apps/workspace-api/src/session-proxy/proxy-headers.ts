import { scopeSetCookies } from './proxy-cookies';

/**
 * Response headers by which a session's page could reach past its own path: a service worker
 * scope wider than the script's folder, and wiping the origin's storage and cookies.
 */
const DROPPED = new Set(['service-worker-allowed', 'clear-site-data']);

/**
 * The container's response headers as the browser gets them: its cookies kept inside the
 * session's path, and neither `Service-Worker-Allowed` nor `Clear-Site-Data`.
 */
export function sessionResponseHeaders<T extends Record<string, unknown>>(
  headers: T,
  kasmId: string,
): T {
  const kept = Object.fromEntries(
    Object.entries(headers).filter(
      ([name]) => name !== 'set-cookie' && !DROPPED.has(name.toLowerCase()),
    ),
  );
  const scoped = scopeSetCookies(headers['set-cookie'] as string | string[] | undefined, kasmId);
  return (scoped ? { ...kept, 'set-cookie': scoped } : kept) as T;
}

/**
 * Whether the browser is fetching a service worker's script (`Service-Worker: script`): a
 * session's page installs none, so that no worker of a workspace ever sits between a browser
 * and the pages it opens on the sessions origin.
 */
export const isServiceWorkerScript = (headers: Record<string, unknown>): boolean =>
  String(headers['service-worker'] ?? '').toLowerCase() === 'script';
