/** The part of JSON Schema that TypeBox route schemas use. */
export interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  default?: unknown;
  examples?: unknown[];
  hide?: boolean;
}

export const typesOf = (schema: JsonSchema): string[] => {
  if (schema.type !== undefined) return [schema.type].flat();
  if (schema.properties) return ['object'];
  if (schema.items) return ['array'];
  return [];
};

const bound = (schema: JsonSchema, side: 'minimum' | 'maximum') =>
  side === 'minimum'
    ? (schema.minimum ?? schema.exclusiveMinimum)
    : (schema.maximum ?? schema.exclusiveMaximum);

/**
 * Where a request schema accepts input without a bound: strings without maxLength (or a format
 * or pattern that bounds them), arrays without maxItems, numbers without both limits (a database
 * column has them, and a number past them fails there). Each is a way to make the service
 * store or parse whatever a client sends.
 */
export function unboundedInputs(schema: JsonSchema, path = ''): string[] {
  const found: string[] = [];
  for (const sub of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    found.push(...unboundedInputs(sub, path));
  }
  if (schema.const !== undefined || schema.enum !== undefined) return found;
  const types = typesOf(schema);
  const boundedPattern =
    schema.pattern !== undefined &&
    /^\^/.test(schema.pattern) &&
    !/[*+]|\{\d+,\}/.test(schema.pattern);
  if (
    types.includes('string') &&
    schema.maxLength === undefined &&
    !schema.format &&
    !boundedPattern
  ) {
    found.push(`${path || '(root)'}: string without maxLength`);
  }
  if (
    (types.includes('integer') || types.includes('number')) &&
    (bound(schema, 'minimum') === undefined || bound(schema, 'maximum') === undefined)
  ) {
    found.push(`${path || '(root)'}: number without minimum and maximum`);
  }
  if (types.includes('array')) {
    if (schema.maxItems === undefined) found.push(`${path || '(root)'}: array without maxItems`);
    if (schema.items) found.push(...unboundedInputs(schema.items, `${path}[]`));
  }
  for (const [key, sub] of Object.entries(schema.properties ?? {})) {
    found.push(...unboundedInputs(sub, path ? `${path}.${key}` : key));
  }
  if (typeof schema.additionalProperties === 'object') {
    found.push(...unboundedInputs(schema.additionalProperties, `${path}.*`));
  }
  return found;
}
