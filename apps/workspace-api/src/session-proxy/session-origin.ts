/**
 * Whether a WebSocket upgrade comes from a page of the host it was sent to (the platform's, or
 * the session host's): a page elsewhere must not ride on the browser's grant cookie. The host
 * part is compared, not the scheme: behind a TLS-terminating proxy the service may see http.
 */
export function originMatchesHost(origin: string | undefined, host: string | undefined): boolean {
  if (!origin || !host) return false;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  return parsed.host.toLowerCase() === host.toLowerCase();
}

/**
 * Whether a request reached the host name of the session's URL (its zone's `proxy_hostname`).
 * Grants are only minted there, so a session meant for a host of its own is never served on the
 * platform's page origin. Ports are not compared: `proxy_port` 0 keeps the browser's port, and
 * a reverse proxy may listen on another one than the service.
 */
export function onSessionHost(hostname: string, sessionUrl: string): boolean {
  const wanted = new URL(sessionUrl).hostname.toLowerCase();
  const given = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return given === wanted.replace(/^\[(.*)\]$/, '$1');
}
