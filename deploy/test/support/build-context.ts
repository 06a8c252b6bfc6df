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
