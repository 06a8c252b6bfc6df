import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importCycles } from './support/import-cycles';
import { ROOT } from './support/repo';

// No circles: a feature that imports another is never imported back, also through type imports
// and other features; a backward need is a small port the lower feature declares.
const ENTRIES = ['app.ts', 'cli.ts', 'server.ts'].flatMap((file) => [
  `apps/workspace-api/src/${file}`,
  `apps/calendar-api/src/${file}`,
]);

describe('import cycles', () => {
  it('are none among the files the services reach, type imports counted', async () => {
    expect(await importCycles(ROOT, ENTRIES)).toEqual([]);
  });

  it('are found when two files import each other, also by a type import alone', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cycle-'));
    try {
      await writeFile(path.join(dir, 'a.ts'), "import { b } from './b';\nexport const a = b;\n");
      await writeFile(
        path.join(dir, 'b.ts'),
        "import type { A } from './c';\nexport const b: A = 1;\n",
      );
      await writeFile(
        path.join(dir, 'c.ts'),
        "import { a } from './a';\nexport type A = typeof a;\n",
      );
      expect(await importCycles(dir, ['a.ts'])).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
