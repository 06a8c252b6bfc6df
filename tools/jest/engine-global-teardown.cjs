const fs = require('node:fs');
const teardownPostgres = require('./global-teardown.cjs');

module.exports = async () => {
  // A build still going (a run cut short) ends before its engine does.
  await globalThis.__workspaceImagesBuilt;
  const stateFile = process.env.TEST_WORKSPACE_IMAGES_STATE;
  if (stateFile) fs.rmSync(stateFile, { force: true });
  await globalThis.__stopTestEngine?.();
  await teardownPostgres();
};
