import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { parseIp } from './ip-address';
import type { OutboundPolicy } from './outbound-policy';

export interface OutboundFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Aborts the whole exchange: connection, redirects and the body. */
  signal?: AbortSignal;
}

/** A `fetch` for URLs that came from users or configuration; see `createOutboundFetch`. */
export type OutboundFetch = (url: string, init?: OutboundFetchInit) => Promise<Response>;

export interface ResolvedAddress {
  address: string;
  family: number;
}
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface OutboundFetchOptions {
  policy: OutboundPolicy;
  /** Redirects followed, each checked like the first URL. */
  maxRedirects?: number;
  /** DNS resolution; tests replace it to play a rebinding DNS server. */
  resolve?: Resolver;
}

/** The destination is not allowed by the outbound policy. */
export class OutboundBlockedError extends Error {
  override name = 'OutboundBlockedError';
}

type Hop = OutboundFetchInit & { method: string; headers: Record<string, string> };

const without = (headers: Record<string, string>, names: string[]) =>
  Object.fromEntries(
    Object.entries(headers).filter(([name]) => !names.includes(name.toLowerCase())),
  );

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([204, 205, 304]);
const systemResolve: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * Resolves once, checks every address, and hands exactly the checked addresses to the socket:
 * a DNS server that answers differently the second time (rebinding) gets no second time.
 */
function guardedLookup(policy: OutboundPolicy, resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    const done = callback as (error: Error | null, ...result: unknown[]) => void;
    resolve(hostname).then(
      (found) => {
        const refusal = found.map((a) => policy.refusal(hostname, a.address)).find(Boolean);
        if (refusal) return done(new OutboundBlockedError(refusal));
        const usable = found.filter((a) => !options.family || a.family === options.family);
        if (usable.length === 0) {
          const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
            code: 'ENOTFOUND',
          });
          return done(error);
        }
        if (options.all) return done(null, usable);
        return done(null, usable[0].address, usable[0].family);
      },
      (error: Error) => done(error),
    );
  };
}

function responseOf(res: IncomingMessage, method: string): Response {
  const status = res.statusCode ?? 0;
  if (status < 200 || status > 599) {
    res.destroy();
    throw new Error(`the server answered an invalid status ${status}`);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v !== undefined) headers.append(name, v);
    }
  }
  const body =
    NULL_BODY.has(status) || method === 'HEAD' ? null : (Readable.toWeb(res) as ReadableStream);
  if (!body) res.resume();
  return new Response(body, { status, statusText: res.statusMessage, headers });
}

/**
 * A minimal `fetch` for outbound requests to addresses the service did not choose (webhook and
 * registry URLs): every address a host name resolves to is checked against the policy, the
 * connection goes to a checked address, IP literals are checked too, and redirects are followed
 * manually (at most `maxRedirects`, each hop checked again). One connection per request, so no
 * pooled socket outlives its check. Errors look like fetch's: a TypeError with a `cause`.
 */
export function createOutboundFetch(options: OutboundFetchOptions): OutboundFetch {
  const { policy, maxRedirects = 3, resolve = systemResolve } = options;
  const lookup = guardedLookup(policy, resolve);

  function request(url: URL, init: Hop) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new Error(`${url.protocol} URLs are not fetched`);
    }
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (parseIp(host)) {
      const refusal = policy.refusal(host, host);
      if (refusal) throw new OutboundBlockedError(refusal);
    }
    const client = url.protocol === 'https:' ? https : http;
    const headers = { ...init.headers };
    if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));
    return new Promise<IncomingMessage>((resolvePromise, reject) => {
      const req = client.request(
        url,
        { method: init.method, headers, agent: false, lookup, signal: init.signal },
        resolvePromise,
      );
      req.on('error', reject);
      req.end(init.body);
    });
  }

  return async (input, init = {}) => {
    let url = new URL(input);
    let current: Hop = {
      ...init,
      method: (init.method ?? 'GET').toUpperCase(),
      headers: { ...init.headers },
    };
    try {
      for (let hop = 0; ; hop += 1) {
        const res = await request(url, current);
        const status = res.statusCode ?? 0;
        const location = res.headers.location;
        if (!REDIRECTS.has(status) || location === undefined)
          return responseOf(res, current.method);
        res.destroy();
        if (hop >= maxRedirects) throw new Error(`more than ${maxRedirects} redirects`);
        const next = new URL(location, url);
        if (status === 303 || ((status === 301 || status === 302) && current.method === 'POST')) {
          current = {
            ...current,
            method: 'GET',
            headers: without(current.headers, ['content-type']),
            body: undefined,
          };
        }
        if (next.origin !== url.origin) {
          current = { ...current, headers: without(current.headers, ['authorization', 'cookie']) };
        }
        url = next;
      }
    } catch (error) {
      if (init.signal?.aborted) throw init.signal.reason ?? error;
      throw new TypeError('fetch failed', { cause: error });
    }
  };
}

/** The start of a response body as text, reading at most `maxBytes` (a target may send a lot). */
export async function readTextPrefix(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let received = 0;
  try {
    while (received < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8');
}
