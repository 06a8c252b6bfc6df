import { proxyOrigin } from './proxy-port';
import { REQUEST_HOST, type RequestHost } from '../domain';

export interface ZoneProxy {
  proxyHostname: string;
  proxyPath: string;
  /** 0: no port in the URL (a reverse proxy fronts the platform); 443 and 80 fix the scheme. */
  proxyPort: number;
}

/**
 * `https://proxy_hostname[:proxy_port]/proxy_path/kasm/<session_id>/`: the session proxy's address.
 * A zone whose host is `$request_host$` takes `requestHost` (the host the request came to), and
 * with proxy_port 0 that request's port too: the session is on the origin the person is using.
 * Without a request there is no such host: `localhost`, the machine's own name.
 */
export function sessionUrl(
  zone: ZoneProxy,
  sessionId: string,
  scheme = 'https',
  requestHost?: RequestHost,
): string {
  const origin = proxyOrigin(zone.proxyPort, scheme);
  let host = zone.proxyHostname;
  let port = origin.port;
  if (host === REQUEST_HOST) {
    host = requestHost?.hostname ?? 'localhost';
    if (zone.proxyPort === 0 && requestHost?.port) port = `:${requestHost.port}`;
  }
  const path = zone.proxyPath.replace(/\/+$/, '');
  return `${origin.scheme}://${host}${port}${path}/kasm/${sessionId}/`;
}

// $KASM_URL_EXTRA is another variable: only a whole name is replaced.
const KASM_URL = /\$\{KASM_URL\}|\$KASM_URL(?![A-Za-z0-9_])/g;

/** exec_config with `$KASM_URL` and `${KASM_URL}` replaced by `url` in every string, however deep. */
export function resolveKasmUrl(value: unknown, url: string): unknown {
  if (typeof value === 'string') return value.replace(KASM_URL, () => url);
  if (Array.isArray(value)) return value.map((item) => resolveKasmUrl(item, url));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, resolveKasmUrl(item, url)]),
    );
  }
  return value;
}
