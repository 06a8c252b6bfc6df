import { Type, TypeGuard, type Static, type TSchema } from '@sinclair/typebox';
import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';
import type { FieldProblem } from '@platform/errors';
import { isSsoKind, SSO_KIND_NAMES, SSO_KINDS } from './sso-kinds';
import { readSecret, SecretRefSchema, type SecretRef } from './sso-secrets';

/** The fields every provider has, whatever its kind; its settings sit under its kind's name. */
export const SsoProviderFields = {
  name: Type.String({
    pattern: '^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$',
    description: 'lowercase letters, digits and - (part of the sign-in URLs)',
  }),
  kind: Type.Union(
    SSO_KIND_NAMES.map((kind) => Type.Literal(kind)),
    { description: 'The protocol; its settings are the block of the same name' },
  ),
  display_name: Type.String({
    minLength: 1,
    maxLength: 128,
    description: 'The text of the sign-in button',
  }),
  enabled: Type.Boolean({ default: true, description: 'Offered on the sign-in page' }),
  value: Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'A value of the groups claim or attribute',
  }),
};

/** A kind's settings as written: a setting that has a default may be left out. */
function asWritten(schema: TSchema): TSchema {
  if (!TypeGuard.IsObject(schema)) return schema;
  const properties = Object.fromEntries(
    Object.entries(schema.properties).map(([key, property]) => [
      key,
      property.default === undefined || TypeGuard.IsOptional(property)
        ? property
        : Type.Optional(property),
    ]),
  );
  const { additionalProperties, description } = schema;
  return Type.Object(properties, { additionalProperties, description });
}

/**
 * One block per kind, `oidc: {...}`, each with its kind's schema (settings with a default may
 * be left out): a provider gives its own kind's.
 */
export const kindBlocks = (wrap: (schema: TSchema) => TSchema = asWritten) =>
  Object.fromEntries(
    SSO_KIND_NAMES.map((kind) => [kind, Type.Optional(wrap(SSO_KINDS[kind].settings))]),
  );

/** A provider as the file, the console and the API give it; a mapping names its group by id or name. */
export interface ProviderConfig {
  name: string;
  kind: string;
  displayName: string;
  enabled: boolean;
  /** The whole item, for its kind's block (and any other kind's, which is a problem). */
  blocks: Record<string, unknown>;
  mappings: { value: string; groupId?: string; groupName?: string }[];
}

/** TypeBox's message, as a form or an API caller reads it. */
function messageOf(error: ValueError): string {
  if (error.type === ValueErrorType.ObjectRequiredProperty) return 'is required';
  if (error.type === ValueErrorType.ObjectAdditionalProperties) return 'is not a known setting';
  const { description } = error.schema as { description?: string };
  if (error.type === ValueErrorType.Union && description) return `must be ${description}`;
  return error.message;
}

const pathOf = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : `${path}.${part}`), '');

/**
 * Problems of a provider's settings that need no reading: a known kind, its block given and no
 * other kind's, the block matching its kind's schema (every failing field). Fields are the
 * settings file's paths inside the item (`oidc.client_id`). `checkable` is the block, defaults
 * filled, less the settings that break the schema: what the kind's own checks may still look at,
 * so that one test finds an unreachable issuer and a missing client_id at once.
 */
export function settingsProblems(config: Pick<ProviderConfig, 'kind' | 'blocks'>): {
  problems: FieldProblem[];
  checkable: Record<string, unknown> | null;
} {
  const kind = config.kind;
  if (!isSsoKind(kind))
    return {
      problems: [{ field: 'kind', message: `must be one of ${SSO_KIND_NAMES.join(', ')}` }],
      checkable: null,
    };
  const problems: FieldProblem[] = SSO_KIND_NAMES.filter(
    (other) => other !== kind && config.blocks[other] !== undefined,
  ).map((other) => ({ field: other, message: `is for a provider of kind ${other}, not ${kind}` }));
  const block = config.blocks[kind];
  if (block === undefined)
    return { problems: [...problems, { field: kind, message: 'is required' }], checkable: null };
  const schema = SSO_KINDS[kind].settings;
  const filled = Value.Default(schema, structuredClone(block)) as Record<string, unknown>;
  const broken = new Set<string>();
  const told = new Set<string>();
  // One problem per setting, the first found: a missing one is "required", not also "must be text".
  for (const error of Value.Errors(schema, filled)) {
    if (told.has(error.path)) continue;
    told.add(error.path);
    problems.push({ field: `${kind}${pathOf(error.path)}`, message: messageOf(error) });
    broken.add(error.path.split('/')[1] ?? '');
  }
  const isObject = filled !== null && typeof filled === 'object' && !Array.isArray(filled);
  const checkable = isObject
    ? Object.fromEntries(Object.entries(filled).filter(([key]) => !broken.has(key)))
    : null;
  return { problems, checkable };
}

/** Every secret reference in a settings block, with its path: each kind's secrets are found alike. */
export function secretRefsIn(value: unknown, path: string): { path: string; ref: SecretRef }[] {
  if (Value.Check(SecretRefSchema, value)) return [{ path, ref: value }];
  if (Array.isArray(value)) return value.flatMap((item, i) => secretRefsIn(item, `${path}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => secretRefsIn(item, `${path}.${key}`));
  return [];
}

/** The secrets a provider names that cannot be read now. */
export async function secretProblems(kind: string, settings: unknown): Promise<FieldProblem[]> {
  const read = await Promise.all(
    secretRefsIn(settings, kind).map(async ({ path, ref }) => ({
      path,
      secret: await readSecret(ref),
    })),
  );
  return read.flatMap(({ path, secret }) =>
    'problem' in secret ? [{ field: path, message: secret.problem }] : [],
  );
}

/** The kind's own checks (the provider reached, its answers consistent), under the kind's block. */
export async function kindProblems(kind: string, settings: object): Promise<FieldProblem[]> {
  if (!isSsoKind(kind)) return [];
  const entry = SSO_KINDS[kind] as { check?: (s: object) => Promise<FieldProblem[]> };
  if (!entry.check) return [];
  const problems = await entry
    .check(settings)
    .catch((error: unknown) => [
      { field: kind, message: `could not be checked (${(error as Error).message})` },
    ]);
  return problems.map((p) => ({ ...p, field: `${kind}.${p.field}` }));
}

/** Canonical JSON (keys sorted): two settings blocks are the same when these are equal. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

export type SsoProviderName = Static<typeof SsoProviderFields.name>;
