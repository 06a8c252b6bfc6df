// Appends each Jest run's totals to $TEST_SUMMARY_FILE, so .ci/run can print one line for all projects.
const fs = require('node:fs');

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
  }
}

module.exports = SummaryReporter;
