import type { FastifyRequest } from 'fastify';
import { RequestHostInvalidError } from '../errors';

/** Kasm's `proxy_hostname` placeholder: session URLs use the host the person's request came to. */
export const REQUEST_HOST = '$request_host$';

/** A request's host as it may go into a session URL: a name or IP literal, and its port if any. */
export interface RequestHost {
  hostname: string;
  port: string;
}

const NAME = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;
const PORT = /^[0-9]{1,5}$/;

/**
 * The Host (or trusted X-Forwarded-Host) of a request, checked before it goes into a URL that a
 * browser follows and, through $KASM_URL, a container's environment: a DNS name, IPv4 or a
 * bracketed IPv6 literal, with an optional port 1–65535. Anything else is null.
 */
export function parseRequestHost(raw: string | undefined): RequestHost | null {
  if (!raw || raw.length > 300) return null;
  const match = /^(\[[^\]]*\]|[^:[\]]*)(?::([^:]*))?$/.exec(raw.toLowerCase());
  if (!match) return null;
  const [, hostname, port = ''] = match;
  const named = NAME.test(hostname) && hostname.length <= 255;
  if (!named && !IPV6.test(hostname)) return null;
  if (match[2] !== undefined && (!PORT.test(port) || Number(port) < 1 || Number(port) > 65535))
    return null;
  return { hostname, port };
}

/** The host a request came to (`request.host` believes X-Forwarded-Host only from TRUST_PROXY peers). */
export function requestHostOf(request: FastifyRequest): RequestHost {
  const host = parseRequestHost(request.host);
  if (!host) throw new RequestHostInvalidError();
  return host;
}
