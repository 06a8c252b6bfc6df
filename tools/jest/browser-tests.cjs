// Browser tests (*.browser.test.ts, *.browser.engine.test.ts) drive Debian's Chromium through
// playwright-core. Without it they are left out, said once.
const { existsSync } = require('node:fs');

const BROWSER_TESTS = '\\.browser(\\.engine)?\\.test\\.ts$';

/** CHROMIUM_PATH, else Debian's chromium; the tests read it as TEST_CHROMIUM_PATH. */
function chromiumPath() {
  const candidates = [process.env.CHROMIUM_PATH ?? '', '/usr/bin/chromium'].filter(Boolean);
  return candidates.find((candidate) => existsSync(candidate)) ?? null;
}

/**
 * Jest options that run the browser tests, or leave them out beside `ignored`.
 * @param {string[]} [ignored]
 * @returns {import('jest').Config}
 */
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

module.exports = { browserConfig, chromiumPath };
