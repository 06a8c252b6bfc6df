/**
 * The scheme and the `:port` part of a session URL from a zone's `proxy_port`. 443 and 80 are the
 * schemes' own ports: they fix the scheme and stay out of the URL (`http://host:443/` reaches no
 * TLS listener). 0 means the browser keeps the port it is on, with the platform's own scheme;
 * any other port is written out with the platform's scheme.
 */
export function proxyOrigin(
  proxyPort: number,
  platformScheme: string,
): { scheme: string; port: string } {
  if (proxyPort === 443) return { scheme: 'https', port: '' };
  if (proxyPort === 80) return { scheme: 'http', port: '' };
  return { scheme: platformScheme, port: proxyPort === 0 ? '' : `:${proxyPort}` };
}
