import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { dpdmTree } from './dpdm-tree';

const SOURCE = /(?<!\.test|\.d)\.ts$/;

/**
 * The ways the source files under `from` (tests left out) reach a file under one of `never`,
 * directly or through other files, type imports counted: for each such file reached, the first
 * chain of imports found to it (breadth first, so a shortest one). Folders are relative to `cwd`.
 */
export async function backwardReaches(
  cwd: string,
  from: string,
  never: readonly string[],
): Promise<string[][]> {
  const entries = (await readdir(path.join(cwd, from), { recursive: true }))
    .filter((file) => SOURCE.test(file))
    .map((file) => path.join(from, file));
  const { tree } = await dpdmTree(cwd, entries);
  const inside = (file: string, folder: string) => file.startsWith(`${folder}/`);
  const cameFrom = new Map<string, string | null>(entries.map((file) => [file, null]));
  const queue = [...entries];
  const chains: string[][] = [];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (never.some((folder) => inside(file as string, folder))) {
      const chain: string[] = [];
      for (let at: string | null | undefined = file; at; at = cameFrom.get(at)) chain.unshift(at);
      chains.push(chain);
      continue;
    }
    for (const { id } of tree[file] ?? []) {
      if (id === null || cameFrom.has(id)) continue;
      cameFrom.set(id, file);
      queue.push(id);
    }
  }
  return chains;
}
