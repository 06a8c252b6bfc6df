import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

function toRegExp(pattern: string): RegExp {
  const source = pattern
    .replace(/^\/+|\/+$/g, '')
    .split(/(\*\*\/|\*\*|\*|\?)/)
    .map((part) => {
      if (part === '**/') return '(?:.*/)?';
      if (part === '**') return '.*';
      if (part === '*') return '[^/]*';
      if (part === '?') return '[^/]';
      return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  // A pattern that names a folder excludes everything inside it.
  return new RegExp(`^${source}(?:/.*)?$`);
}

/** Whether .dockerignore's patterns leave a path out of the build context (the last match wins). */
export function dockerignore(content: string): (file: string) => boolean {
  const rules = content
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => ({ keep: line.startsWith('!'), pattern: toRegExp(line.replace(/^!/, '')) }));
  return (file) =>
    rules.reduce((ignored, rule) => (rule.pattern.test(file) ? !rule.keep : ignored), false);
}

/**
 * The files `docker build` would send from the repository: those git tracks or would track
 * (so no local installs, builds or secrets git ignores), less what .dockerignore leaves out.
 */
export function contextFiles(root: string): string[] {
  const listed = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const ignored = dockerignore(readFileSync(path.join(root, '.dockerignore'), 'utf8'));
  return [...new Set(listed.split('\0'))]
    .filter((file) => file && !ignored(file) && existsSync(path.join(root, file)))
    .sort();
}
