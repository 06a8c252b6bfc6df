import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';
import {
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type Document,
  type Node,
} from 'yaml';
import { SettingsFileSchema } from './settings-file.schemas';
import {
  formatPath,
  type Location,
  type PathSegment,
  type SettingsProblem,
} from './settings-problems';

export interface ParsedSettings {
  /** The document as plain data; only trusted after `problems` is checked. */
  value: unknown;
  problems: SettingsProblem[];
  /** Where the value at `path` starts (`onKey`: where its key starts). */
  locate: (path: readonly PathSegment[], onKey?: boolean) => Location;
}

/** The node at `path`, or the deepest one on the way when the rest is missing (a required key). */
function deepestNode(doc: Document, path: readonly PathSegment[], onKey: boolean): Node | null {
  let node = doc.contents as Node | null;
  for (const [index, segment] of path.entries()) {
    if (isMap(node)) {
      const pair = node.items.find(
        (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment),
      );
      if (!pair) return node;
      if (onKey && index === path.length - 1) return pair.key as Node;
      // `key:` with nothing after it has an empty value node; point at the key then.
      const value = pair.value as Node | null;
      node =
        value && value.range && value.range[0] < value.range[1]
          ? value
          : ((pair.key as Node) ?? node);
    } else if (isSeq(node) && typeof segment === 'number' && node.items[segment]) {
      node = node.items[segment] as Node;
    } else {
      return node;
    }
  }
  return node;
}

function pointerSegments(pointer: string): PathSegment[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

type Bounds = {
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  const?: unknown;
};

/** TypeBox's messages, reworded for someone editing a YAML file. */
function messageOf(error: ValueError): string {
  const schema = error.schema as Bounds & {
    description?: string;
    pattern?: string;
    properties?: object;
  };
  const T = ValueErrorType;
  switch (error.type) {
    case T.ObjectRequiredProperty:
      return 'is required';
    case T.ObjectAdditionalProperties:
      return `is not a known setting here (known: ${Object.keys(schema.properties ?? {}).join(', ')})`;
    case T.StringPattern:
      if (schema.pattern === '\\S') return 'must not be blank';
      return `must be ${schema.description ?? `text matching ${schema.pattern}`}`;
    case T.IntegerMinimum:
    case T.NumberMinimum:
      return `must be at least ${schema.minimum}`;
    case T.IntegerMaximum:
    case T.NumberMaximum:
      return `must be at most ${schema.maximum}`;
    case T.StringMinLength:
      return schema.minLength === 1
        ? 'must not be empty'
        : `must be at least ${schema.minLength} characters`;
    case T.StringMaxLength:
      return `must be at most ${schema.maxLength} characters`;
    case T.Integer:
      return 'must be a whole number';
    case T.String:
      return 'must be text';
    case T.Boolean:
      return 'must be true or false';
    case T.Array:
      return 'must be a list';
    case T.Object:
      return 'must be a mapping';
    case T.Literal:
      return `must be ${JSON.stringify(schema.const)}`;
    case T.Union:
      return schema.description
        ? `matches none of its forms (${schema.description})`
        : 'matches none of its forms';
    default:
      return error.message.charAt(0).toLowerCase() + error.message.slice(1);
  }
}

/** One problem per value, the first TypeBox finds: a missing key is "required", not also "must be text". */
function schemaProblems(value: unknown, locate: ParsedSettings['locate']): SettingsProblem[] {
  const errors = [...Value.Errors(SettingsFileSchema, value)];
  const missing = new Set(
    errors.filter((e) => e.type === ValueErrorType.ObjectRequiredProperty).map((e) => e.path),
  );
  const reported = new Set<string>();
  const problems: SettingsProblem[] = [];
  for (const error of errors) {
    if (
      reported.has(error.path) ||
      (missing.has(error.path) && error.type !== ValueErrorType.ObjectRequiredProperty)
    )
      continue;
    reported.add(error.path);
    const onKey = error.type === ValueErrorType.ObjectAdditionalProperties;
    problems.push({ ...locate(pointerSegments(error.path), onKey), message: messageOf(error) });
  }
  return problems;
}

/** Parses the YAML text and checks it against the settings schema; every problem carries its line and column. */
export function parseSettingsText(text: string): ParsedSettings {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number) => lineCounter.linePos(offset);
  const locate = (path: readonly PathSegment[], onKey = false): Location => {
    const node = deepestNode(doc, path, onKey);
    return { path: formatPath(path), ...toLineColumn(at(node?.range?.[0] ?? 0)) };
  };
  const syntax = [...doc.errors, ...doc.warnings].map((e) => ({
    path: '(file)',
    ...toLineColumn(at(e.pos[0])),
    message: e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, ''),
  }));
  if (syntax.length > 0) return { value: undefined, problems: syntax, locate };

  const value = doc.toJS({ maxAliasCount: 1000 }) as unknown;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      value,
      problems: [{ ...locate([]), message: 'must be a mapping that starts with version: 1' }],
      locate,
    };
  }
  return { value, problems: schemaProblems(value, locate), locate };
}

const toLineColumn = ({ line, col }: { line: number; col: number }) => ({ line, column: col });
