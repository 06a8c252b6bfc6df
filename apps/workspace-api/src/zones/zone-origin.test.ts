import { zoneOnConsoleOrigin, type ConsoleOrigin } from './zone-origin';

const ON: ConsoleOrigin = { sessionPort: 3003, port: 3001, publicUrl: '', scheme: 'http' };
const PUBLIC: ConsoleOrigin = { ...ON, publicUrl: 'https://desk.example.com', scheme: 'https' };
const zone = (proxyHostname: string, proxyPort: number) => ({ proxyHostname, proxyPort });

describe('zoneOnConsoleOrigin', () => {
  it.each([
    ['$request_host$ with port 0', zone('$request_host$', 0), ON, /page’s own host and port/],
    ['$request_host$ with port 443', zone('$request_host$', 443), ON, /scheme’s own port/],
    ['$request_host$ on the console’s port', zone('$request_host$', 3001), ON, /console’s port/],
    ['a host on the console’s port', zone('sessions.example.com', 3001), ON, /console’s port/],
    ['PUBLIC_URL’s host, port 0', zone('desk.example.com', 0), PUBLIC, /PUBLIC_URL/],
    ['PUBLIC_URL’s host, port 443', zone('desk.example.com', 443), PUBLIC, /PUBLIC_URL/],
  ])('refuses %s, naming why and where sessions belong', (_, given, on, reason) => {
    const said = zoneOnConsoleOrigin(given, on);
    expect(said).toMatch(reason);
    expect(said).toMatch(/proxy_port 3003 \(SESSION_PORT\)/);
  });

  it.each([
    ['$request_host$ on the sessions port', zone('$request_host$', 3003), ON],
    ['a sessions host name, port 0', zone('sessions.example.com', 0), PUBLIC],
    ['a sessions host name, port 443', zone('sessions.example.com', 443), PUBLIC],
    ['PUBLIC_URL’s host on another port', zone('desk.example.com', 8443), PUBLIC],
  ])('accepts %s', (_, given, on) => {
    expect(zoneOnConsoleOrigin(given, on)).toBeNull();
  });

  it('refuses nothing with one listener (SESSION_PORT 0)', () => {
    expect(zoneOnConsoleOrigin(zone('$request_host$', 0), { ...ON, sessionPort: 0 })).toBeNull();
  });
});
