// Waits in these tests end as soon as what they wait for happens, with limits of tens of seconds
// so that a loaded machine never fails them; a test may hold a few such waits (the preset's
// limit, 120 s, covers them). Browser tests (*.browser.test.ts) are left out without Chromium
// (tools/jest/browser-tests.cjs).
const { browserConfig } = require('../../tools/jest/browser-tests.cjs');

/** @type {import('jest').Config} */
module.exports = { ...require('../../jest.preset.cjs'), ...browserConfig() };
