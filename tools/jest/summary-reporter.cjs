// Appends each Jest run's totals to $TEST_SUMMARY_FILE, so .ci/run can print one line for all
// projects, and each test file's duration to $TEST_SUMMARY_FILE.files, for its slowest-files list.
const fs = require('node:fs');
const path = require('node:path');

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
    const durations = results.testResults.map(({ perfStats, testFilePath }) => {
      const seconds = Math.max(0, perfStats.end - perfStats.start) / 1000;
      return `${seconds.toFixed(1)} ${path.relative(process.cwd(), testFilePath)} (${path.basename(process.cwd())})\n`;
    });
    fs.appendFileSync(`${file}.files`, durations.join(''));
  }
}

module.exports = SummaryReporter;
