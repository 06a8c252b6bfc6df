import { proxyOrigin } from './proxy-port';

export interface ZoneProxy {
  proxyHostname: string;
  proxyPath: string;
  /** 0: no port in the URL (a reverse proxy fronts the platform); 443 and 80 fix the scheme. */
  proxyPort: number;
}

/** `https://proxy_hostname[:proxy_port]/proxy_path/kasm/<session_id>/`: the session proxy's address. */
export function sessionUrl(zone: ZoneProxy, sessionId: string, scheme = 'https'): string {
  const { scheme: urlScheme, port } = proxyOrigin(zone.proxyPort, scheme);
  const path = zone.proxyPath.replace(/\/+$/, '');
  return `${urlScheme}://${zone.proxyHostname}${port}${path}/kasm/${sessionId}/`;
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
