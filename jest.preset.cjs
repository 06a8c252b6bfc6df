// Shared Jest preset: SWC for speed (type checking is the `typecheck` target's job). The
// dependencies are pinned to CommonJS versions that run on Node 20 (tools/test/node-engines.test.ts
// keeps it so); a few are transformed: the OTLP exporter loads `http` with import(), which Node runs
// in CommonJS but Jest's module sandbox refuses without --experimental-vm-modules; openid-client
// and its oauth4webapi and jose are ES modules only (Node 20.19+ requires them natively; Jest's
// sandbox cannot).
const path = require('node:path');

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }],
    '/node_modules/(@opentelemetry/otlp-exporter-base|openid-client|oauth4webapi|jose)/.+\\.js$': [
      '@swc/jest',
      { jsc: { target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  transformIgnorePatterns: [
    '/node_modules/(?!(@opentelemetry/otlp-exporter-base|openid-client|oauth4webapi|jose)/)',
  ],
  globalSetup: path.join(__dirname, 'tools/jest/global-setup.cjs'),
  globalTeardown: path.join(__dirname, 'tools/jest/global-teardown.cjs'),
  reporters: ['default', path.join(__dirname, 'tools/jest/summary-reporter.cjs')],
  // A test's limit is no measure of speed: a test that waits ends as soon as what it waits for
  // happens, and CI runs the suite on two cores kept busy, where one HTTP round trip through a
  // whole service, or a race of a dozen, has taken many seconds. 30 s failed such tests there.
  testTimeout: 120_000,
  // Each test file loads the service anew (its Prisma client above all), and a process that runs
  // them all keeps growing: workspace-api's 170 files ran out of a 4 GB heap in one. A worker
  // past this much after a file is replaced by a fresh one (which also means a worker, not the
  // main process, runs the files).
  workerIdleMemoryLimit: '1GB',
};
