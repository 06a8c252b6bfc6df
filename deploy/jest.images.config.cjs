// The image tests (`nx run @platform/deploy:test-images`): both images built by a real engine and
// run, alone and as the Compose stack. One file at a time: they share the engine and its images.
const path = require('node:path');
const preset = require('../jest.preset.cjs');

/** @type {import('jest').Config} */
module.exports = {
  ...preset,
  testMatch: ['<rootDir>/test/images/**/*.test.ts'],
  globalSetup: path.join(__dirname, 'test/images/global-setup.ts'),
  globalTeardown: path.join(__dirname, 'test/images/global-teardown.ts'),
  maxWorkers: 1,
  testTimeout: 5 * 60_000,
};
