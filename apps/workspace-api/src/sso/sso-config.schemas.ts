import { Type, type Static } from '@sinclair/typebox';
import { IdSchema, TimestampSchema } from '@platform/schemas';
import type { ProviderConfig } from './sso-config';
import { kindBlocks, SsoProviderFields } from './sso-config';

/**
 * A kind's block as the operations take it: any object, checked against its kind's schema by the
 * service, so that one answer (a 400 or the test's report) names every problem.
 */
const AnyBlock = () => Type.Record(Type.String(), Type.Unknown());

const MappingSchema = Type.Object(
  { value: SsoProviderFields.value, group_id: IdSchema },
  { additionalProperties: false },
);

export const SsoProviderInputSchema = Type.Object(
  {
    name: SsoProviderFields.name,
    kind: Type.String({
      minLength: 1,
      maxLength: 16,
      description: SsoProviderFields.kind.description,
    }),
    display_name: SsoProviderFields.display_name,
    enabled: Type.Optional(SsoProviderFields.enabled),
    ...kindBlocks(AnyBlock),
    group_mappings: Type.Optional(Type.Array(MappingSchema, { maxItems: 500 })),
  },
  { additionalProperties: false },
);
export type SsoProviderInput = Static<typeof SsoProviderInputSchema>;

export const SsoProviderBodySchema = Type.Object({ target_sso_provider: SsoProviderInputSchema });
export const TargetSsoProviderBodySchema = Type.Object({
  target_sso_provider: Type.Object({ name: SsoProviderFields.name }),
});

export const SsoProviderSchema = Type.Object({
  name: Type.String(),
  kind: Type.String(),
  display_name: Type.String(),
  enabled: Type.Boolean(),
  ...kindBlocks(AnyBlock),
  group_mappings: Type.Array(
    Type.Object({ value: Type.String(), group_id: IdSchema, group_name: Type.String() }),
  ),
  updated: TimestampSchema,
});
export const SsoProviderEnvelopeSchema = Type.Object({ sso_provider: SsoProviderSchema });
export const SsoProvidersSchema = Type.Object({ sso_providers: Type.Array(SsoProviderSchema) });

export const SsoTestSchema = Type.Object({
  ok: Type.Boolean({ description: 'True when no problem was found' }),
  problems: Type.Array(Type.Object({ field: Type.String(), message: Type.String() })),
});

/** An operation's provider as the service takes it. */
export function configOf(input: SsoProviderInput): ProviderConfig {
  const { name, kind, display_name, enabled, group_mappings, ...blocks } = input;
  return {
    name,
    kind,
    displayName: display_name.trim(),
    enabled: enabled ?? true,
    blocks,
    mappings: (group_mappings ?? []).map((m) => ({ value: m.value, groupId: m.group_id })),
  };
}
