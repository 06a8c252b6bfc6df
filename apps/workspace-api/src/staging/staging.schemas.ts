import { Type, type Static } from '@sinclair/typebox';
import { IdSchema, TimestampSchema } from '@platform/schemas';

/** The rules of each staging setting, shared by the operations and the settings file. */
export const StagingFields = {
  num_sessions: Type.Integer({
    minimum: 0,
    maximum: 100,
    description: 'Sessions to keep started and unassigned (0 keeps the config and stages none)',
  }),
  expiration: Type.Number({
    exclusiveMinimum: 0,
    maximum: 8760,
    description:
      'Hours a staged session waits for a user before it is replaced, as Kasm counts them (0.5 = 30 minutes)',
  }),
};

export const StagingConfigSchema = Type.Object({
  staging_config_id: Type.String(),
  zone_id: Type.String(),
  image_id: Type.String(),
  num_sessions: Type.Integer(),
  expiration: Type.Number(),
  num_staged: Type.Integer({ description: 'Sessions running and waiting for a user now' }),
  num_starting: Type.Integer({ description: 'Staged sessions still starting' }),
  created: TimestampSchema,
  updated: TimestampSchema,
});
export type StagingConfigResponse = Static<typeof StagingConfigSchema>;
export const StagingConfigEnvelopeSchema = Type.Object({ staging_config: StagingConfigSchema });
export const StagingConfigsSchema = Type.Object({
  staging_configs: Type.Array(StagingConfigSchema),
});

export const CreateStagingConfigBodySchema = Type.Object({
  target_staging_config: Type.Object({
    zone_id: IdSchema,
    image_id: IdSchema,
    num_sessions: StagingFields.num_sessions,
    expiration: StagingFields.expiration,
  }),
});
export type CreateStagingConfigInput = Static<
  typeof CreateStagingConfigBodySchema
>['target_staging_config'];

export const UpdateStagingConfigBodySchema = Type.Object({
  target_staging_config: Type.Object({
    staging_config_id: IdSchema,
    num_sessions: Type.Optional(StagingFields.num_sessions),
    expiration: Type.Optional(StagingFields.expiration),
  }),
});
export type UpdateStagingConfigInput = Static<
  typeof UpdateStagingConfigBodySchema
>['target_staging_config'];

export const TargetStagingConfigBodySchema = Type.Object({
  target_staging_config: Type.Object({ staging_config_id: IdSchema }),
});
