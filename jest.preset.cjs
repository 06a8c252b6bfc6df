// Shared Jest preset: SWC for speed (type checking is the `typecheck` target's job). Nothing under
// node_modules is transformed: the dependencies are pinned to CommonJS versions that run on Node 20
// (tools/test/node-engines.test.ts keeps it so).
const path = require('node:path');

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }],
  },
  globalSetup: path.join(__dirname, 'tools/jest/global-setup.cjs'),
  globalTeardown: path.join(__dirname, 'tools/jest/global-teardown.cjs'),
  reporters: ['default', path.join(__dirname, 'tools/jest/summary-reporter.cjs')],
  testTimeout: 30_000,
};
