import type { FastifyInstance } from 'fastify';
import { sendOverWire, stillServing, type WireRequest } from './wire';

/** Bodies of every kind, sent to every route whatever its method or documented body. */
export function bodyKinds(
  bodyLimitBytes: number,
): { kind: string; headers: Record<string, string>; payload: string | Buffer }[] {
  const json = { 'content-type': 'application/json' };
  return [
    { kind: 'json object', headers: json, payload: '{"a":1,"b":{"c":[1,"x"]}}' },
    { kind: 'json array', headers: json, payload: '[1,{"a":[2,3]},"x"]' },
    {
      kind: 'deeply nested json',
      headers: json,
      payload: `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`,
    },
    {
      kind: 'deeply nested array',
      headers: json,
      payload: `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
    },
    {
      kind: 'huge string',
      headers: json,
      payload: JSON.stringify({ a: 'x'.repeat(bodyLimitBytes + 1) }),
    },
    { kind: 'malformed json', headers: json, payload: '{"a":[1,' },
    { kind: 'json with __proto__', headers: json, payload: '{"__proto__":{"polluted":true}}' },
    { kind: 'text/plain', headers: { 'content-type': 'text/plain' }, payload: 'hello\u0000' },
    {
      kind: 'form',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `a=1&a=2&b=%00&${'c[d]'.repeat(50)}=1`,
    },
    {
      kind: 'octet-stream',
      headers: { 'content-type': 'application/octet-stream' },
      payload: Buffer.from([0, 0xff, 0xed, 0xa0, 0x80, 0x7b]),
    },
  ];
}

/** A concrete path for a route: each parameter and wildcard filled in. */
export const concretePath = (url: string) =>
  url.replace(/:\w+/g, 'abcdefabcdefabcdefabcdefabcdefab').replace(/\*/g, 'a/b');

/**
 * Sends every kind of body to every route the app registered (wildcards, the session proxy, web
 * pages and health routes included) over a real connection to `origin`; answers each request
 * answered with a 5xx, and fails as soon as the service stops answering `/health/live`.
 */
export async function bodiesToEveryRoute(
  app: FastifyInstance,
  origin: string,
  { bodyLimitBytes, headers = {} }: { bodyLimitBytes: number; headers?: Record<string, string> },
): Promise<{ sent: number; routes: number; failures: string[] }> {
  const routes = new Map<string, { method: string; url: string }>();
  for (const route of app.routeCatalog())
    routes.set(`${route.method} ${route.url}`, { method: route.method, url: route.url });
  const failures: string[] = [];
  let sent = 0;
  for (const { method, url } of routes.values()) {
    for (const body of bodyKinds(bodyLimitBytes)) {
      const request: WireRequest = {
        method,
        url: concretePath(url),
        headers: { ...headers, ...body.headers },
        payload: body.payload,
      };
      const res = await sendOverWire(origin, request);
      sent += 1;
      if (res.statusCode >= 500)
        failures.push(`${method} ${url} ${body.kind}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    if (!(await stillServing(origin))) throw new Error(`stopped serving after ${method} ${url}`);
  }
  return { sent, routes: routes.size, failures };
}
