import fastJson from 'fast-json-stringify';
import type { FastifySchema } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema';

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The member of `anyOf: [member, { type: 'null' }]` (either order) that is one plain type. */
function nonNullMember(anyOf: unknown): Schema | null {
  if (!Array.isArray(anyOf) || anyOf.length !== 2 || !anyOf.every(isSchema)) return null;
  const isNull = (s: Schema) => s.type === 'null' && Object.keys(s).length === 1;
  const member = isNull(anyOf[1]) ? anyOf[0] : isNull(anyOf[0]) ? anyOf[1] : null;
  if (member === null || typeof member.type !== 'string') return null;
  return ['anyOf', 'oneOf', 'allOf', '$ref'].some((k) => k in member) ? null : member;
}

/**
 * The schema with every `anyOf` of one type and null (TypeBox's `Type.Union([X, Type.Null()])`)
 * written as that type's schema with `type: [X's type, 'null']`: the same values, the same
 * output. fast-json-stringify picks an `anyOf` branch by running Ajv on the value (three times an
 * event in a listing of thousands), a type list with `typeof`. The route's own schema, and so the
 * OpenAPI document, are left as they are.
 */
export function nullableAsTypeList(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullableAsTypeList);
  if (!isSchema(schema)) return schema;
  const { anyOf, ...rest } = schema;
  const member = nonNullMember(anyOf);
  const merged =
    member !== null && Object.keys(member).every((key) => !(key in rest))
      ? { ...rest, ...member, type: [member.type, 'null'] }
      : schema;
  return Object.fromEntries(
    Object.entries(merged).map(([key, value]) => [key, nullableAsTypeList(value)]),
  );
}

/**
 * Fastify's serializer (fast-json-stringify) over `nullableAsTypeList` of each response schema,
 * compiled on its first use, as the validators are (`validatorCompiler`).
 */
export function serializerCompiler({ schema }: FastifyRouteSchemaDef<FastifySchema>) {
  let serialize: ((data: unknown) => string) | undefined;
  return (data: unknown) =>
    (serialize ??= fastJson(nullableAsTypeList(schema) as Parameters<typeof fastJson>[0]))(data);
}
