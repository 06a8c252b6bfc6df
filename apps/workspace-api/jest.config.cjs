// Engine tests (*.engine.test.ts) launch real containers. They run when this machine can have a
// Docker engine (DOCKER_HOST, or dockerd on PATH and root); otherwise they are left out, said once.
// Browser tests (*.browser.test.ts, *.browser.engine.test.ts) drive Debian's Chromium through
// playwright-core; without it they are left out the same way.
const { existsSync } = require('node:fs');
const path = require('node:path');
const { engineAvailable } = require('../../tools/docker-engine.cjs');
const preset = require('../../jest.preset.cjs');

const JEST_TOOLS = path.join(__dirname, '../../tools/jest');
const BROWSER_TESTS = '\\.browser(\\.engine)?\\.test\\.ts$';

const engineConfig = {
  globalSetup: path.join(JEST_TOOLS, 'engine-global-setup.cjs'),
  globalTeardown: path.join(JEST_TOOLS, 'engine-global-teardown.cjs'),
  testSequencer: path.join(JEST_TOOLS, 'engine-sequencer.cjs'),
};

function withoutEngineTests() {
  process.stderr.write(
    "engine tests not run: they need a Docker engine (install Debian's docker.io or set DOCKER_HOST)\n",
  );
  return { testPathIgnorePatterns: ['/node_modules/', '\\.engine\\.test\\.ts$'] };
}

/** CHROMIUM_PATH, else Debian's chromium; the tests read it as TEST_CHROMIUM_PATH. */
function chromiumPath() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].filter(Boolean);
  return candidates.find((candidate) => existsSync(candidate)) ?? null;
}

function browserConfig(ignored) {
  const chromium = chromiumPath();
  if (chromium) {
    process.env.TEST_CHROMIUM_PATH = chromium;
    return {};
  }
  process.stderr.write(
    "browser tests not run: they need Chromium (install Debian's chromium or set CHROMIUM_PATH)\n",
  );
  return { testPathIgnorePatterns: [...(ignored ?? ['/node_modules/']), BROWSER_TESTS] };
}

const engine = engineAvailable() ? engineConfig : withoutEngineTests();
module.exports = { ...preset, ...engine, ...browserConfig(engine.testPathIgnorePatterns) };
