// Engine tests (*.engine.test.ts) launch real containers. They run when this machine can have a
// Docker engine (DOCKER_HOST, or dockerd on PATH and root); otherwise they are left out, said once.
const path = require('node:path');
const { engineAvailable } = require('../../tools/docker-engine.cjs');
const preset = require('../../jest.preset.cjs');

const JEST_TOOLS = path.join(__dirname, '../../tools/jest');

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

module.exports = { ...preset, ...(engineAvailable() ? engineConfig : withoutEngineTests()) };
