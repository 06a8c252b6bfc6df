import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { ROOT } from './support/repo';

type LockEntry = { version?: string; engines?: { node?: string } | string[] };
const readJson = <T>(file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as T;
const declared = readJson<{ engines: { node: string } }>('package.json').engines.node;
const lock = readJson<{ packages: Record<string, LockEntry> }>('package-lock.json');

describe('Node versions', () => {
  it('the README names the Node versions package.json declares', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(`\`${declared}\`, as \`engines\` in \`package.json\` says`);
  });

  it('every installed package accepts every Node version package.json declares', () => {
    expect(semver.validRange(declared)).not.toBeNull();
    const refusing = Object.entries(lock.packages).flatMap(([where, entry]) => {
      const wants = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      return wants && !semver.subset(declared, wants)
        ? [`${where.replace(/^.*node_modules\//, '')}@${entry.version}: node ${wants}`]
        : [];
    });
    expect(refusing).toEqual([]);
  });

  it('this machine runs a declared Node version', () => {
    expect(semver.satisfies(process.version, declared)).toBe(true);
  });
});
