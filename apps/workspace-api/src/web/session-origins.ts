import { REQUEST_HOST, type RequestHost } from '../domain';
import { sessionUrl, type ZoneProxy } from '../launch-plan';

/**
 * The origins the page's Open button may lead to: each zone's session origin, a `$request_host$`
 * zone's as seen from `requestHost` (none when the request's host is not valid). They widen the
 * page's `form-action` by exactly these origins, never to any site.
 */
export function sessionOrigins(
  zones: readonly ZoneProxy[],
  scheme: string,
  requestHost: RequestHost | null,
): string[] {
  const origins = zones.flatMap((zone) =>
    zone.proxyHostname === REQUEST_HOST && !requestHost
      ? []
      : [new URL(sessionUrl(zone, 'x', scheme, requestHost ?? undefined)).origin],
  );
  return [...new Set(origins)].sort();
}
