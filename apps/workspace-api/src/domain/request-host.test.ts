import { parseRequestHost } from './request-host';

describe('parseRequestHost', () => {
  it('takes a host name, IPv4 or bracketed IPv6 literal, lower-cased, with its port apart', () => {
    expect(parseRequestHost('localhost')).toEqual({ hostname: 'localhost', port: '' });
    expect(parseRequestHost('Desk.Example.COM:8443')).toEqual({
      hostname: 'desk.example.com',
      port: '8443',
    });
    expect(parseRequestHost('127.0.0.1:3001')).toEqual({ hostname: '127.0.0.1', port: '3001' });
    expect(parseRequestHost('[::1]:3001')).toEqual({ hostname: '[::1]', port: '3001' });
    expect(parseRequestHost('[fe80::1]')).toEqual({ hostname: '[fe80::1]', port: '' });
    expect(parseRequestHost('a:1')).toEqual({ hostname: 'a', port: '1' });
    expect(parseRequestHost('a:65535')).toEqual({ hostname: 'a', port: '65535' });
  });

  it.each([
    [undefined],
    [''],
    [':3001'],
    ['host:'],
    ['host:0'],
    ['host:65536'],
    ['host:123456'],
    ['host:80:80'],
    ['host:http'],
    ['-host'],
    ['host-'],
    ['ho st'],
    ['host/path'],
    ['user@host'],
    ['host?x=1'],
    ['host#x'],
    ['$(reboot)'],
    ['host;reboot'],
    ['"host"'],
    ['::1'],
    ['[::1]:'],
    ['[::1]x'],
    ['[::1'],
    ['[evil.example]'],
    ['[::1]]'],
    [`${'a'.repeat(256)}`],
    [`${'a'.repeat(301)}`],
  ])('refuses %p', (raw) => {
    expect(parseRequestHost(raw)).toBeNull();
  });
});
