import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './support/repo';

/** Runs node in `cwd` without a database configured; its exit code and standard error. */
async function nodeIn(cwd: string, args: string[]): Promise<{ code: number; stderr: string }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(TEST_)?DATABASE_URL$/.test(name)),
  );
  try {
    const { stderr } = await promisify(execFile)(process.execPath, args, {
      cwd,
      env,
      timeout: 60_000,
    });
    return { code: 0, stderr };
  } catch (error) {
    const { code, stderr } = error as { code: number; stderr: string };
    return { code, stderr };
  }
}

const WHAT_TO_DO =
  /^The embedded PostgreSQL cannot start: .* may not enter (\S+) \(mode 700\); clone the project into a folder every user may enter .*\.$/;

// Only root runs PostgreSQL as another user; anyone else owns the folders they clone into.
(process.getuid?.() === 0 ? describe : describe.skip)(
  'a checkout in a folder only root may enter (root home, mktemp -d)',
  () => {
    let closed: string;
    let checkout: string;
    beforeAll(() => {
      closed = mkdtempSync(path.join(tmpdir(), 'closed-'));
      checkout = path.join(closed, 'platform');
      cpSync(path.join(ROOT, 'tools'), path.join(checkout, 'tools'), { recursive: true });
      cpSync(path.join(ROOT, 'package.json'), path.join(checkout, 'package.json'));
      symlinkSync(path.join(ROOT, 'node_modules'), path.join(checkout, 'node_modules'));
    });
    afterAll(() => rmSync(closed, { recursive: true, force: true }));

    it('npm start says in one sentence what to do, before building anything', async () => {
      const { code, stderr } = await nodeIn(checkout, ['tools/start.cjs']);
      expect(code).toBe(1);
      expect(stderr.trim()).toMatch(WHAT_TO_DO);
      expect(stderr.trim().match(WHAT_TO_DO)?.[1]).toBe(closed);
    });

    it("npm test's embedded PostgreSQL says the same, without a stack trace", async () => {
      const setup = "require('./tools/jest/global-setup.cjs')()";
      const { code, stderr } = await nodeIn(checkout, ['-e', setup]);
      expect(code).toBe(1);
      expect(stderr.trim()).toMatch(WHAT_TO_DO);
    });
  },
);
