import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, runNode } from './support/repo';

const FIXTURE = 'tools/test/fixtures/failing-suite';

describe('the summary reporter (tools/jest/summary-reporter.cjs) on a failing run', () => {
  let dir: string;
  let summary: string;
  let run: Awaited<ReturnType<typeof runNode>>;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'summary-reporter-'));
    summary = path.join(dir, 'summary');
    run = await runNode(
      [require.resolve('jest/bin/jest'), '--config', path.join(ROOT, FIXTURE, 'jest.config.cjs')],
      { TEST_SUMMARY_FILE: summary },
    );
  }, 120_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const read = (suffix = '') => readFile(summary + suffix, 'utf8');

  it('counts the passed test, and the failed test and the file that failed to run as failures', async () => {
    expect(run.code).not.toBe(0);
    expect(await read()).toBe('1 2 0\n');
  });

  it('names each failed test by file, project and title, and a file that failed to run with its error', async () => {
    const project = path.basename(ROOT);
    const names = (await read('.failures'))
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith(' '))
      .sort();
    expect(names).toEqual([
      `${FIXTURE}/broken.fixture.cjs (${project}) › the file failed to run: this fixture cannot load`,
      `${FIXTURE}/checks.fixture.cjs (${project}) › a fixture suite › fails on purpose`,
    ]);
  });

  it("gives a failed test's error under its name, indented, without colours or frames outside the project", async () => {
    const failures = await read('.failures');
    const test = failures.slice(failures.indexOf('› fails on purpose\n'));
    const reason = test
      .split('\n')
      .slice(1)
      .filter((line) => line.startsWith('    '));
    expect(reason[0]).toBe('    Error: expect(received).toBe(expected) // Object.is equality');
    expect(reason).toContain('    Expected: 2');
    expect(reason.some((line) => line.includes('checks.fixture.cjs:3'))).toBe(true);
    expect(failures).not.toContain('\u001b[');
    expect(failures).not.toContain('node_modules');
  });

  it('lists every file with its duration', async () => {
    const lines = (await read('.files')).trimEnd().split('\n');
    expect(lines.map((line) => line.replace(/^\d+\.\d /, '')).sort()).toEqual([
      `${FIXTURE}/broken.fixture.cjs (${path.basename(ROOT)})`,
      `${FIXTURE}/checks.fixture.cjs (${path.basename(ROOT)})`,
    ]);
  });
});

describe('the summary reporter on a run whose global setup fails', () => {
  let dir: string;
  let summary: string;
  let code: number;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'summary-reporter-'));
    summary = path.join(dir, 'summary');
    const config = path.join(ROOT, 'tools/test/fixtures/failing-setup/jest.config.cjs');
    ({ code } = await runNode([require.resolve('jest/bin/jest'), '--config', config], {
      TEST_SUMMARY_FILE: summary,
    }));
  }, 120_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("names the project and gives the setup's error, which Jest tells no reporter", async () => {
    expect(code).not.toBe(0);
    const lines = (await readFile(`${summary}.failures`, 'utf8')).split('\n');
    expect(lines[0]).toBe(`(${path.basename(ROOT)}) › the global setup failed`);
    expect(lines[1]).toBe('    Error: the test engine did not start: this fixture has none');
    expect(lines.some((line) => line.includes('setup.cjs:5'))).toBe(true);
  });
});
