import { cidrContains, classifyIp, parseCidr, parseIp, type Cidr } from './ip-address';

export interface OutboundPolicySettings {
  /** Private, loopback, link-local and other non-public unicast addresses too. */
  allowPrivate: boolean;
  /** Comma-separated CIDRs, addresses and host names that are always allowed. */
  allowlist: string;
}

export interface OutboundPolicy {
  /** Null when a connection to `address` (resolved from `hostname`) may be made; otherwise why not. */
  refusal(hostname: string, address: string): string | null;
}

/** Never a unicast destination (0.0.0.0 even reaches the local host on Linux). */
const NEVER = new Set(['unspecified', 'multicast', 'broadcast']);
const HOSTNAME =
  /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

interface Allowlist {
  cidrs: Cidr[];
  hosts: string[];
}

/** Reads OUTBOUND_ALLOWLIST; throws a readable error on an entry that is neither. */
export function parseAllowlist(text: string): Allowlist {
  const allowlist: Allowlist = { cidrs: [], hosts: [] };
  for (const raw of text.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    const cidr = parseCidr(entry);
    if (cidr) allowlist.cidrs.push(cidr);
    else if (HOSTNAME.test(entry)) allowlist.hosts.push(entry.replace(/\.$/, ''));
    else throw new Error(`"${raw.trim()}" is neither an address, a CIDR range nor a host name`);
  }
  return allowlist;
}

function hostAllowed(hosts: string[], hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return hosts.some((entry) =>
    entry.startsWith('*.') ? host.endsWith(entry.slice(1)) : host === entry,
  );
}

/**
 * Which addresses outbound requests (webhooks, registries) may connect to. By default only
 * public ones: a URL given to the service must not reach its own network, the cloud metadata
 * endpoint (169.254.169.254) or the host itself.
 */
export function createOutboundPolicy(settings: OutboundPolicySettings): OutboundPolicy {
  const { cidrs, hosts } = parseAllowlist(settings.allowlist);
  return {
    refusal(hostname, address) {
      const ip = parseIp(address);
      if (!ip) return `${address} is not an IP address`;
      if (cidrs.some((cidr) => cidrContains(cidr, ip)) || hostAllowed(hosts, hostname)) return null;
      const kind = classifyIp(ip);
      if (kind === 'public') return null;
      if (settings.allowPrivate && !NEVER.has(kind)) return null;
      const shown = hostname === address ? address : `${hostname} (${address})`;
      return `${shown} is a ${kind} address; outbound requests may only reach public addresses unless OUTBOUND_ALLOW_PRIVATE or OUTBOUND_ALLOWLIST allow it`;
    },
  };
}
