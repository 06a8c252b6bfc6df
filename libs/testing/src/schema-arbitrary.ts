import fc from 'fast-check';
import { typesOf, type JsonSchema } from './json-schema';

/** Strings that broke services before: control characters, NUL, bidi overrides, injections. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0007\u001b[31m',
  '\r\n\t',
  '\u202Egnp.exe',
  '\uFEFFbom',
  'e\u0301\u0301\u0301',
  '\uD800',
  '\uDFFF\uD800',
  '\uFFFF\uFFFE',
  '🎉👩‍👩‍👧‍👦🏳️‍🌈',
  'Ω≈ç√∫˜µ≤≥÷',
  '田中さんにあげて下さい',
  'ثم نفس سقطت',
  '<script>alert(1)</script>',
  "'; DROP TABLE users; --",
  '" OR 1=1 --',
  '${jndi:ldap://x/a}',
  '{{7*7}}',
  '../../../../etc/passwd',
  '%00%2e%2e%2f',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
  '0x1F',
  '__proto__',
  'constructor',
];

/** Values of every JSON type, for "wrong type" mutations; the schema decides which are wrong. */
export const ANY_TYPE_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -0.000001,
  2_147_483_648,
  9_007_199_254_740_991,
  -1e308,
  '',
  'x',
  '42',
  'true',
  [],
  [1, 'a', null],
  {},
  { a: 1 },
];

const clamp = (n: number, min: number, max: number) => Math.min(Math.max(n, min), max);

const isoDate = fc
  .date({
    min: new Date('1900-01-01T00:00:00Z'),
    max: new Date('2200-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString().slice(0, 10));
const isoDateTime = fc
  .date({
    min: new Date('1970-01-01T00:00:00Z'),
    max: new Date('2200-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString());

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'date') return isoDate;
  if (schema.format === 'date-time') return isoDateTime;
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? 10_000;
  const fits = (s: string) => [...s].length >= minLength && [...s].length <= maxLength;
  if (schema.pattern !== undefined) {
    const examples = (schema.examples ?? []).filter((e): e is string => typeof e === 'string');
    try {
      const matching = fc.stringMatching(new RegExp(schema.pattern, 'u'), {
        maxLength: clamp(maxLength, 1, 64),
      });
      return examples.length > 0
        ? fc.oneof(matching.filter(fits), fc.constantFrom(...examples))
        : matching.filter(fits);
    } catch {
      // fast-check cannot generate for some patterns (lookaheads): the examples, or any string.
      const any = fc.string({
        unit: 'grapheme-ascii',
        minLength,
        maxLength: Math.min(maxLength, 64),
      });
      return examples.length > 0 ? fc.oneof(fc.constantFrom(...examples), any) : any;
    }
  }
  const typical = Math.min(maxLength, Math.max(minLength, 24));
  return fc.oneof(
    { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength, maxLength: typical }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength: typical }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength, maxLength: typical }) },
    { weight: 1, arbitrary: fc.constantFrom(...NASTY_STRINGS).filter(fits) },
    // The longest value allowed: it must be stored and answered like any other.
    { weight: 1, arbitrary: fc.constant('x'.repeat(Math.min(maxLength, 100_000))).filter(fits) },
  );
}

function numberOf(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const lower =
    schema.exclusiveMinimum !== undefined
      ? schema.exclusiveMinimum + (integer ? 1 : 1e-9)
      : schema.minimum;
  const upper =
    schema.exclusiveMaximum !== undefined
      ? schema.exclusiveMaximum - (integer ? 1 : 1e-9)
      : schema.maximum;
  if (integer) {
    const min = clamp(lower ?? -1_000_000, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    const max = clamp(upper ?? 1_000_000_000, min, Number.MAX_SAFE_INTEGER);
    const edges = [min, max, clamp(0, min, max), clamp(1, min, max)];
    return fc.oneof({ weight: 4, arbitrary: fc.integer({ min, max }) }, fc.constantFrom(...edges));
  }
  return fc.double({
    min: lower ?? -1e9,
    max: upper ?? 1e9,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

function objectOf(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const model = Object.fromEntries(
    Object.entries(properties).map(([key, sub]) => [key, valueOf(sub, depth + 1)]),
  );
  return fc.record(model, { requiredKeys: schema.required ?? [], noNullPrototype: true });
}

/**
 * Values that mostly satisfy a request schema: the starting point of every fuzz case. Mostly:
 * the test never trusts this, it asks the route's own validator what it makes of each value.
 */
export function valueOf(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => valueOf(s, depth)));
  if (schema.allOf?.length) return valueOf(Object.assign({}, ...schema.allOf), depth);
  const types = typesOf(schema);
  if (types.length === 0) return depth > 2 ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'string':
          return stringOf(schema);
        case 'integer':
          return numberOf(schema, true);
        case 'number':
          return numberOf(schema, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array': {
          const item = schema.items
            ? valueOf(schema.items, depth + 1)
            : fc.jsonValue({ maxDepth: 1 });
          const minLength = schema.minItems ?? 0;
          const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 5, 5));
          return schema.uniqueItems
            ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
            : fc.array(item, { minLength, maxLength });
        }
        default:
          return objectOf(schema, depth);
      }
    }),
  );
}
