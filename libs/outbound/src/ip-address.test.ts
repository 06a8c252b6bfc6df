import {
  cidrContains,
  classifyIp,
  embeddedIpv4,
  formatIp,
  parseCidr,
  parseIp,
  type AddressKind,
  type IpAddress,
} from './ip-address';

const ip = (text: string): IpAddress => {
  const parsed = parseIp(text);
  if (!parsed) throw new Error(`test address ${text} does not parse`);
  return parsed;
};
const kind = (text: string) => classifyIp(ip(text));

describe('parseIp', () => {
  it.each([
    ['0.0.0.0', 4, [0, 0, 0, 0]],
    ['255.255.255.255', 4, [255, 255, 255, 255]],
    ['192.168.1.20', 4, [192, 168, 1, 20]],
    ['::', 6, Array(16).fill(0)],
    ['::1', 6, [...Array(15).fill(0), 1]],
    ['[::1]', 6, [...Array(15).fill(0), 1]],
    ['fe80::1%eth0', 6, [0xfe, 0x80, ...Array(13).fill(0), 1]],
    ['::ffff:127.0.0.1', 6, [...Array(10).fill(0), 0xff, 0xff, 127, 0, 0, 1]],
    ['::ffff:7f00:1', 6, [...Array(10).fill(0), 0xff, 0xff, 127, 0, 0, 1]],
    ['2001:DB8:0:0:0:0:0:1', 6, [0x20, 0x01, 0x0d, 0xb8, ...Array(11).fill(0), 1]],
    ['1:2:3:4:5:6:7:8', 6, [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]],
    ['1::', 6, [0, 1, ...Array(14).fill(0)]],
  ])('reads %s', (text, family, bytes) => {
    expect(parseIp(text)).toEqual({ family, bytes });
  });

  it.each([
    '',
    'localhost',
    '256.0.0.1',
    '1.2.3',
    '1.2.3.4.5',
    '01.2.3.4',
    '1.2.3.-4',
    '0x7f.0.0.1',
    '2130706433',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '1::2::3',
    ':::1',
    '::ffff:1.2.3',
    '1.2.3.4::',
    'fffff::1',
    'g::1',
    '1:2:3:4:5:6:7::8',
  ])('refuses %p', (text) => {
    expect(parseIp(text)).toBeNull();
  });
});

describe('formatIp', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::', '::'],
    ['::1', '::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:DB8::', '2001:db8::'],
    ['1:0:2:3:4:5:6:7', '1:0:2:3:4:5:6:7'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
  ])('writes %s as %s', (text, formatted) => {
    expect(formatIp(ip(text))).toBe(formatted);
  });
});

describe('classifyIp', () => {
  const cases: [string, AddressKind][] = [
    // IPv4
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.63.255.255', 'public'],
    ['100.64.0.1', 'carrier-grade-nat'],
    ['100.127.255.255', 'carrier-grade-nat'],
    ['100.128.0.0', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'link-local'],
    ['172.15.255.255', 'public'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.0', 'public'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['192.88.99.1', 'reserved'],
    ['192.168.0.1', 'private'],
    ['192.169.0.1', 'public'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.254', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['1.1.1.1', 'public'],
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    // IPv6
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::808:808', 'public'],
    ['64:ff9b:1::1', 'private'],
    ['100::1', 'reserved'],
    ['2001::1', 'reserved'],
    ['2001:db8::1', 'documentation'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['2002:808:808::1', 'public'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['2606:4700:4700::1111', 'public'],
    ['2a00:1450:4001:81b::200e', 'public'],
    ['4000::1', 'reserved'],
    ['1234::1', 'reserved'],
  ];

  it.each(cases)('classifies %s as %s', (text, expected) => {
    expect(kind(text)).toBe(expected);
  });

  it('classifies every address of a range boundary consistently with its neighbours', () => {
    // The last address before and the first after each private IPv4 block.
    expect([kind('9.255.255.255'), kind('11.0.0.0')]).toEqual(['public', 'public']);
    expect([kind('126.255.255.255'), kind('128.0.0.0')]).toEqual(['public', 'public']);
    expect([kind('169.253.255.255'), kind('169.255.0.0')]).toEqual(['public', 'public']);
    expect([kind('192.167.255.255'), kind('192.169.0.0')]).toEqual(['public', 'public']);
    expect([kind('fbff:ffff::1'), kind('fe00::1')]).toEqual(['reserved', 'reserved']);
  });
});

describe('embeddedIpv4', () => {
  it('finds the IPv4 address of mapped, NAT64 and 6to4 forms', () => {
    expect(formatIp(embeddedIpv4(ip('::ffff:192.0.2.1')) as IpAddress)).toBe('192.0.2.1');
    expect(formatIp(embeddedIpv4(ip('64:ff9b::c000:201')) as IpAddress)).toBe('192.0.2.1');
    expect(formatIp(embeddedIpv4(ip('2002:c000:201::')) as IpAddress)).toBe('192.0.2.1');
    expect(embeddedIpv4(ip('2606:4700::1'))).toBeNull();
    expect(embeddedIpv4(ip('1.2.3.4'))).toBeNull();
  });
});

describe('parseCidr and cidrContains', () => {
  it.each([
    ['10.0.0.0/8', '10.200.1.1', true],
    ['10.0.0.0/8', '11.0.0.1', false],
    ['127.0.0.1', '127.0.0.1', true],
    ['127.0.0.1', '127.0.0.2', false],
    ['127.0.0.0/8', '::ffff:127.0.0.9', true],
    ['0.0.0.0/0', '203.0.113.1', true],
    ['0.0.0.0/0', '::1', false],
    ['::1/128', '::1', true],
    ['fd00::/8', 'fd12::1', true],
    ['fd00::/8', 'fc12::1', false],
    ['2001:db8::/33', '2001:db8:7fff::1', true],
    ['2001:db8::/33', '2001:db8:8000::1', false],
  ])('%s contains %s: %s', (range, address, expected) => {
    expect(
      cidrContains(parseCidr(range) as NonNullable<ReturnType<typeof parseCidr>>, ip(address)),
    ).toBe(expected);
  });

  it.each([
    '10.0.0.0/33',
    '::/129',
    '10.0.0.0/',
    '10.0.0.0/8/8',
    'example.org/8',
    '10.0.0.0/-1',
    '',
  ])('refuses %p', (text) => {
    expect(parseCidr(text)).toBeNull();
  });
});
