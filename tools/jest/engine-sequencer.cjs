// Jest's own order, plus a note for the engine global setup (which runs after sorting, in this
// process) of whether this run selected any *.engine.test.ts: a run without one starts no engine;
// and of whether it selected a test of the workspace images (test/workspace-images/), which the
// setup then builds (minutes the first time, an import or nothing after).
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
    globalThis.__engineTestsSelected = tests.some((test) => test.path.endsWith('.engine.test.ts'));
    globalThis.__workspaceImagesSelected = tests.some((test) =>
      test.path.includes(`${path.sep}workspace-images${path.sep}`),
    );
    return super.sort(tests);
  }
}

module.exports = EngineSequencer;
