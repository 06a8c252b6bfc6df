import type { FastifyInstance, InjectOptions } from 'fastify';
import type { CatalogRoute } from '@platform/http';
import { BODY_METHODS, type FuzzRequest } from './fuzz-cases';

/** Text no request may carry: NUL, and unpaired UTF-16 surrogates (no character at all). */
export const BAD_TEXTS: readonly { name: string; text: string; bytes: Buffer }[] = [
  { name: 'NUL', text: 'a\u0000b', bytes: Buffer.from([0x61, 0x00, 0x62]) },
  // As UTF-8 the surrogate has no encoding: its CESU-style bytes are what a client can send.
  { name: 'lone high surrogate', text: 'a\ud800b', bytes: Buffer.from([0x61, 0xed, 0xa0, 0x80]) },
  { name: 'lone low surrogate', text: '\udc00', bytes: Buffer.from([0xed, 0xb0, 0x80]) },
];

export interface BadTextCase {
  /** "POST /api/public/get_users body NUL" */
  name: string;
  /** The source the bad text arrives through. */
  source: 'body' | 'header' | 'basic' | 'query' | 'path';
  request: FuzzRequest;
  /**
   * Must be refused with 400. Otherwise only a 4xx is required: a static path with bad text is
   * simply no route (404), and percent-encoded surrogates have no decoding that holds them.
   */
  expect400: boolean;
}

const withParams = (url: string, value: string) =>
  url.replace(/:[^/]+/g, encodeURIComponent(value));

/**
 * For each route of the catalogue, a request carrying each bad text through each source: the
 * body (a credential field and a field of the route's own), each header a client sets
 * (credentials, authorization), Basic credentials, the query string and the path.
 */
export function badTextCases(route: CatalogRoute, headerNames: readonly string[]): BadTextCase[] {
  const cases: BadTextCase[] = [];
  const base = { method: route.method, url: withParams(route.url, 'x'), headers: {} };
  const hasBody = BODY_METHODS.has(route.method);
  const hasParams = route.url.includes(':');
  const add = (
    source: BadTextCase['source'],
    bad: string,
    request: FuzzRequest,
    expect400 = true,
  ) =>
    cases.push({
      name: `${route.method} ${route.url} ${source} ${bad}`,
      source,
      request,
      expect400,
    });
  for (const { name, text, bytes } of BAD_TEXTS) {
    if (hasBody) {
      for (const body of [
        { api_key: text, api_key_secret: 's' },
        { name: text, value: [text] },
      ]) {
        add('body', name, {
          ...base,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
      }
    }
    for (const header of headerNames)
      add('header', `${header} ${name}`, { ...base, headers: { [header]: text } });
    add('header', `authorization Bearer ${name}`, {
      ...base,
      headers: { authorization: `Bearer ${text}` },
    });
    const basic = Buffer.concat([Buffer.from('key'), bytes, Buffer.from(':secret')]);
    add('basic', name, {
      ...base,
      headers: { authorization: `Basic ${basic.toString('base64')}` },
    });
    const encoded = [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    add('query', name, { ...base, url: `${base.url}?q=${encoded}` }, name === 'NUL');
    add(
      'path',
      name,
      {
        ...base,
        url: hasParams ? route.url.replace(/:[^/]+/g, encoded) : `${route.url}${encoded}`,
      },
      hasParams && name === 'NUL',
    );
  }
  return cases;
}

/**
 * Sends every case to the app; answers each failure as "case → status code": a case that must be
 * refused and was not (400), or any case answered with a 5xx or without a problem body.
 */
export async function badTextFailures(
  app: FastifyInstance,
  cases: readonly BadTextCase[],
  prepare: (request: FuzzRequest) => FuzzRequest,
): Promise<string[]> {
  const failures: string[] = [];
  for (const c of cases) {
    const res = await app.inject(prepare(c.request) as InjectOptions);
    const refused = c.expect400 ? res.statusCode === 400 : res.statusCode < 500;
    const problem =
      res.statusCode < 400 || res.headers['content-type']?.toString().includes('problem+json');
    if (!refused || !problem)
      failures.push(`${c.name} → ${res.statusCode} ${res.payload.slice(0, 120)}`);
  }
  return failures;
}
