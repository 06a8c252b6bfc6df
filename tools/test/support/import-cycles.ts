import { dpdmTree } from './dpdm-tree';

/** The import cycles among the files `entries` reach, type imports counted: each a list of files relative to `cwd`. */
export async function importCycles(cwd: string, entries: string[]): Promise<string[][]> {
  return (await dpdmTree(cwd, entries)).circulars;
}
