import { resolveKasmUrl, sessionUrl } from './session-url';

const zone = (proxyPort: number, proxyPath = '/') => ({
  proxyHostname: 'desk.example.com',
  proxyPath,
  proxyPort,
});

describe('sessionUrl', () => {
  it('leaves the port out when proxy_port is 0 (the browser keeps its own, behind a reverse proxy)', () => {
    expect(sessionUrl(zone(0), 'abc')).toBe('https://desk.example.com/kasm/abc/');
  });

  it('puts a non-zero proxy_port other than 443 and 80 in the URL', () => {
    expect(sessionUrl(zone(8443), 'abc')).toBe('https://desk.example.com:8443/kasm/abc/');
    expect(sessionUrl(zone(1), 'abc')).toBe('https://desk.example.com:1/kasm/abc/');
    expect(sessionUrl(zone(65535), 'abc')).toBe('https://desk.example.com:65535/kasm/abc/');
  });

  it('reads proxy_port 443 as https and 80 as http, neither written in the URL', () => {
    expect(sessionUrl(zone(443), 'abc', 'http')).toBe('https://desk.example.com/kasm/abc/');
    expect(sessionUrl(zone(80), 'abc', 'https')).toBe('http://desk.example.com/kasm/abc/');
  });

  it('uses the platform’s scheme for proxy_port 0 and other ports', () => {
    expect(sessionUrl(zone(0), 'abc', 'http')).toBe('http://desk.example.com/kasm/abc/');
    expect(sessionUrl(zone(8080), 'abc', 'http')).toBe('http://desk.example.com:8080/kasm/abc/');
  });

  it('puts the session under proxy_path, with or without its trailing slash', () => {
    expect(sessionUrl(zone(0, '/desktop'), 'abc')).toBe(
      'https://desk.example.com/desktop/kasm/abc/',
    );
    expect(sessionUrl(zone(0, '/desktop/'), 'abc')).toBe(
      'https://desk.example.com/desktop/kasm/abc/',
    );
    expect(sessionUrl(zone(8443, '/a/b//'), 'abc')).toBe(
      'https://desk.example.com:8443/a/b/kasm/abc/',
    );
  });
});

describe('resolveKasmUrl', () => {
  const url = 'https://desk.example.com/kasm/abc/';

  it('replaces $KASM_URL and ${KASM_URL}, every occurrence', () => {
    expect(resolveKasmUrl('open "$KASM_URL" and ${KASM_URL}; again $KASM_URL', url)).toBe(
      `open "${url}" and ${url}; again ${url}`,
    );
  });

  it('replaces the variable when punctuation or the end of the text follows it', () => {
    expect(resolveKasmUrl('$KASM_URL/x $KASM_URL', url)).toBe(`${url}/x ${url}`);
  });

  it('leaves other variables alone, also ones that start with KASM_URL', () => {
    expect(resolveKasmUrl('$KASM_URL_EXTRA $KASM_URLS ${KASM_URL_X} $HOME KASM_URL', url)).toBe(
      '$KASM_URL_EXTRA $KASM_URLS ${KASM_URL_X} $HOME KASM_URL',
    );
  });

  it('walks objects and arrays and leaves non-strings as they are', () => {
    const config = {
      go: { cmd: 'bash -c "xdg-open $KASM_URL"' },
      assign: { cmd: 'echo assigned' },
      environment: { URL: '${KASM_URL}', RETRIES: 3, DEBUG: false, NONE: null },
      first_launch: ['$KASM_URL', 1],
    };
    expect(resolveKasmUrl(config, url)).toEqual({
      go: { cmd: `bash -c "xdg-open ${url}"` },
      assign: { cmd: 'echo assigned' },
      environment: { URL: url, RETRIES: 3, DEBUG: false, NONE: null },
      first_launch: [url, 1],
    });
  });

  it('does not change the object it is given', () => {
    const config = { go: { cmd: '$KASM_URL' } };
    resolveKasmUrl(config, url);
    expect(config.go.cmd).toBe('$KASM_URL');
  });
});

describe('sessionUrl with proxy_hostname $request_host$', () => {
  const requestZone = (proxyPort: number, proxyPath = '/') => ({
    proxyHostname: '$request_host$',
    proxyPath,
    proxyPort,
  });
  const at = (hostname: string, port = '') => ({ hostname, port });

  it('uses the request’s host and, with proxy_port 0, its port: the origin the person is on', () => {
    expect(sessionUrl(requestZone(0), 'abc', 'http', at('127.0.0.1', '3001'))).toBe(
      'http://127.0.0.1:3001/kasm/abc/',
    );
    expect(sessionUrl(requestZone(0), 'abc', 'https', at('desk.example.com'))).toBe(
      'https://desk.example.com/kasm/abc/',
    );
    expect(sessionUrl(requestZone(0), 'abc', 'http', at('[::1]', '8080'))).toBe(
      'http://[::1]:8080/kasm/abc/',
    );
  });

  it('keeps an explicit proxy_port (and the scheme 443 and 80 fix) over the request’s port', () => {
    expect(sessionUrl(requestZone(8443), 'abc', 'https', at('10.0.0.5', '3001'))).toBe(
      'https://10.0.0.5:8443/kasm/abc/',
    );
    expect(sessionUrl(requestZone(443, '/desk/'), 'abc', 'http', at('box', '3001'))).toBe(
      'https://box/desk/kasm/abc/',
    );
  });

  it('falls back to localhost where no request names a host', () => {
    expect(sessionUrl(requestZone(3001), 'abc', 'http')).toBe('http://localhost:3001/kasm/abc/');
  });

  it('leaves zones with a host of their own on that host, whatever the request’s', () => {
    expect(sessionUrl(zone(0), 'abc', 'https', at('127.0.0.1', '3001'))).toBe(
      'https://desk.example.com/kasm/abc/',
    );
  });
});
