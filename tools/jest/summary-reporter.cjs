// Appends each Jest run's totals to $TEST_SUMMARY_FILE, so .ci/run can print one line for all
// projects; each test file's duration to $TEST_SUMMARY_FILE.files, for its slowest-files list;
// and each failed test (file, project, title and the first lines of its error) to
// $TEST_SUMMARY_FILE.failures, so the end of a long CI log (often all of it a reader gets) says
// what failed and why without a search through every project's output.
const fs = require('node:fs');
const path = require('node:path');
const { stripVTControlCharacters } = require('node:util');

/**
 * Each failed test (its name, then its error's first lines), or one line for a file that failed
 * before its tests could run.
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
    .map((test) => {
      const name = [...test.ancestorTitles, test.title].join(' › ');
      return `${where} › ${name}\n${indentedLines(String(test.failureMessages[0] ?? ''))}`;
    });
}

/** The project a Jest run belongs to: the folder it runs in. */
const projectName = () => path.basename(process.cwd());

/** How many lines of a failed test's first error the summary keeps. */
const REASON_LINES = 12;

/**
 * An error's first lines, indented: colours and the stack's frames outside the project left out.
 * @param {string} text
 */
function indentedLines(text) {
  return stripVTControlCharacters(text)
    .split('\n')
    .filter(
      (line) => line.trim() !== '' && !/node_modules|\(<anonymous>\)|node:internal/.test(line),
    )
    .slice(0, REASON_LINES)
    .map((line) => `    ${line}\n`)
    .join('');
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
    const where = (/** @type {string} */ testFilePath) =>
      `${path.relative(process.cwd(), testFilePath)} (${projectName()})`;
    const durations = results.testResults.map(({ perfStats, testFilePath }) => {
      const seconds = Math.max(0, perfStats.end - perfStats.start) / 1000;
      return `${seconds.toFixed(1)} ${where(testFilePath)}\n`;
    });
    fs.appendFileSync(`${file}.files`, durations.join(''));
    const failures = results.testResults.flatMap((r) => failuresOf(r, where(r.testFilePath)));
    if (failures.length > 0) fs.appendFileSync(`${file}.failures`, failures.join(''));
  }
}

/**
 * A global setup that, when it throws, records why in $TEST_SUMMARY_FILE.failures before Jest
 * stops: Jest tells no reporter of a run that failed before its first test.
 * @param {() => Promise<void>} setup
 */
function recordingSetupFailure(setup) {
  return async () => {
    try {
      await setup();
    } catch (error) {
      const file = process.env.TEST_SUMMARY_FILE;
      if (file) {
        const reason = indentedLines(String(/** @type {Error} */ (error)?.stack ?? error));
        fs.appendFileSync(
          `${file}.failures`,
          `(${projectName()}) › the global setup failed\n${reason}`,
        );
      }
      throw error;
    }
  };
}

module.exports = SummaryReporter;
module.exports.recordingSetupFailure = recordingSetupFailure;
