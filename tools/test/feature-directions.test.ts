import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { backwardReaches } from './support/feature-directions';
import { ROOT } from './support/repo';

// Features stand on each other one way: a lower one never reaches a higher one, not through a
// third file nor by a type alone; what it needs of it is a port it declares and app.ts fills.
const SRC = 'apps/workspace-api/src';
const DIRECTIONS: [from: string, never: string[]][] = [
  ['users', ['sessions', 'session-proxy']],
  ['sessions', ['session-proxy', 'session-driver']],
  ['session-driver', ['session-proxy']],
  ['images', ['groups']],
  ['zones', ['agents']],
];

describe('the direction between features', () => {
  it.each(DIRECTIONS)('holds: %s/ reaches nothing of %j', async (from, never) => {
    const reaches = await backwardReaches(
      ROOT,
      `${SRC}/${from}`,
      never.map((folder) => `${SRC}/${folder}`),
    );
    expect(reaches).toEqual([]);
  });

  it('fails on a backward import, also one by a type alone through another file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'direction-'));
    const file = (name: string, text: string) => writeFile(path.join(dir, name), text);
    try {
      await Promise.all(
        ['users', 'sessions', 'session-proxy'].map((f) => mkdir(path.join(dir, f))),
      );
      await file(
        'users/users.service.ts',
        "import { rule } from '../rules';\nexport const u = rule;\n",
      );
      await file(
        'users/users.test.ts',
        "import { proxy } from '../session-proxy';\nexport const t = proxy;\n",
      );
      await file(
        'rules.ts',
        "import type { Kasm } from './sessions';\nexport const rule: Kasm = 1;\n",
      );
      await file('sessions/index.ts', 'export type Kasm = number;\n');
      await file('session-proxy/index.ts', 'export const proxy = 1;\n');
      expect(await backwardReaches(dir, 'users', ['sessions', 'session-proxy'])).toEqual([
        ['users/users.service.ts', 'rules.ts', 'sessions/index.ts'],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
