import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './repo';

const DPDM = path.join(ROOT, 'node_modules/dpdm/lib/bin/dpdm.js');

/**
 * The import cycles among the files `entries` reach, type-only imports counted (a type import
 * ties two files' meanings together as much as a value import does), as dpdm finds them: each a
 * list of files relative to `cwd`. The generated Prisma client and npm packages are left out.
 */
export async function importCycles(cwd: string, entries: string[]): Promise<string[][]> {
  const out = await mkdtemp(path.join(tmpdir(), 'cycles-'));
  try {
    const json = path.join(out, 'tree.json');
    await promisify(execFile)(
      process.execPath,
      [
        DPDM,
        '--no-tree',
        '--no-warning',
        '--no-circular',
        '--no-progress',
        '--exclude',
        'generated|node_modules',
        '--output',
        json,
        ...entries,
      ],
      { cwd, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
    );
    return (JSON.parse(await readFile(json, 'utf8')) as { circulars: string[][] }).circulars;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
