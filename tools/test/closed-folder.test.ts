import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './support/repo';

/** Runs node in `cwd` without a database configured; its exit code and output. */
async function nodeIn(
  cwd: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(TEST_)?DATABASE_URL$/.test(name)),
  );
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, args, {
      cwd,
      env: { ...env, LOCAL_PG_TEST_PORT: PORT },
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

// The test server's port: free, and not the one a real `npm test` of this checkout may hold.
const PORT = '54379';

// Only root runs PostgreSQL as another user; anyone else owns the folders they clone into.
(process.getuid?.() === 0 ? describe : describe.skip)(
  'a checkout in a folder only root may enter (root home, mktemp -d)',
  () => {
    let closed: string;
    let checkout: string;
    beforeAll(() => {
      closed = mkdtempSync(path.join(tmpdir(), 'closed-'));
      checkout = path.join(closed, `platform-${process.pid}`);
      cpSync(path.join(ROOT, 'tools'), path.join(checkout, 'tools'), { recursive: true });
      cpSync(path.join(ROOT, 'package.json'), path.join(checkout, 'package.json'));
      symlinkSync(path.join(ROOT, 'node_modules'), path.join(checkout, 'node_modules'));
    });
    afterAll(async () => {
      const { DATA_ROOT } = await nodeJson(
        checkout,
        "({ DATA_ROOT: require('./tools/local-postgres.cjs').DATA_ROOT })",
      );
      rmSync(DATA_ROOT, { recursive: true, force: true });
      rmSync(closed, { recursive: true, force: true });
    });

    it("runs npm test's embedded PostgreSQL from a system folder the postgres user may enter", async () => {
      const run = `(async () => {
        await require('./tools/jest/global-setup.cjs')();
        const { Client } = require('pg');
        const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
        await client.connect();
        const { rows } = await client.query('SHOW data_directory');
        await client.end();
        await globalThis.__stopTestPostgres();
        return { dataDirectory: rows[0].data_directory };
      })()`;
      const { dataDirectory } = await nodeJson(checkout, run);
      expect(dataDirectory).toMatch(
        /^\/var\/lib\/workspace-platform\/platform-\d+-[0-9a-f]{12}\/postgres-test$/,
      );
    });
  },
);

/** Runs `expression` (a value or a promise of one) in node in `cwd`; its value, from JSON. */
async function nodeJson(cwd: string, expression: string): Promise<Record<string, string>> {
  const script = `Promise.resolve(${expression}).then((v) => { process.stdout.write(JSON.stringify(v)); process.exit(0); })`;
  const { code, stdout, stderr } = await nodeIn(cwd, ['-e', script]);
  if (code !== 0) throw new Error(`node exited with ${code}: ${stderr}`);
  return JSON.parse(stdout) as Record<string, string>;
}
