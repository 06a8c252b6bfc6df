import { REQUEST_HOST } from '../domain';

/** Where the console is reached, as the configuration knows it. */
export interface ConsoleOrigin {
  /** The sessions listener's port; 0 is one listener for both, and nothing is refused. */
  sessionPort: number;
  /** The console's listener. */
  port: number;
  /** The console's public address, when the configuration names it (PUBLIC_URL). */
  publicUrl: string;
  /** The scheme of session URLs (SESSION_URL_SCHEME). */
  scheme: string;
}

const effectivePort = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

function why(zone: { proxyHostname: string; proxyPort: number }, on: ConsoleOrigin) {
  const port = zone.proxyPort;
  const publicUrl = on.publicUrl ? new URL(on.publicUrl) : null;
  if (zone.proxyHostname === REQUEST_HOST) {
    // The host is the page's: only a port of its own makes another origin.
    if (port === 0)
      return 'with $request_host$ and proxy_port 0 a session is on the page’s own host and port';
    if (port === 80 || port === 443)
      return `with $request_host$, proxy_port ${port} is the scheme’s own port, where the console is reached`;
  }
  if (port === on.port) return `proxy_port ${port} is the console’s port (PORT)`;
  if (!publicUrl) return null;
  const host = zone.proxyHostname === REQUEST_HOST ? publicUrl.hostname : zone.proxyHostname;
  const scheme = port === 443 ? 'https:' : port === 80 ? 'http:' : `${on.scheme}:`;
  const sessions = new URL(
    `${scheme}//${host}${port && port !== 80 && port !== 443 ? `:${port}` : ''}/`,
  );
  const same =
    sessions.hostname === publicUrl.hostname &&
    effectivePort(sessions) === effectivePort(publicUrl);
  return same ? `${sessions.origin} is the console’s address (PUBLIC_URL)` : null;
}

/**
 * Why a zone would serve its sessions on the console's origin, or null: a session's page there
 * could act as whoever opens it, with their sign-in. Nothing is refused with one listener.
 */
export function zoneOnConsoleOrigin(
  zone: { proxyHostname: string; proxyPort: number },
  on: ConsoleOrigin,
): string | null {
  if (on.sessionPort === 0) return null;
  const reason = why(zone, on);
  return reason
    ? `Sessions would share the console’s origin: ${reason}. Give the zone the sessions address: proxy_port ${on.sessionPort} (SESSION_PORT) or a host name of its own routed there`
    : null;
}

/** The console's origin as the service's configuration gives it. */
export const consoleOriginOf = (config: {
  SESSION_PORT: number;
  PORT: number;
  PUBLIC_URL: string;
  SESSION_URL_SCHEME: string;
}): ConsoleOrigin => ({
  sessionPort: config.SESSION_PORT,
  port: config.PORT,
  publicUrl: config.PUBLIC_URL,
  scheme: config.SESSION_URL_SCHEME,
});
