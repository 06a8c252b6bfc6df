import { spawn } from 'node:child_process';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@platform/db/testing';
import { ROOT } from './support/repo';

const { buildApps } = require('../services.cjs') as { buildApps: (names: string[]) => void };

/** Runs an app's CLI with its output read by no one: the pipe is closed before it writes. */
function runUnread(app: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [path.join(ROOT, 'apps', app, 'dist/cli.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, stderr })),
  );
}

describe('a CLI whose reader stops early (`| head`)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    buildApps(['workspace-api', 'calendar-api']);
    database = await createTestDatabase({
      schema: 'workspace',
      migrationsDir: path.join(ROOT, 'prisma/workspace-api/migrations'),
    });
  }, 240_000);
  afterAll(() => database.drop());

  it.each([['workspace-api'], ['calendar-api']])('%s ends quietly after --help', async (app) => {
    expect(await runUnread(app, ['--help'])).toEqual({ code: 0, stderr: '' });
  });

  it('finishes the command: the key is issued though nobody read its secret', async () => {
    const unread = await runUnread(
      'workspace-api',
      ['api-key', 'create', '--name', 'unread', '--permission', 'users.view'],
      { DATABASE_URL: database.url },
    );
    expect(unread).toEqual({ code: 0, stderr: '' });
    const [{ count }] = await database.query<{ count: string }>(
      "SELECT count(*)::text AS count FROM workspace.api_key WHERE name = 'unread'",
    );
    expect(count).toBe('1');
  });
});
