import ipaddr from 'ipaddr.js';

/** An IP address as bytes: 4 for IPv4, 16 for IPv6. */
export interface IpAddress {
  family: 4 | 6;
  bytes: number[];
}

export type AddressKind =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'carrier-grade-nat'
  | 'unique-local'
  | 'site-local'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'reserved';

const toAddress = (ip: IpAddress) => ipaddr.fromByteArray(ip.bytes);

/** Parses a literal IPv4 or IPv6 address (brackets and zone ids allowed); null when it is none. */
export function parseIp(input: string): IpAddress | null {
  const text = input.trim().replace(/^\[(.*)\]$/, '$1');
  // Only the four-part decimal IPv4 form: no octal, hex, or shortened forms, which resolvers
  // read differently and which could smuggle a private address past a check.
  const valid = text.includes(':')
    ? ipaddr.IPv6.isValid(text)
    : ipaddr.IPv4.isValidFourPartDecimal(text);
  if (!valid) return null;
  const address = ipaddr.parse(text);
  return { family: address.kind() === 'ipv4' ? 4 : 6, bytes: address.toByteArray() };
}

/** The address as written canonically (RFC 5952 for IPv6). */
export function formatIp(ip: IpAddress): string {
  return toAddress(ip).toString();
}

/** True when the first `bits` bits of `ip` equal those of `network` (same family). */
export function inPrefix(ip: IpAddress, network: IpAddress, bits: number): boolean {
  if (ip.family !== network.family) return false;
  return toAddress(ip).match(toAddress(network), bits);
}

type Range = [network: string, bits: number, kind: AddressKind];

// RFC 6890 and the IANA special-purpose registries; first match wins.
const IPV4_RANGES: Range[] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade-nat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'broadcast'],
  ['240.0.0.0', 4, 'reserved'],
];

const IPV6_RANGES: Range[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b:1::', 48, 'private'],
  ['100::', 64, 'reserved'],
  ['2001:db8::', 32, 'documentation'],
  ['2001::', 23, 'reserved'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

const compile = (ranges: Range[]) =>
  ranges.map(([network, bits, kind]) => ({ network: parseIp(network) as IpAddress, bits, kind }));
const V4 = compile(IPV4_RANGES);
const V6 = compile(IPV6_RANGES);

/** IPv6 forms that carry an IPv4 address, which then decides: mapped, NAT64, 6to4, compatible. */
const EMBEDDING: { network: IpAddress; bits: number; offset: number }[] = [
  { network: parseIp('::ffff:0:0') as IpAddress, bits: 96, offset: 12 },
  { network: parseIp('64:ff9b::') as IpAddress, bits: 96, offset: 12 },
  { network: parseIp('::') as IpAddress, bits: 96, offset: 12 },
  { network: parseIp('2002::') as IpAddress, bits: 16, offset: 2 },
];

/** The IPv4 address inside an IPv4-mapped, NAT64, 6to4 or IPv4-compatible IPv6 address. */
export function embeddedIpv4(ip: IpAddress): IpAddress | null {
  if (ip.family !== 6) return null;
  for (const { network, bits, offset } of EMBEDDING) {
    if (inPrefix(ip, network, bits)) {
      return { family: 4, bytes: ip.bytes.slice(offset, offset + 4) };
    }
  }
  return null;
}

/** What kind of address this is; anything not `public` is not reachable on the internet. */
export function classifyIp(ip: IpAddress): AddressKind {
  if (ip.family === 6) {
    const special = V6.find((r) => inPrefix(ip, r.network, r.bits));
    if (special) return special.kind;
    const v4 = embeddedIpv4(ip);
    if (v4) return classifyIp(v4);
    // Global unicast is 2000::/3; the rest of the space is unassigned.
    return (ip.bytes[0] & 0xe0) === 0x20 ? 'public' : 'reserved';
  }
  return V4.find((r) => inPrefix(ip, r.network, r.bits))?.kind ?? 'public';
}

export interface Cidr {
  network: IpAddress;
  bits: number;
}

/** `10.0.0.0/8`, `fd00::/8`, or a single address (its full length). Null when it is neither. */
export function parseCidr(text: string): Cidr | null {
  const [address, bits, ...rest] = text.trim().split('/');
  const network = parseIp(address);
  if (!network || rest.length > 0) return null;
  const max = network.family === 4 ? 32 : 128;
  if (bits === undefined) return { network, bits: max };
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) return null;
  return { network, bits: Number(bits) };
}

/** True when the address is inside the range; an IPv4-mapped IPv6 address counts as its IPv4. */
export function cidrContains(cidr: Cidr, ip: IpAddress): boolean {
  const v4 = ip.family === 6 && inPrefix(ip, EMBEDDING[0].network, 96) ? embeddedIpv4(ip) : null;
  return inPrefix(v4 ?? ip, cidr.network, cidr.bits);
}
