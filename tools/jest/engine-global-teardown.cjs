const teardownPostgres = require('./global-teardown.cjs');

module.exports = async () => {
  await globalThis.__stopTestEngine?.();
  await teardownPostgres();
};
