import fc from 'fast-check';
import { ANY_TYPE_VALUES, NASTY_STRINGS } from './schema-arbitrary';

type Path = (string | number)[];

/** Placeholders that serialisation turns into what JSON.stringify cannot produce. */
export const PROTO_KEY = '\u0001__proto__';
export const DEEP_MARKER = '\u0001deep';
export const DEEP_LEVELS = 5000;

export type MutationKind =
  | 'wrong-type'
  | 'null'
  | 'missing'
  | 'extra-field'
  | 'proto-key'
  | 'huge-string'
  | 'nasty-string'
  | 'number-edge'
  | 'deep-nesting'
  | 'huge-array';

export interface Mutation {
  kind: MutationKind;
  /** Picks the place in the value (modulo the number of places). */
  at: number;
  value: unknown;
}

const NUMBER_EDGES = [
  -0,
  -1,
  0.5,
  2_147_483_647,
  2_147_483_648,
  -2_147_483_649,
  1e21,
  1e-7,
  Number.MAX_SAFE_INTEGER + 2,
];
const EXTRA_KEYS = [
  'extra',
  '',
  ' ',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'ünïcødé',
  'a'.repeat(1000),
];

export const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('wrong-type' as const),
    at: fc.nat(),
    value: fc.constantFrom(...ANY_TYPE_VALUES),
  }),
  fc.record({ kind: fc.constant('null' as const), at: fc.nat(), value: fc.constant(null) }),
  fc.record({ kind: fc.constant('missing' as const), at: fc.nat(), value: fc.constant(undefined) }),
  fc.record({
    kind: fc.constant('extra-field' as const),
    at: fc.nat(),
    value: fc.tuple(
      fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string()),
      fc.jsonValue({ maxDepth: 2 }),
    ),
  }),
  fc.record({
    kind: fc.constant('proto-key' as const),
    at: fc.nat(),
    value: fc.constantFrom({ polluted: true }, { admin: true }),
  }),
  fc.record({
    kind: fc.constant('huge-string' as const),
    at: fc.nat(),
    value: fc.constantFrom('a', '€', '🎉').map((c) => c.repeat(100_000)),
  }),
  fc.record({
    kind: fc.constant('nasty-string' as const),
    at: fc.nat(),
    value: fc.constantFrom(...NASTY_STRINGS),
  }),
  fc.record({
    kind: fc.constant('number-edge' as const),
    at: fc.nat(),
    value: fc.constantFrom(...NUMBER_EDGES),
  }),
  fc.record({
    kind: fc.constant('deep-nesting' as const),
    at: fc.nat(),
    value: fc.constant(DEEP_MARKER),
  }),
  fc.record({
    kind: fc.constant('huge-array' as const),
    at: fc.nat(),
    value: fc.constant(Array.from({ length: 10_000 }, (_, i) => i)),
  }),
);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every place in a value: the root, each property and each array item, depth first. */
function placesOf(value: unknown, path: Path = []): Path[] {
  const places: Path[] = [path];
  if (isObject(value)) {
    for (const [key, sub] of Object.entries(value)) places.push(...placesOf(sub, [...path, key]));
  } else if (Array.isArray(value)) {
    value.forEach((sub, i) => places.push(...placesOf(sub, [...path, i])));
  }
  return places;
}

function parentOf(root: unknown, path: Path): Record<string | number, unknown> {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  return node;
}

/** The value with the mutation applied (a copy); the root itself may be replaced. */
export function applyMutation(value: unknown, mutation: Mutation): unknown {
  const root = {
    value: value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown),
  };
  const places = placesOf(root.value).map((p) => ['value', ...p]);
  const objects = places.filter((p) =>
    isObject(p.slice(1).reduce<unknown>((v, k) => (v as never)[k], root.value)),
  );
  const path = places[mutation.at % places.length];
  const set = (target: Path, v: unknown) => {
    parentOf(root, target)[target[target.length - 1]] = v;
  };
  switch (mutation.kind) {
    case 'missing': {
      const properties = places.filter((p) => typeof p[p.length - 1] === 'string' && p.length > 1);
      if (properties.length === 0) return undefined;
      const target = properties[mutation.at % properties.length];
      delete parentOf(root, target)[target[target.length - 1]];
      break;
    }
    case 'extra-field':
    case 'proto-key': {
      if (objects.length === 0) {
        set(path, mutation.kind === 'proto-key' ? { [PROTO_KEY]: mutation.value } : {});
        break;
      }
      const target = objects[mutation.at % objects.length];
      const object = target
        .slice(1)
        .reduce<unknown>((v, k) => (v as never)[k], root.value) as Record<string, unknown>;
      const [key, v] =
        mutation.kind === 'proto-key'
          ? [PROTO_KEY, mutation.value]
          : (mutation.value as [string, unknown]);
      object[key] = v;
      break;
    }
    default:
      set(path, mutation.value);
  }
  return root.value;
}

/** JSON text of a (mutated) value, with the placeholders turned into raw JSON. */
export function serialize(value: unknown): string {
  const deep = `${'{"a":'.repeat(DEEP_LEVELS)}1${'}'.repeat(DEEP_LEVELS)}`;
  return (JSON.stringify(value) ?? '')
    .split(JSON.stringify(PROTO_KEY))
    .join('"__proto__"')
    .split(JSON.stringify(DEEP_MARKER))
    .join(deep);
}

/** True when the serialised value holds something a JSON parser must refuse or a schema cannot judge. */
export function hasRawPlaceholders(value: unknown): { proto: boolean; deep: boolean } {
  const text = JSON.stringify(value) ?? '';
  return {
    proto: text.includes(JSON.stringify(PROTO_KEY)),
    deep: text.includes(JSON.stringify(DEEP_MARKER)),
  };
}
