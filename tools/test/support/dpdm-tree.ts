import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './repo';

const DPDM = path.join(ROOT, 'node_modules/dpdm/lib/bin/dpdm.js');

/** One import dpdm found: `id` is the file it resolved to, relative to the run's folder. */
export interface Dependency {
  kind: string;
  id: string | null;
}

export interface DpdmResult {
  /** Every file reached from the entries, with what it imports (null: not read, a package). */
  tree: Record<string, Dependency[] | null>;
  circulars: string[][];
}

/**
 * What dpdm finds from `entries`, type-only imports counted (a type import ties two files'
 * meanings together as much as a value import does). The generated Prisma client and npm
 * packages are not followed.
 */
export async function dpdmTree(cwd: string, entries: string[]): Promise<DpdmResult> {
  const out = await mkdtemp(path.join(tmpdir(), 'dpdm-'));
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
    return JSON.parse(await readFile(json, 'utf8')) as DpdmResult;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
