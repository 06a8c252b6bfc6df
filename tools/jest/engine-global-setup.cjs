// The global setup of projects with engine tests: PostgreSQL as everywhere, then, when the run
// selected an engine test, a Docker engine with the offline test images, named to the tests
// by TEST_DOCKER_HOST.
const setupPostgres = require('./global-setup.cjs');
const { startTestEngine } = require('../docker-engine.cjs');
const { ensureTestImages, formatReport } = require('../docker-test-images.cjs');
const { ensureWorkspaceImages } = require('../workspaces/workspace-images.cjs');
const { recordingSetupFailure } = require('./summary-reporter.cjs');

/**
 * The workspace images (npm run workspaces:build), built or imported from the cache if needed.
 * @param {string} host
 */
async function workspaceImages(host) {
  process.stderr.write('\nworkspace images: building what is missing (minutes the first time)\n');
  const report = await ensureWorkspaceImages(host, {
    log: (line) => process.stderr.write(`  ${line}\n`),
  });
  return report
    .map((r) => `${r.image} ${r.action} (${r.sizeMb} MB) in ${(r.ms / 1000).toFixed(0)} s`)
    .join(', ');
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
    if (globalThis.__workspaceImagesSelected) report += `; ${await workspaceImages(engine.host)}`;
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
}

module.exports = recordingSetupFailure(setup);
