import { runNode } from './support/repo';

const { buildApps } = require('../services.cjs') as { buildApps: (names: string[]) => void };

// The CLIs' commands, as `npm run workspace -- …` and `npm run calendar -- …` answer them: every
// help is the whole usage text on stdout, and words no command takes are an unknown command.
const cli = (app: string, ...args: string[]) =>
  runNode([`apps/${app}/dist/cli.js`, ...args], { DATABASE_URL: undefined });

beforeAll(() => buildApps(['workspace-api', 'calendar-api']), 240_000);

describe.each([
  ['workspace-api', 'Usage: npm run workspace -- <command>', ['api-key', 'list', '--help']],
  ['calendar-api', 'Usage: npm run calendar -- <command>', ['token', 'create', '-h']],
])('%s', (app, head, deepHelp) => {
  it('prints the usage for no command, --help, -h and a command followed by --help', async () => {
    const answers = await Promise.all(
      [[], ['--help'], ['-h'], deepHelp].map((a) => cli(app, ...a)),
    );
    for (const answer of answers) {
      expect(answer).toMatchObject({ code: 0, stderr: '' });
      expect(answer.stdout.startsWith(`${head}\n`)).toBe(true);
    }
    expect(new Set(answers.map((a) => a.stdout)).size).toBe(1);
    expect(answers[0].stdout).toContain('config reference [file]');
  });

  it('answers words no command takes with "Unknown command" and the usage, exit code 1', async () => {
    for (const words of [['help'], ['frob', 'x'], ['config'], ['config', 'frob']]) {
      const answer = await cli(app, ...words);
      expect(answer.code).toBe(1);
      expect(answer.stdout).toBe('');
      expect(answer.stderr).toBe(
        `Unknown command "${words.join(' ')}"\n\n${(await cli(app, '--help')).stdout}`,
      );
    }
  });

  it('refuses an option no command takes, exit code 1', async () => {
    expect(await cli(app, '--bogus')).toEqual({
      code: 1,
      stdout: '',
      stderr: "error: unknown option '--bogus'\n",
    });
  });

  it('prints the configuration reference without a database', async () => {
    const answer = await cli(app, 'config', 'reference');
    expect(answer).toMatchObject({ code: 0, stderr: '' });
    expect(answer.stdout).toMatch(/^# /);
    expect(answer.stdout).toContain('`DATABASE_URL`');
  });
});

describe('workspace-api', () => {
  it.each([
    [['api-key'], 'api-key'],
    [['api-key', 'frob'], 'api-key frob'],
    [['api-key', 'list', 'extra'], 'api-key list extra'],
    [['api-key', 'revoke'], 'api-key revoke'],
    [['migrate', 'extra'], 'migrate extra'],
  ])('answers %j as the unknown command "%s"', async (words, typed) => {
    const answer = await cli('workspace-api', ...words);
    expect(answer.code).toBe(1);
    expect(answer.stderr.startsWith(`Unknown command "${typed}"\n\nUsage:`)).toBe(true);
  });

  it('refuses an option of another command, and a missing option value', async () => {
    expect((await cli('workspace-api', 'api-key', 'list', '--name', 'x')).stderr).toBe(
      "error: unknown option '--name'\n",
    );
    expect(await cli('workspace-api', 'api-key', 'create', '--name')).toMatchObject({
      code: 1,
      stderr: "error: option '--name <name>' argument missing\n",
    });
  });
});
