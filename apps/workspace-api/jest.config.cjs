// Engine tests (*.engine.test.ts) launch real containers. They run when this machine can have a
// Docker engine (DOCKER_HOST, or dockerd on PATH and root); otherwise they are left out, said once.
// Browser tests are left out the same way without Chromium (tools/jest/browser-tests.cjs).
const path = require('node:path');
const { engineAvailable } = require('../../tools/docker-engine.cjs');
const { browserConfig } = require('../../tools/jest/browser-tests.cjs');
const preset = require('../../jest.preset.cjs');

const JEST_TOOLS = path.join(__dirname, '../../tools/jest');

/** @type {import('jest').Config} */
const engineConfig = {
  globalSetup: path.join(JEST_TOOLS, 'engine-global-setup.cjs'),
  globalTeardown: path.join(JEST_TOOLS, 'engine-global-teardown.cjs'),
  testSequencer: path.join(JEST_TOOLS, 'engine-sequencer.cjs'),
  setupFilesAfterEnv: [path.join(JEST_TOOLS, 'workspace-images-ready.cjs')],
};

/** @returns {import('jest').Config} */
function withoutEngineTests() {
  process.stderr.write(
    "engine tests not run: they need a Docker engine (install Debian's docker.io or set DOCKER_HOST)\n",
  );
  return { testPathIgnorePatterns: ['/node_modules/', '\\.engine\\.test\\.ts$'] };
}

/**
 * TEST_GROUP splits the suite for Nx (`test-engine`, `test-others`), which runs the two at once.
 * The engine tests share one engine, two files at a time (package.json). Each file's database is
 * an installation of its own (test/harness.ts), whose worker removes only its own orphans, so two
 * files at once never remove each other's containers.
 * @returns {import('jest').Config}
 */
function group() {
  if (process.env.TEST_GROUP === 'engine')
    return { testMatch: ['<rootDir>/{src,test}/**/*.engine.test.ts'] };
  if (process.env.TEST_GROUP === 'others') {
    return { testPathIgnorePatterns: ['/node_modules/', '\\.engine\\.test\\.ts$'] };
  }
  return {};
}

/**
 * The LDAP sign-in tests start a private slapd and seed it with ldapadd (Debian's slapd and
 * ldap-utils); without them they are left out, said once, beside what is already left out.
 * @param {import('jest').Config} config
 * @returns {import('jest').Config}
 */
function withDirectoryTests(config) {
  const { existsSync } = require('node:fs');
  if (existsSync('/usr/sbin/slapd') && existsSync('/usr/bin/ldapadd')) return config;
  process.stderr.write(
    "LDAP tests not run: they need Debian's slapd and ldap-utils (apt-get install slapd ldap-utils)\n",
  );
  const ignored = config.testPathIgnorePatterns ?? ['/node_modules/'];
  return { ...config, testPathIgnorePatterns: [...ignored, '/test/sso/ldap-'] };
}

const engine = engineAvailable() ? engineConfig : withoutEngineTests();
const selected = withDirectoryTests({ ...engine, ...group() });
module.exports = { ...preset, ...selected, ...browserConfig(selected.testPathIgnorePatterns) };
