// Appends each Jest run's totals to $TEST_SUMMARY_FILE, so .ci/run can print one line for all
// projects; each test file's duration to $TEST_SUMMARY_FILE.files, for its slowest-files list;
// and each failed test (file, project and title) to $TEST_SUMMARY_FILE.failures, so the end of
// a long CI log names what failed without a search through every project's output.
const fs = require('node:fs');
const path = require('node:path');

/**
 * One line per failed test, or one for a file that failed before its tests could run.
 * @param {import('@jest/test-result').TestResult} file
 * @param {string} where the file and its project
 */
function failuresOf(file, where) {
  if (file.testExecError) {
    const reason = String(file.testExecError.message ?? '')
      .trim()
      .split('\n')[0];
    return [`${where} › the file failed to run: ${reason}\n`];
  }
  return file.testResults
    .filter((test) => test.status === 'failed')
    .map((test) => `${where} › ${[...test.ancestorTitles, test.title].join(' › ')}\n`);
}

class SummaryReporter {
  /**
   * @param {unknown} _contexts
   * @param {import('@jest/test-result').AggregatedResult} results
   */
  onRunComplete(_contexts, results) {
    const file = process.env.TEST_SUMMARY_FILE;
    if (!file) return;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    fs.appendFileSync(file, `${results.numPassedTests} ${failed} ${results.numPendingTests}\n`);
    const project = path.basename(process.cwd());
    const where = (/** @type {string} */ testFilePath) =>
      `${path.relative(process.cwd(), testFilePath)} (${project})`;
    const durations = results.testResults.map(({ perfStats, testFilePath }) => {
      const seconds = Math.max(0, perfStats.end - perfStats.start) / 1000;
      return `${seconds.toFixed(1)} ${where(testFilePath)}\n`;
    });
    fs.appendFileSync(`${file}.files`, durations.join(''));
    const failures = results.testResults.flatMap((r) => failuresOf(r, where(r.testFilePath)));
    if (failures.length > 0) fs.appendFileSync(`${file}.failures`, failures.join(''));
  }
}

module.exports = SummaryReporter;
