import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { API_KEY_SECURITY, EmptySchema, errorResponses } from '../api';
import { toStagingConfigResponse } from './staging-response';
import {
  CreateStagingConfigBodySchema,
  StagingConfigEnvelopeSchema,
  StagingConfigsSchema,
  TargetStagingConfigBodySchema,
  UpdateStagingConfigBodySchema,
} from './staging.schemas';
import type { StagingService } from './staging.service';

const tags = ['settings'];
const security = API_KEY_SECURITY;

export const stagingRoutes: FastifyPluginAsyncTypebox<{ staging: StagingService }> = async (
  app,
  { staging },
) => {
  app.post(
    '/create_staging_config',
    {
      config: { permission: 'settings.modify', audit: 'staging_config', auditInChange: true },
      schema: {
        tags,
        security,
        summary:
          'Keep sessions of a workspace started and unassigned in a zone, for instant launches',
        body: CreateStagingConfigBodySchema,
        response: { 200: StagingConfigEnvelopeSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => ({
      staging_config: toStagingConfigResponse(
        await staging.create(request.body.target_staging_config, request.audit),
      ),
    }),
  );

  app.post(
    '/get_staging_configs',
    {
      config: { permission: 'settings.view' },
      schema: {
        tags,
        security,
        summary: 'List staging configs, each with how many sessions wait for a user now',
        response: { 200: StagingConfigsSchema, ...errorResponses() },
      },
    },
    async () => ({ staging_configs: (await staging.list()).map(toStagingConfigResponse) }),
  );

  app.post(
    '/update_staging_config',
    {
      config: { permission: 'settings.modify', audit: 'staging_config', auditInChange: true },
      schema: {
        tags,
        security,
        summary:
          "Change a staging config's number of sessions or expiration; only the fields present change",
        body: UpdateStagingConfigBodySchema,
        response: { 200: StagingConfigEnvelopeSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({
      staging_config: toStagingConfigResponse(
        await staging.update(request.body.target_staging_config, request.audit),
      ),
    }),
  );

  app.post(
    '/delete_staging_config',
    {
      config: { permission: 'settings.modify', audit: 'staging_config', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'Delete a staging config; its sessions no user took are destroyed',
        body: TargetStagingConfigBodySchema,
        response: { 200: EmptySchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      await staging.remove(request.body.target_staging_config.staging_config_id, request.audit);
      return {};
    },
  );
};
