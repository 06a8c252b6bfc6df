// Set up before each engine test file: a file of test/workspace-images first waits for the
// workspace images, which the global setup builds beside the tests (engine-global-setup.cjs),
// and fails with the build's own error when it failed. Other files start at once.
const fs = require('node:fs');
const { needsWorkspaceImages } = require('./workspace-images-tests.cjs');

// A fresh machine's build under a loaded CI: debootstrap and every package, then three imports.
const BUILD_LIMIT_MS = 60 * 60_000;
const POLL_MS = 500;

/** @param {string} stateFile */
async function imagesBuilt(stateFile) {
  const deadline = Date.now() + BUILD_LIMIT_MS;
  while (Date.now() < deadline) {
    if (fs.existsSync(stateFile)) {
      /** @type {{ error?: string }} */
      const state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
      if (state.error) throw new Error(`the workspace images were not built: ${state.error}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`the workspace images were not built within ${BUILD_LIMIT_MS / 60_000} minutes`);
}

const stateFile = process.env.TEST_WORKSPACE_IMAGES_STATE;
if (stateFile && needsWorkspaceImages(expect.getState().testPath ?? '')) {
  beforeAll(() => imagesBuilt(stateFile), BUILD_LIMIT_MS + 60_000);
}
