import { embeddedIpv4, formatIp, parseIp } from '@platform/outbound';

/**
 * Whom a request is counted against: its IPv4 address, or the /64 network of an IPv6 address
 * (one subscriber usually holds a whole /64, so counting single addresses would count nothing).
 */
export function clientKey(address: string): string {
  const ip = parseIp(address);
  if (!ip) return address;
  if (ip.family === 4) return formatIp(ip);
  const mapped = address.toLowerCase().includes('::ffff:') ? embeddedIpv4(ip) : null;
  if (mapped) return formatIp(mapped);
  return `${formatIp({ family: 6, bytes: [...ip.bytes.slice(0, 8), ...Array<number>(8).fill(0)] })}/64`;
}
