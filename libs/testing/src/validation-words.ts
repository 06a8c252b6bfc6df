import type { FastifyInstance, InjectOptions } from 'fastify';
import type { CatalogRoute } from '@platform/http';
import { BODY_METHODS, type FuzzRequest } from './fuzz-cases';
import { fuzzableRoutes } from './route-fuzz';
import type { JsonSchema } from './json-schema';

/** Two spaces: blank, not an id, not a date, not a URL, not any enum value. */
const WRONG_TEXT = '  ';

/** A value breaking every rule the schema states that a value of the wrong shape can break. */
export function wrongValue(schema: JsonSchema): unknown {
  const s = schema as Record<string, unknown>;
  if (s.type === 'object' && s.properties) {
    return Object.fromEntries(
      Object.entries(s.properties as Record<string, JsonSchema>).map(([k, v]) => [
        k,
        wrongValue(v),
      ]),
    );
  }
  if (s.type === 'array') return [wrongValue((s.items ?? {}) as JsonSchema)];
  if (s.type === 'integer' || s.type === 'number') return -1.5e15;
  if (s.type === 'boolean') return 'yes';
  return WRONG_TEXT;
}

/**
 * Words that mean a message leaks the schema instead of saying what is expected. A `$` is a
 * regex anchor, except in Kasm's own placeholder `$request_host$`, which users type as it is.
 */
export const JARGON =
  /pattern|must match|constant|anyOf|oneOf|\^|(?<!\$request_host)\$(?!request_host\$)|\\S|must NOT|property '|format "/;

/**
 * For every route with a body or query schema, sends values that break each rule and answers
 * every validation message that speaks schema ("must match pattern", "equal to constant") as
 * "METHOD url field: message". Empty when every message says what is expected in words.
 */
export async function jargonMessages(
  app: FastifyInstance,
  routes: readonly CatalogRoute[],
  prepare: (request: FuzzRequest) => FuzzRequest,
): Promise<{ checked: number; jargon: string[] }> {
  const jargon: string[] = [];
  let checked = 0;
  for (const route of routes) {
    const body = route.schema.body as JsonSchema | undefined;
    const query = route.schema.querystring as JsonSchema | undefined;
    if (!body && !query) continue;
    const params = new URLSearchParams();
    const wrongQuery = query ? (wrongValue(query) as Record<string, unknown>) : {};
    for (const [k, v] of Object.entries(wrongQuery ?? {})) params.append(k, String(v));
    const request: FuzzRequest = {
      method: route.method,
      url: `${route.url.replace(/:[^/]+/g, 'x')}${query ? `?${params}` : ''}`,
      headers: BODY_METHODS.has(route.method) ? { 'content-type': 'application/json' } : {},
      ...(body && BODY_METHODS.has(route.method)
        ? { payload: JSON.stringify(wrongValue(body)) }
        : {}),
    };
    const res = await app.inject(prepare(request) as InjectOptions);
    // A route that accepted the values (an iCalendar feed ignores unknown query fields) has none.
    if (!String(res.headers['content-type']).includes('json')) continue;
    const problems = (res.json() as { errors?: { field: string; message: string }[] }).errors ?? [];
    checked += problems.length;
    for (const p of problems) {
      if (JARGON.test(p.message) || p.message.trim() === '')
        jargon.push(`${route.method} ${route.url} ${p.field}: ${p.message}`);
    }
  }
  return { checked, jargon };
}

/**
 * The test that every route's validation messages say what is expected in words; `headers`
 * authenticate each request, and at least `atLeast` routes must have been checked.
 */
export function itWordsValidationMessages(
  subject: () => { app: FastifyInstance; headers: Record<string, string> },
  atLeast: number,
): void {
  it('say what is expected in words: no regex, no schema keyword, one line per expectation', async () => {
    const { app, headers } = subject();
    const prepare = (request: FuzzRequest): FuzzRequest => ({
      ...request,
      headers: { ...headers, ...request.headers },
    });
    const { checked, jargon } = await jargonMessages(app, fuzzableRoutes(app), prepare);
    expect(jargon).toEqual([]);
    expect(checked).toBeGreaterThan(atLeast);
  }, 60_000);
}
