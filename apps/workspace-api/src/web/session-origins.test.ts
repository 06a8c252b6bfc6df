import { sessionOrigins } from './session-origins';

const zone = (proxyHostname: string, proxyPort: number, proxyPath = '/') => ({
  proxyHostname,
  proxyPort,
  proxyPath,
});
const at = (hostname: string, port = '') => ({ hostname, port });

describe('sessionOrigins', () => {
  it('gives each zone’s session origin once, sorted, without its path', () => {
    const zones = [
      zone('desk.example.com', 443, '/desk/'),
      zone('eu.example.com', 8443),
      zone('desk.example.com', 0),
    ];
    expect(sessionOrigins(zones, 'https', at('platform.example.com'))).toEqual([
      'https://desk.example.com',
      'https://eu.example.com:8443',
    ]);
  });

  it('places a $request_host$ zone on the request’s host (and port, with proxy_port 0)', () => {
    const zones = [zone('$request_host$', 0), zone('$request_host$', 6443)];
    expect(sessionOrigins(zones, 'http', at('127.0.0.1', '3001'))).toEqual([
      'http://127.0.0.1:3001',
      'http://127.0.0.1:6443',
    ]);
  });

  it('leaves $request_host$ zones out when the request’s host is not valid', () => {
    const zones = [zone('$request_host$', 0), zone('desk.example.com', 80)];
    expect(sessionOrigins(zones, 'https', null)).toEqual(['http://desk.example.com']);
  });

  it('drops default ports the way browsers compare origins', () => {
    expect(sessionOrigins([zone('$request_host$', 0)], 'http', at('box', '80'))).toEqual([
      'http://box',
    ]);
  });
});
