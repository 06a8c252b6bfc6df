import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './support/repo';

type Dependencies = Record<string, string>;
interface Manifest {
  workspaces?: string[];
  dependencies?: Dependencies;
  devDependencies?: Dependencies;
  optionalDependencies?: Dependencies;
  peerDependencies?: Dependencies;
}
interface LockEntry extends Manifest {
  link?: boolean;
}

const readJson = <T>(file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as T;
const lock = readJson<{ packages: Record<string, LockEntry> }>('package-lock.json');
const KINDS = [
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
] as const;

/** The workspace folders the lockfile knows, and the root (""). */
const workspaceFolders = [
  '',
  ...Object.keys(lock.packages).filter((where) => where && !where.includes('node_modules')),
];

/** Where Node would find `name` from the package at `where` (nested first, then hoisted). */
function resolves(where: string, name: string): boolean {
  for (let dir = where; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules')))) {
    if (lock.packages[`${dir ? `${dir}/` : ''}node_modules/${name}`]) return true;
    if (!dir) return false;
  }
}

describe('package-lock.json', () => {
  it.each(workspaceFolders)(
    'records exactly the dependencies that the package.json of "%s" declares',
    (folder) => {
      const manifest = readJson<Manifest>(path.join(folder, 'package.json'));
      const locked = lock.packages[folder];
      for (const kind of KINDS)
        expect([kind, locked[kind] ?? {}]).toEqual([kind, manifest[kind] ?? {}]);
    },
  );

  it('holds a workspace for every folder the root package.json names, and no other', () => {
    const declared = readJson<Manifest>('package.json').workspaces ?? [];
    const matches = (folder: string, glob: string) =>
      glob.endsWith('/*') ? path.dirname(folder) === glob.slice(0, -2) : folder === glob;
    const locked = workspaceFolders.filter(Boolean);
    expect(locked.filter((folder) => !declared.some((glob) => matches(folder, glob)))).toEqual([]);
    for (const glob of declared)
      expect([glob, locked.some((f) => matches(f, glob))]).toEqual([glob, true]);
  });

  // npm ci refuses a lockfile that lacks another platform's optional package ("Missing: … from lock
  // file"), since the registry serves them all: the lockfile must hold every platform's.
  it("holds every locked package's optional dependencies, for every platform", () => {
    const missing = Object.entries(lock.packages).flatMap(([where, entry]) =>
      entry.link
        ? []
        : Object.keys(entry.optionalDependencies ?? {})
            .filter((name) => !resolves(where, name))
            .map((name) => `${where || '(root)'} → ${name}`),
    );
    expect(missing).toEqual([]);
  });
});
