import { onSessionHost, originMatchesHost } from './session-origin';

describe('originMatchesHost', () => {
  it.each([
    ['http://127.0.0.1:3001', '127.0.0.1:3001', true],
    ['https://desk.example.test', 'desk.example.test', true],
    ['https://Desk.Example.test', 'desk.example.TEST', true],
    // Behind a TLS-terminating proxy the service may be reached over http: the host decides.
    ['https://desk.example.test:443', 'desk.example.test', true],
    ['http://127.0.0.1:3002', '127.0.0.1:3001', false],
    ['http://evil.test', 'desk.example.test', false],
    ['http://desk.example.test.evil.test', 'desk.example.test', false],
    ['null', 'desk.example.test', false],
    ['file:///etc', '', false],
    ['chrome-extension://abc', 'abc', false],
    [undefined, 'desk.example.test', false],
    ['http://desk.example.test', undefined, false],
    ['not a url', 'desk.example.test', false],
  ])('Origin %j on host %j: %j', (origin, host, expected) => {
    expect(originMatchesHost(origin, host)).toBe(expected);
  });
});

describe('onSessionHost', () => {
  const url = (host: string) => `https://${host}/kasm/0123456789abcdef0123456789abcdef/`;
  it.each([
    ['desk.example.test', url('desk.example.test'), true],
    ['DESK.example.test', url('desk.example.test:8443'), true],
    ['127.0.0.1', url('127.0.0.1'), true],
    ['[::1]', url('[::1]:3001'), true],
    ['::1', url('[::1]'), true],
    ['sessions.example.test', url('desk.example.test'), false],
    ['desk.example.test', url('sessions.desk.example.test'), false],
    ['localhost', url('127.0.0.1'), false],
  ])('%j for a session at %j: %j', (hostname, sessionUrl, expected) => {
    expect(onSessionHost(hostname, sessionUrl)).toBe(expected);
  });
});
