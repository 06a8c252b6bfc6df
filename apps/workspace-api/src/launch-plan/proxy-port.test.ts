import { proxyOrigin } from './proxy-port';

describe('proxyOrigin', () => {
  it.each(['https', 'http'])(
    'reads 443 as https without a port, whatever the platform (%s)',
    (s) => {
      expect(proxyOrigin(443, s)).toEqual({ scheme: 'https', port: '' });
    },
  );

  it.each(['https', 'http'])('reads 80 as http without a port, whatever the platform (%s)', (s) => {
    expect(proxyOrigin(80, s)).toEqual({ scheme: 'http', port: '' });
  });

  it.each(['https', 'http'])('reads 0 as no port with the platform’s scheme (%s)', (s) => {
    expect(proxyOrigin(0, s)).toEqual({ scheme: s, port: '' });
  });

  it.each([
    [8443, 'https'],
    [8080, 'http'],
    [1, 'https'],
    [65535, 'http'],
    [4443, 'http'],
  ])('writes any other port (%d) out with the platform’s scheme (%s)', (port, s) => {
    expect(proxyOrigin(port, s)).toEqual({ scheme: s, port: `:${port}` });
  });
});
