// Jest's own order (longest first), but the tests of the workspace images (test/workspace-images/)
// after the others: the global setup builds those images beside the tests (minutes the first time,
// an import or nothing after), and the other files run meanwhile. Also a note for that setup
// (which runs after sorting, in this process) of whether this run selected any *.engine.test.ts:
// a run without one starts no engine; and of whether it selected a test of the workspace images.
// @jest/test-sequencer comes with jest; it is resolved from jest's own folder.
const path = require('node:path');

const jestDir = path.dirname(require.resolve('jest/package.json'));
/** @type {typeof import('@jest/test-sequencer').default} */
const Sequencer = require(require.resolve('@jest/test-sequencer', { paths: [jestDir] })).default;

class EngineSequencer extends Sequencer {
  /**
   * @override
   * @param {import('@jest/test-result').Test[]} tests
   */
  sort(tests) {
    const needsImages = (/** @type {import('@jest/test-result').Test} */ test) =>
      test.path.includes(`${path.sep}workspace-images${path.sep}`);
    globalThis.__engineTestsSelected = tests.some((test) => test.path.endsWith('.engine.test.ts'));
    globalThis.__workspaceImagesSelected = tests.some(needsImages);
    const sorted = /** @type {import('@jest/test-result').Test[]} */ (super.sort(tests));
    return [...sorted.filter((t) => !needsImages(t)), ...sorted.filter(needsImages)];
  }
}

module.exports = EngineSequencer;
