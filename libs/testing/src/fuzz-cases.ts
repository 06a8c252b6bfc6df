import fc from 'fast-check';
import { validatorCompiler, type CatalogRoute } from '@platform/http';
import type { JsonSchema } from './json-schema';
import {
  applyMutation,
  DEEP_MARKER,
  hasRawPlaceholders,
  mutationArbitrary,
  serialize,
  type Mutation,
} from './mutations';
import { valueOf } from './schema-arbitrary';

type Part = 'body' | 'querystring' | 'params' | 'headers';

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

export interface FuzzCase {
  /** What was done to the request: "valid", "body wrong-type", "malformed-json", ... */
  kind: string;
  request: FuzzRequest;
  /** The request is certainly wrong: anything but a 4xx is a failure. */
  mustReject: boolean;
}

export const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface CaseLimits {
  bodyLimitBytes: number;
  maxParamLength: number;
}

function validator(route: CatalogRoute, part: Part) {
  const schema = route.schema[part];
  if (!schema) return null;
  const validate = validatorCompiler({
    schema,
    httpPart: part,
    method: route.method,
    url: route.url,
  } as never);
  // ajv removes and fills fields in place: judge a copy.
  return (value: unknown) =>
    Boolean(validate(value === undefined ? value : JSON.parse(JSON.stringify(value))));
}

const asText = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);

function queryString(query: unknown): string {
  if (typeof query !== 'object' || query === null || Array.isArray(query)) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, asText(v));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** What the server sees of a query string: text values, repeated keys as arrays. */
function parsedQuery(query: unknown): Record<string, string | string[]> {
  const parsed: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(queryString(query).slice(1))) {
    const existing = parsed[key];
    parsed[key] = existing === undefined ? value : [existing, value].flat();
  }
  return parsed;
}

function pathOf(
  route: CatalogRoute,
  params: unknown,
): { url: string; values: Record<string, string> } {
  const values: Record<string, string> = {};
  const given = (typeof params === 'object' && params !== null ? params : {}) as Record<
    string,
    unknown
  >;
  const url = route.url.replace(/:(\w+)/g, (_m, name: string) => {
    // As UTF-8 bytes: lone surrogates arrive as U+FFFD, as they would from any client.
    values[name] = Buffer.from(asText(given[name] ?? 'x'), 'utf8').toString('utf8');
    return encodeURIComponent(values[name]);
  });
  return { url, values };
}

const headerSafe = (value: unknown) =>
  asText(value)
    .replace(/[^\x20-\x7e]/g, '?')
    .slice(0, 4000);

interface Parts {
  body: unknown;
  querystring: unknown;
  params: unknown;
  headers: unknown;
}

type Normalize = (body: unknown) => unknown;

function buildCase(
  route: CatalogRoute,
  parts: Parts,
  kind: string,
  normalize: Normalize,
): FuzzCase {
  const { url, values } = pathOf(route, parts.params);
  const headers: Record<string, string> = {};
  if (typeof parts.headers === 'object' && parts.headers !== null) {
    for (const [k, v] of Object.entries(parts.headers))
      if (v !== undefined) headers[k] = headerSafe(v);
  }
  const hasBody = BODY_METHODS.has(route.method) && parts.body !== undefined;
  if (hasBody) headers['content-type'] = 'application/json';
  const raw = hasRawPlaceholders(parts.body);
  // The validator judges what a JSON parser would hand it: a deep object where the marker is.
  const judged = normalize(
    JSON.parse(
      JSON.stringify(parts.body ?? null)
        .split(JSON.stringify(DEEP_MARKER))
        .join('{"a":{"a":1}}'),
    ),
  );
  const verdicts = {
    body: !hasBody || (validator(route, 'body')?.(judged) ?? true),
    querystring: validator(route, 'querystring')?.(parsedQuery(parts.querystring)) ?? true,
    params: validator(route, 'params')?.(values) ?? true,
    headers: validator(route, 'headers')?.(headers) ?? true,
  };
  const invalid = Object.values(verdicts).includes(false);
  return {
    kind,
    request: {
      method: route.method,
      url: url + queryString(parts.querystring),
      headers,
      payload: hasBody ? serialize(parts.body) : undefined,
    },
    mustReject: invalid || (hasBody && raw.proto),
  };
}

const PARTS: Part[] = ['body', 'querystring', 'params', 'headers'];

const shrink = (value: unknown): unknown =>
  typeof value === 'string'
    ? value.slice(0, 2000)
    : Array.isArray(value)
      ? value.slice(0, 100)
      : value;

/** Random cases for one route: a value for each part, then perhaps one mutation of one part. */
export function caseArbitrary(
  route: CatalogRoute,
  normalize: Normalize = (body) => body,
): fc.Arbitrary<FuzzCase> {
  const schemaOf = (part: Part) => route.schema[part] as JsonSchema | undefined;
  const base = fc.record({
    body: schemaOf('body') ? valueOf(schemaOf('body') as JsonSchema) : fc.constant(undefined),
    querystring: schemaOf('querystring')
      ? valueOf(schemaOf('querystring') as JsonSchema)
      : fc.constant(undefined),
    params: schemaOf('params') ? valueOf(schemaOf('params') as JsonSchema) : fc.constant(undefined),
    headers: schemaOf('headers')
      ? valueOf(schemaOf('headers') as JsonSchema)
      : fc.constant(undefined),
  });
  const mutable = PARTS.filter(
    (p) => schemaOf(p) || (p === 'body' && BODY_METHODS.has(route.method)),
  );
  const mutation = fc.option(
    fc.tuple(fc.constantFrom(...(mutable.length ? mutable : PARTS)), mutationArbitrary),
    {
      freq: 4,
    },
  );
  return fc.tuple(base, mutation).map(([parts, change]) => {
    if (!change) return buildCase(route, parts, 'valid', normalize);
    const [part, mutation]: [Part, Mutation] = change;
    // A URL or a header holds 16 KB at most on a real server: there, huge means a few KB.
    const m = part === 'body' ? mutation : { ...mutation, value: shrink(mutation.value) };
    const mutated = { ...parts, [part]: applyMutation(parts[part] ?? {}, m) };
    return buildCase(route, mutated, `${part} ${m.kind}`, normalize);
  });
}

/** Requests every route gets once: framing errors a schema-driven value cannot express. */
export function fixedCases(route: CatalogRoute, options: CaseLimits): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const { url } = pathOf(route, {});
  const withBody = (
    kind: string,
    payload: string,
    contentType: string | null,
    mustReject: boolean,
  ) =>
    cases.push({
      kind,
      request: {
        method: route.method,
        url,
        headers: contentType ? { 'content-type': contentType } : {},
        payload,
      },
      mustReject,
    });
  if (BODY_METHODS.has(route.method)) {
    const limit = route.bodyLimit ?? options.bodyLimitBytes;
    withBody(
      'oversized-body',
      JSON.stringify({ pad: 'x'.repeat(limit + 1) }),
      'application/json',
      true,
    );
    for (const [i, text] of [
      '{',
      '{"a":}',
      '[1,2',
      "{'a':1}",
      'nul',
      '{"a":1}}',
      '{"a":1} x',
      '"\\ud800"x',
    ].entries()) {
      withBody(`malformed-json ${i}`, text, 'application/json', true);
    }
    withBody('empty-json-body', '', 'application/json', true);
    withBody('json-with-proto', '{"__proto__":{"admin":true}}', 'application/json', true);
    withBody(
      'json-with-constructor',
      '{"constructor":{"prototype":{"admin":true}}}',
      'application/json',
      true,
    );
    withBody('deep-nesting', serialize({ x: DEEP_MARKER }), 'application/json', false);
    for (const type of [
      'application/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'image/png',
    ]) {
      withBody(`content-type ${type.split(';')[0]}`, '<x/>', type, true);
    }
    withBody('content-type text/plain', 'hello', 'text/plain', false);
    withBody('content-type json utf-16', '{}', 'application/json; charset=utf-16', false);
  }
  const params = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]);
  if (params.length > 0) {
    const odd = [
      '%',
      '%E0%A4%A',
      'x'.repeat(options.maxParamLength + 1),
      '..',
      '%2e%2e%2f',
      '%00',
      '%20',
      '%F0%9F%8E%89',
      '-1',
      '1e3',
    ];
    for (const [i, value] of odd.entries()) {
      const oddUrl = route.url.replace(/:(\w+)/g, () => value);
      // Bad encoding and over-long parameters are certainly wrong; the others depend on the schema.
      cases.push({
        kind: `odd-path-param ${i}`,
        request: { method: route.method, url: oddUrl, headers: {} },
        mustReject: i < 3,
      });
    }
  }
  cases.push({
    kind: 'query junk',
    request: { method: route.method, url: `${url}?a=%&b[]=1&c=${'q'.repeat(5000)}`, headers: {} },
    mustReject: false,
  });
  return cases;
}
