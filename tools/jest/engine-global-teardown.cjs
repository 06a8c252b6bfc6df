const teardownPostgres = require('./global-teardown.cjs');

module.exports = async (globalConfig, projectConfig) => {
  await globalThis.__stopTestEngine?.();
  await teardownPostgres(globalConfig, projectConfig);
};
