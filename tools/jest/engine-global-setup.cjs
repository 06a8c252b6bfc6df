// The global setup of projects with engine tests: PostgreSQL as everywhere, then, when the run
// selected an engine test, a Docker engine with the offline test images, named to the tests
// by TEST_DOCKER_HOST.
const setupPostgres = require('./global-setup.cjs');
const { startTestEngine } = require('../docker-engine.cjs');
const { ensureTestImages, formatReport } = require('../docker-test-images.cjs');

module.exports = async (globalConfig, projectConfig) => {
  await setupPostgres(globalConfig, projectConfig);
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
    report = await ensureTestImages(engine.host);
  } catch (error) {
    await engine.stop();
    throw error;
  }
  process.env.TEST_DOCKER_HOST = engine.host;
  process.stderr.write(
    `\ntest engine ${engine.host} (${engine.kind}) ready in ${((ready - started) / 1000).toFixed(1)} s; ${formatReport(report)}\n`,
  );
};
