import { parseCidr } from '@platform/outbound';

export type TrustProxy = boolean | string[];

const NAMED = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: `false` (default: the peer address is the client), or the addresses and CIDR
 * ranges of the proxies in front of the service, comma-separated (`loopback`, `linklocal` and
 * `uniquelocal` name the usual ranges). X-Forwarded-For is then believed from those peers only.
 * `true` believes it from anyone, which lets every client choose its own address: avoid it.
 */
export function parseTrustProxy(text: string): TrustProxy {
  const value = text.trim().toLowerCase();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.find((entry) => !NAMED.has(entry) && !parseCidr(entry));
  if (bad !== undefined) {
    throw new Error(
      `"${bad}" is not true, false, an address, a CIDR range, loopback, linklocal or uniquelocal`,
    );
  }
  return entries;
}
