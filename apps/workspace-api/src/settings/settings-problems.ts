/** A place in the settings file: the path of a value and where it starts (1-based). */
export interface Location {
  path: string;
  line: number;
  column: number;
}

export interface SettingsProblem extends Location {
  message: string;
}

export type PathSegment = string | number;

/** `agents[1].cores_override`; the file itself is `(file)`. */
export function formatPath(segments: readonly PathSegment[]): string {
  const text = segments
    .map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`))
    .join('');
  return text || '(file)';
}

export const problemAt = (at: Location, message: string): SettingsProblem => ({ ...at, message });

/** In file order, so that a reader fixes them top to bottom. */
export function sortProblems(problems: readonly SettingsProblem[]): SettingsProblem[] {
  return [...problems].sort(
    (a, b) => a.line - b.line || a.column - b.column || (a.path < b.path ? -1 : 1),
  );
}

/** `settings.yaml:12:5  agents[1].cores_override: must be at least 0` */
export const formatProblem = (file: string, p: SettingsProblem) =>
  `${file}:${p.line}:${p.column}  ${p.path}: ${p.message}`;
