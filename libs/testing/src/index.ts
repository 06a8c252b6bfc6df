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
export { startControlledPostgres } from './controlled-postgres';
export type { ControlledPostgres } from './controlled-postgres';
export { buildService, freePort, REPO_ROOT, startBuiltServer } from './built-server';
export type { BuiltServer } from './built-server';
export { formatCounts, runLoad, waitFor } from './load';
export type { LoadReport, Outcome } from './load';
export { redisReachable } from './redis';
export { expectOutageSurvived, formatOutage, OUTAGE_PLAN, runOutage } from './outage';
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
export { JARGON, jargonMessages, wrongValue } from './validation-words';
export {
  brokenMarkdownLinks,
  headingAnchors,
  markdownLinks,
  referenceProblem,
} from './doc-references';
export type { DocLink } from './doc-references';
