// The global setup of projects with engine tests: PostgreSQL as everywhere, then, when the run
// selected an engine test, a Docker engine with the offline test images, named to the tests
// by TEST_DOCKER_HOST, and the workspace images built beside the tests when the run needs them.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const setupPostgres = require('./global-setup.cjs');
const { startTestEngine } = require('../docker-engine.cjs');
const { ensureTestImages, formatReport } = require('../docker-test-images.cjs');
const { ensureWorkspaceImages } = require('../workspaces/workspace-images.cjs');
const { recordingSetupFailure } = require('./summary-reporter.cjs');

/**
 * Builds the workspace images (npm run workspaces:build), or imports them from the cache, while
 * the tests run: minutes on a fresh machine, which the engine files that need no workspace image
 * (the sequencer runs them first) use. The files of test/workspace-images wait for the outcome,
 * written to the file TEST_WORKSPACE_IMAGES_STATE names (workspace-images-ready.cjs).
 * @param {string} host
 * @returns {Promise<void>} settles when the build ends, whichever way
 */
function buildWorkspaceImages(host) {
  const stateFile = path.join(os.tmpdir(), `platform-workspace-images-${process.pid}.json`);
  fs.rmSync(stateFile, { force: true });
  process.env.TEST_WORKSPACE_IMAGES_STATE = stateFile;
  /** @param {{ error?: string }} state */
  const settle = (state) => {
    fs.writeFileSync(`${stateFile}.partial`, JSON.stringify(state));
    fs.renameSync(`${stateFile}.partial`, stateFile);
  };
  process.stderr.write('\nworkspace images: building what is missing beside the first tests\n');
  return ensureWorkspaceImages(host, { log: (line) => process.stderr.write(`  ${line}\n`) }).then(
    (report) => {
      const done = report.map(
        (r) => `${r.image} ${r.action} (${r.sizeMb} MB) in ${(r.ms / 1000).toFixed(0)} s`,
      );
      process.stderr.write(`\nworkspace images ready: ${done.join(', ')}\n`);
      settle({});
    },
    (error) => {
      process.stderr.write(`\nworkspace images FAILED: ${error.message}\n`);
      settle({ error: error.message });
    },
  );
}

/** PostgreSQL, then the engine and its images when an engine test was selected. */
async function setup() {
  await setupPostgres();
  if (!globalThis.__engineTestsSelected) return;

  const started = Date.now();
  const engine = await startTestEngine();
  if (!engine) {
    process.stderr.write(
      `engine tests will fail: DOCKER_HOST (${process.env.DOCKER_HOST}) does not answer and no private dockerd can be started here\n`,
    );
    return;
  }
  globalThis.__stopTestEngine = engine.stop;
  const ready = Date.now();
  let report;
  try {
    report = formatReport(await ensureTestImages(engine.host));
  } catch (error) {
    const tail = engine.logTail();
    await engine.stop();
    if (tail && error instanceof Error) error.message += `\nthe engine's last log lines:\n${tail}`;
    throw error;
  }
  process.env.TEST_DOCKER_HOST = engine.host;
  process.stderr.write(
    `\ntest engine ${engine.host} (${engine.kind}) ready in ${((ready - started) / 1000).toFixed(1)} s; ${report}\n`,
  );
  if (globalThis.__workspaceImagesSelected) {
    globalThis.__workspaceImagesBuilt = buildWorkspaceImages(engine.host);
  }
}

module.exports = recordingSetupFailure(setup);
