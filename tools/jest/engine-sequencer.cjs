// The order of a run's files: longest first, by each file's duration in the last run on this
// machine (kept in the cache folder, tools/cache-dir.cjs, by path in its project: Jest's own record
// is per clone, and CI's clone is always fresh); files without one first, in Jest's order. While
// the workspace images' rootfs tars are not all cached, the tests of those images
// (test/workspace-images/) go after the others: the global setup builds the images beside the
// tests (minutes the first time), and the other files run meanwhile. Once the tars are cached (an
// import or nothing), those files, among the longest, keep their place: last, they left one worker
// running them alone at the end. Also a note for that setup (which runs after sorting, in this
// process) of whether this run selected any *.engine.test.ts: a run without one starts no engine;
// and of whether it selected a test of the workspace images.
// @jest/test-sequencer comes with jest; it is resolved from jest's own folder.
const fs = require('node:fs');
const path = require('node:path');
const { cacheDir } = require('../cache-dir.cjs');
const { imageTarsCached } = require('../workspaces/workspace-images.cjs');
const { needsWorkspaceImages } = require('./workspace-images-tests.cjs');

const jestDir = path.dirname(require.resolve('jest/package.json'));
/** @type {typeof import('@jest/test-sequencer').default} */
const Sequencer = require(require.resolve('@jest/test-sequencer', { paths: [jestDir] })).default;

/** @typedef {import('@jest/test-result').Test} Test */

/** The durations file of a project's run (its TEST_GROUP, if any). @param {string} rootDir */
const durationsFile = (rootDir) =>
  path.join(
    cacheDir('test-durations'),
    `${path.basename(rootDir)}-${process.env.TEST_GROUP ?? 'all'}.json`,
  );

/** Seconds by file path within the project, from the last run; empty when there was none. */
function durationsOf(/** @type {string} */ rootDir) {
  try {
    return /** @type {Record<string, number>} */ (
      JSON.parse(fs.readFileSync(durationsFile(rootDir), 'utf8'))
    );
  } catch {
    return {};
  }
}

class EngineSequencer extends Sequencer {
  /**
   * @override
   * @param {Test[]} tests
   */
  sort(tests) {
    const needsImages = (/** @type {Test} */ test) => needsWorkspaceImages(test.path);
    globalThis.__engineTestsSelected = tests.some((test) => test.path.endsWith('.engine.test.ts'));
    globalThis.__workspaceImagesSelected = tests.some(needsImages);
    const durations = tests.length > 0 ? durationsOf(tests[0].context.config.rootDir) : {};
    const last = (/** @type {Test} */ test) =>
      durations[path.relative(test.context.config.rootDir, test.path)] ?? Infinity;
    const longerFirst = (/** @type {Test} */ a, /** @type {Test} */ b) =>
      last(a) === last(b) ? 0 : last(a) > last(b) ? -1 : 1;
    const sorted = /** @type {Test[]} */ (super.sort(tests)).sort(longerFirst);
    if (!globalThis.__workspaceImagesSelected || imageTarsCached()) return sorted;
    return [...sorted.filter((t) => !needsImages(t)), ...sorted.filter(needsImages)];
  }

  /**
   * @override
   * @param {Test[]} tests
   * @param {import('@jest/test-result').AggregatedResult} results
   */
  cacheResults(tests, results) {
    super.cacheResults(tests, results);
    if (tests.length === 0) return;
    const { rootDir } = tests[0].context.config;
    const durations = durationsOf(rootDir);
    for (const { perfStats, testFilePath, testExecError } of results.testResults) {
      if (testExecError) continue;
      durations[path.relative(rootDir, testFilePath)] = (perfStats.end - perfStats.start) / 1000;
    }
    try {
      fs.mkdirSync(path.dirname(durationsFile(rootDir)), { recursive: true });
      fs.writeFileSync(durationsFile(rootDir), JSON.stringify(durations));
    } catch {
      // An order is a speed-up, never a reason for a run to fail.
    }
  }
}

module.exports = EngineSequencer;
