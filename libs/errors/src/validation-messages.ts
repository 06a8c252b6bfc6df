import type { FieldProblem } from './define';

/** What ajv reports per problem (with `verbose: true`, also the schema that failed). */
export interface SchemaIssue {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
  /** The schema object holding the keyword (ajv's `parentSchema`). */
  parentSchema?: Record<string, unknown>;
}

const UUID_PATTERN = /^\^\[0-9a-fA-F\]\{8\}-\?/;
const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};
const FORMAT_WORDS: Record<string, string> = {
  date: 'a date as YYYY-MM-DD',
  'date-time': 'a date and time in ISO 8601, e.g. 2026-11-21T09:30:00Z',
  time: 'a time as HH:MM:SS',
  email: 'an email address',
  uri: 'an absolute URL',
  url: 'an absolute URL',
  uuid: 'a UUID',
  hostname: 'a host name',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
};

const list = (values: readonly unknown[]) =>
  values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
const plural = (n: unknown, word: string) => `${String(n)} ${word}${n === 1 ? '' : 's'}`;

/** The values a schema allows when it is an enum or a union of constants, else null. */
function allowedValues(schema: Record<string, unknown> | undefined): unknown[] | null {
  if (!schema) return null;
  if (Array.isArray(schema.enum)) return schema.enum;
  if ('const' in schema) return [schema.const];
  const branches = (schema.anyOf ?? schema.oneOf) as Record<string, unknown>[] | undefined;
  if (!Array.isArray(branches)) return null;
  const values = branches.map(allowedValues);
  return values.every((v) => v !== null) ? (values as unknown[][]).flat() : null;
}

function patternWords(pattern: string, description: unknown): string {
  if (UUID_PATTERN.test(pattern)) return 'must be a 32-character hex id (dashes allowed)';
  if (pattern === '\\S' || pattern === '\\S+') return 'must not be blank';
  if (pattern === '^\\S+$') return 'must not contain spaces';
  if (typeof description === 'string' && description !== '') return `must be ${description}`;
  return 'is not in the expected form';
}

/** One problem as a person reads it: the expectation in words, never a regex or schema jargon. */
export function describeIssue(issue: SchemaIssue): string {
  const p = issue.params;
  const schema = issue.parentSchema;
  switch (issue.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not allowed here';
    case 'type': {
      const types = String(p.type).split(',');
      return `must be ${types.map((t) => TYPE_WORDS[t] ?? t).join(' or ')}`;
    }
    case 'enum':
    case 'const':
    case 'anyOf':
    case 'oneOf': {
      const values = allowedValues(schema);
      if (values) return `must be one of: ${list(values)}`;
      return 'is not any of the accepted forms';
    }
    case 'pattern':
      return patternWords(String(p.pattern), schema?.description);
    case 'format':
      return `must be ${FORMAT_WORDS[String(p.format)] ?? `in ${String(p.format)} form`}`;
    case 'minLength':
      return p.limit === 1
        ? 'must not be empty'
        : `must be at least ${plural(p.limit, 'character')}`;
    case 'maxLength':
      return `must be at most ${plural(p.limit, 'character')}`;
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    case 'maximum':
      return `must be at most ${String(p.limit)}`;
    case 'exclusiveMinimum':
      return `must be greater than ${String(p.limit)}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(p.limit)}`;
    case 'multipleOf':
      return `must be a multiple of ${String(p.multipleOf)}`;
    case 'minItems':
      return p.limit === 1 ? 'must not be empty' : `must have at least ${plural(p.limit, 'item')}`;
    case 'maxItems':
      return `must have at most ${plural(p.limit, 'item')}`;
    case 'uniqueItems':
      return 'must not repeat an item';
    case 'minProperties':
      return 'must not be empty';
    case 'maxProperties':
      return `must have at most ${plural(p.limit, 'field')}`;
    default:
      return issue.message ?? 'is invalid';
  }
}

const fieldOf = (issue: SchemaIssue, fallback: string) => {
  const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const missing = issue.params.missingProperty as string | undefined;
  return [path, missing].filter(Boolean).join('.') || fallback;
};

/**
 * Every problem of a failed validation, one per field and expectation, in words. A union of
 * constants (TypeBox's `Union([Literal(...)])`) reports one failed `const` per value and then the
 * `anyOf`: those become the single "must be one of: ...".
 */
/** Problems listed in one answer; past it, one more line counts the rest. */
export const MAX_PROBLEMS = 100;

export function describeIssues(issues: readonly SchemaIssue[], fallback = 'body'): FieldProblem[] {
  // The unions that list their allowed values, by the value they judged: an array of 10 000 wrong
  // items has 10 000 of them, so each issue looks only at its own value's.
  const unionsAt = new Map<string, SchemaIssue[]>();
  for (const issue of issues) {
    if (
      (issue.keyword === 'anyOf' || issue.keyword === 'oneOf') &&
      allowedValues(issue.parentSchema)
    ) {
      const at = unionsAt.get(issue.instancePath) ?? [];
      unionsAt.set(issue.instancePath, [...at, issue]);
    }
  }
  const insideUnion = (issue: SchemaIssue) =>
    (unionsAt.get(issue.instancePath) ?? []).some(
      (u) =>
        u !== issue && issue.schemaPath.startsWith(u.schemaPath.replace(/\/(anyOf|oneOf)$/, '/')),
    );
  const seen = new Set<string>();
  const problems: FieldProblem[] = [];
  let more = 0;
  for (const issue of issues) {
    if (insideUnion(issue)) continue;
    const problem = { field: fieldOf(issue, fallback), message: describeIssue(issue) };
    const key = `${problem.field}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (problems.length < MAX_PROBLEMS) problems.push(problem);
    else more++;
  }
  if (more > 0) problems.push({ field: fallback, message: `and ${more} more problems like these` });
  return problems;
}
