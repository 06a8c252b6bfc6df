// The image tests run under their own target (jest.images.config.cjs): they need an engine.
/** @type {import('jest').Config} */
module.exports = {
  ...require('../jest.preset.cjs'),
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/images/'],
};
