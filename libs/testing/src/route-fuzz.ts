import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { CatalogRoute } from '@platform/http';
import {
  caseArbitrary,
  fixedCases,
  type CaseLimits,
  type FuzzCase,
  type FuzzRequest,
} from './fuzz-cases';
import { unboundedInputs, type JsonSchema } from './json-schema';

export type { FuzzCase, FuzzRequest } from './fuzz-cases';

export interface FuzzOptions extends CaseLimits {
  app: FastifyInstance;
  /** Credentials and whatever else a route needs to get past authentication. */
  prepare: (route: CatalogRoute, request: FuzzRequest) => FuzzRequest;
  /** A cheap fingerprint of the database; equal before and after every rejected request. */
  snapshot: () => Promise<unknown>;
  seed: number;
  runsPerRoute: number;
  /** A single request taking longer than this is a hang (a minute by default: generous for a loaded machine running three suites beside a CPU hog). */
  timeoutMs?: number;
  /** What the app does to a parsed body before validating it (e.g. `null` → `{}`). */
  normalizeBody?: (body: unknown) => unknown;
}

export interface RouteReport {
  route: string;
  cases: number;
  byKind: Record<string, number>;
  byStatus: Record<string, number>;
}

const PROBLEM_FIELDS = ['type', 'title', 'status', 'detail', 'code', 'error_message'];

/** The routes a client can call: those with a documented schema, without wildcards. */
export function fuzzableRoutes(app: FastifyInstance): CatalogRoute[] {
  return app
    .routeCatalog()
    .filter((r) => !(r.schema as JsonSchema).hide && !r.url.includes('*') && r.method !== 'HEAD');
}

/** Every request string, array or number of the app that has no bound, as "METHOD url part.path". */
export function unboundedRouteInputs(app: FastifyInstance): string[] {
  return fuzzableRoutes(app).flatMap((route) =>
    (['body', 'querystring', 'params', 'headers'] as const).flatMap((part) => {
      const schema = route.schema[part] as JsonSchema | undefined;
      return schema
        ? unboundedInputs(schema, part).map((p) => `${route.method} ${route.url} ${p}`)
        : [];
    }),
  );
}
function inject(
  app: FastifyInstance,
  request: FuzzRequest,
  timeoutMs: number,
): Promise<LightMyRequestResponse> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `${request.method} ${request.url}: no answer within ${timeoutMs} ms (a hang)\nrequest: ${JSON.stringify(request).slice(0, 600)}`,
          ),
        ),
      timeoutMs,
    );
  });
  return Promise.race([app.inject(request as InjectOptions), timeout]).finally(() =>
    clearTimeout(timer),
  );
}

/** Why a response is wrong for the case, or null when it is right. */
export function responseProblem(
  fuzzCase: FuzzCase,
  response: LightMyRequestResponse,
): string | null {
  const status = response.statusCode;
  if (status >= 500) return `answered ${status}: ${response.body.slice(0, 300)}`;
  if (fuzzCase.mustReject && (status < 400 || status >= 500))
    return `accepted a request that is wrong (${status})`;
  if (status >= 400) {
    if (!/^application\/problem\+json/.test(String(response.headers['content-type']))) {
      return `answered ${status} as ${response.headers['content-type']}, not problem+json`;
    }
    const body = response.json() as Record<string, unknown>;
    const missing = PROBLEM_FIELDS.filter((f) => !(f in body));
    if (missing.length > 0 || body.status !== status)
      return `answered a malformed problem: ${response.body.slice(0, 300)}`;
  }
  return null;
}

/**
 * Sends each route its fixed cases and `runsPerRoute` random ones, asserting: never a 5xx,
 * never a hang, a 4xx problem+json for every request that is certainly wrong, and no change
 * to the database from any rejected request. Answers what it tried, per route.
 */
export async function fuzzRoutes(
  routes: CatalogRoute[],
  options: FuzzOptions,
): Promise<RouteReport[]> {
  const reports: RouteReport[] = [];
  const timeoutMs = options.timeoutMs ?? 60_000;
  let before = await options.snapshot();

  for (const route of routes) {
    const report: RouteReport = {
      route: `${route.method} ${route.url}`,
      cases: 0,
      byKind: {},
      byStatus: {},
    };
    reports.push(report);
    const check = async (fuzzCase: FuzzCase) => {
      const request = options.prepare(route, fuzzCase.request);
      const response = await inject(options.app, request, timeoutMs);
      report.cases += 1;
      const kind = fuzzCase.kind.replace(/ \d+$/, '');
      report.byKind[kind] = (report.byKind[kind] ?? 0) + 1;
      report.byStatus[response.statusCode] = (report.byStatus[response.statusCode] ?? 0) + 1;
      const problem = responseProblem(fuzzCase, response);
      if (problem)
        throw new Error(
          `${report.route} (${fuzzCase.kind}) ${problem}\nrequest: ${JSON.stringify(request).slice(0, 600)}`,
        );
      if (
        ({} as Record<string, unknown>).admin !== undefined ||
        ({} as Record<string, unknown>).polluted !== undefined
      ) {
        throw new Error(`${report.route} (${fuzzCase.kind}) polluted Object.prototype`);
      }
      const after = await options.snapshot();
      if (response.statusCode >= 400) {
        if (JSON.stringify(after) !== JSON.stringify(before)) {
          throw new Error(
            `${report.route} (${fuzzCase.kind}) was refused with ${response.statusCode} but changed the database`,
          );
        }
      }
      before = after;
    };
    for (const fuzzCase of fixedCases(route, options)) await check(fuzzCase);
    await fc
      .assert(fc.asyncProperty(caseArbitrary(route, options.normalizeBody), check), {
        seed: options.seed,
        numRuns: options.runsPerRoute,
        endOnFailure: true,
      })
      .catch((error: Error & { cause?: Error }) => {
        // What went wrong first, then fast-check's report (seed and path to replay it).
        throw new Error(`${error.cause?.message ?? ''}\n${error.message}`);
      });
  }
  return reports;
}

/** The figures to quote: one line per route and a total. */
export function formatReports(
  reports: RouteReport[],
  settings: { seed: number; runsPerRoute: number },
): string {
  const width = Math.max(...reports.map((r) => r.route.length));
  const lines = reports.map((r) => {
    const statuses = Object.entries(r.byStatus)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
    return `  ${r.route.padEnd(width)}  ${String(r.cases).padStart(4)} cases  ${statuses}`;
  });
  const total = reports.reduce((n, r) => n + r.cases, 0);
  const kinds: Record<string, number> = {};
  for (const r of reports)
    for (const [k, n] of Object.entries(r.byKind)) kinds[k] = (kinds[k] ?? 0) + n;
  return [
    `property tests: seed ${settings.seed}, ${settings.runsPerRoute} random cases per endpoint plus fixed ones`,
    ...lines,
    `  total: ${total} requests on ${reports.length} endpoints`,
    `  by kind: ${Object.entries(kinds)
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
  ].join('\n');
}

/** FC_SEED (default 42) and FC_RUNS: the CI's fixed run, or a longer one on purpose. */
export function fuzzSettings(defaultRuns: number) {
  return {
    seed: Number(process.env.FC_SEED ?? 42),
    runsPerRoute: Number(process.env.FC_RUNS ?? defaultRuns),
  };
}
