export { unboundedInputs } from './json-schema';
export type { JsonSchema } from './json-schema';
export { valueOf, NASTY_STRINGS } from './schema-arbitrary';
export { caseArbitrary, fixedCases } from './fuzz-cases';
export {
  formatReports,
  fuzzableRoutes,
  fuzzRoutes,
  fuzzSettings,
  responseProblem,
  unboundedRouteInputs,
} from './route-fuzz';
export type { FuzzCase, FuzzOptions, FuzzRequest, RouteReport } from './route-fuzz';
export { itFuzzesEveryRoute } from './route-fuzz-suite';
export type { FuzzHarness, FuzzSuite } from './route-fuzz-suite';
export { problemFields } from './problem-fields';
export { startControlledPostgres } from './controlled-postgres';
export type { ControlledPostgres } from './controlled-postgres';
export { buildService, freePort, REPO_ROOT, startBuiltServer } from './built-server';
export type { BuiltServer } from './built-server';
export { formatCounts, runLoad, waitFor } from './load';
export type { LoadReport, Outcome } from './load';
export { redisReachable, statusesAcrossReplicas, TEST_REDIS_URL, TEST_THROTTLE } from './redis';
export type { ReplicaScenario } from './redis';
export { expectOutageSurvived, formatOutage, OUTAGE_PLAN, runOutage } from './outage';
export { describeDatabaseOutage, OUTAGE_DATABASE_ENV } from './outage-scenario';
export type { OutageScenario } from './outage-scenario';
export { runShutdownUnderLoad } from './shutdown';
export type { ShutdownReport, ShutdownScenario } from './shutdown';
export type { OutageExpectations, OutageOptions, OutageReport, Write } from './outage';
export {
  TEST_DOCKER_API_VERSION,
  TEST_SHELL_IMAGE,
  TEST_WEB_IMAGE,
  testDockerHost,
  testDockerOptions,
} from './docker-engine';
export type { TestDockerOptions } from './docker-engine';
export { BAD_TEXTS, badTextCases, badTextFailures } from './bad-text';
export type { BadTextCase } from './bad-text';
export { itWordsValidationMessages, JARGON, jargonMessages, wrongValue } from './validation-words';
export {
  brokenMarkdownLinks,
  headingAnchors,
  markdownLinks,
  referenceProblem,
} from './doc-references';
export type { DocLink } from './doc-references';
export { rawJsonPost } from './raw-post';
export { sendOverWire, stillServing } from './wire';
export type { WireRequest, WireResponse } from './wire';
export { bodiesToEveryRoute, bodyKinds, concretePath } from './route-bodies';
export {
  DASHBOARD_PATH,
  dashboardExpressions,
  dashboardNamesMissing,
  promqlMetricNames,
} from './dashboard-metrics';
export { startOtlpReceiver } from './otlp-receiver';
export type { OtlpReceiver, ReceivedSpan } from './otlp-receiver';
