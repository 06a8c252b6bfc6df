// Shared Jest preset: SWC for speed (type checking is the `typecheck` target's job). Two
// dependencies ship ESM only, which Node 20.19 requires natively but Jest cannot: cookie@2
// (light-my-request, behind app.inject()) and content-disposition@3 (@fastify/static, behind
// the docs UI). They are transformed to CommonJS, and so is @fastify/cookie, which loads cookie@2
// with a dynamic import() that Jest's CommonJS runtime refuses.
const path = require('node:path');

module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }],
    'node_modules/(cookie|content-disposition|@fastify/cookie)/.+\\.js$': [
      '@swc/jest',
      { module: { type: 'commonjs' } },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!(cookie|content-disposition|@fastify/cookie)/)'],
  globalSetup: path.join(__dirname, 'tools/jest/global-setup.cjs'),
  globalTeardown: path.join(__dirname, 'tools/jest/global-teardown.cjs'),
  reporters: ['default', path.join(__dirname, 'tools/jest/summary-reporter.cjs')],
  testTimeout: 30_000,
};
