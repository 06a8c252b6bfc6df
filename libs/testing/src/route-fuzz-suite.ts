import type { FastifyInstance } from 'fastify';
import {
  formatReports,
  fuzzableRoutes,
  fuzzRoutes,
  fuzzSettings,
  unboundedRouteInputs,
  type FuzzOptions,
} from './route-fuzz';

/** What a service's test harness holds: the app, its database's snapshot, its body limit. */
export interface FuzzHarness {
  app: FastifyInstance;
  database: { snapshot: () => Promise<unknown> };
  config: { BODY_LIMIT_BYTES: number };
}

export interface FuzzSuite extends Pick<
  FuzzOptions,
  'prepare' | 'maxParamLength' | 'normalizeBody'
> {
  /** Names the report line. */
  service: string;
  /** Cases per route unless FC_RUNS says otherwise. */
  runsPerRoute: number;
  /** How many routes must have been fuzzed. */
  atLeastRoutes: number;
}

/**
 * A run's limit: no measure of speed. Its work is fixed (runsPerRoute cases on every route, a
 * database snapshot around each refusal); workspace-api's took 76-133 s in CI on one machine and
 * went past 300 s on a slower one with both cores busy. A request that hangs is caught by the
 * run's own per-request limit, not by this.
 */
const FUZZ_LIMIT_MS = 20 * 60_000;

/**
 * The property tests every service runs on all of its routes: bad input gets a 4xx problem,
 * never a 5xx or a hang, a refused request changes nothing, and every input has a bound.
 */
export function itFuzzesEveryRoute(harness: () => FuzzHarness, suite: FuzzSuite): void {
  it(
    'answers with a 4xx problem, never a 5xx or a hang, and a refused request changes nothing',
    async () => {
      const { app, database, config } = harness();
      const settings = fuzzSettings(suite.runsPerRoute);
      const reports = await fuzzRoutes(fuzzableRoutes(app), {
        app,
        prepare: suite.prepare,
        snapshot: () => database.snapshot(),
        bodyLimitBytes: config.BODY_LIMIT_BYTES,
        maxParamLength: suite.maxParamLength,
        normalizeBody: suite.normalizeBody,
        ...settings,
      });
      process.stdout.write(`${suite.service} ${formatReports(reports, settings)}\n`);
      expect(reports.length).toBeGreaterThanOrEqual(suite.atLeastRoutes);
    },
    FUZZ_LIMIT_MS,
  );

  it('bounds every string and array a request may carry', () => {
    expect(unboundedRouteInputs(harness().app)).toEqual([]);
  });
}
