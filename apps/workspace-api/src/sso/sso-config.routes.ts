import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { API_KEY_SECURITY, EmptySchema, errorResponses } from '../api';
import {
  configOf,
  SsoProviderBodySchema,
  SsoProviderEnvelopeSchema,
  SsoProvidersSchema,
  SsoTestSchema,
  TargetSsoProviderBodySchema,
} from './sso-config.schemas';
import type { SsoConfigService } from './sso-config.service';

const tags = ['settings'];
const security = API_KEY_SECURITY;
const write = {
  permission: 'settings.modify',
  audit: 'sso_provider',
  auditInChange: true,
} as const;

/** Identity providers over the API: Kasm configures them in its admin UI only, so these are ours. */
export const ssoConfigRoutes: FastifyPluginAsyncTypebox<{ ssoConfig: SsoConfigService }> = async (
  app,
  { ssoConfig },
) => {
  app.post(
    '/create_sso_provider',
    {
      config: write,
      schema: {
        tags,
        security,
        summary: 'Add an identity provider (OpenID Connect, …) with its group mappings',
        body: SsoProviderBodySchema,
        response: { 200: SsoProviderEnvelopeSchema, ...errorResponses(409) },
      },
    },
    async (request) => {
      const config = configOf(request.body.target_sso_provider);
      await ssoConfig.create(config, request.audit);
      return { sso_provider: await ssoConfig.find(config.name) };
    },
  );

  app.post(
    '/get_sso_providers',
    {
      config: { permission: 'settings.view' },
      schema: {
        tags,
        security,
        summary: 'List identity providers by name (secrets appear only as their references)',
        response: { 200: SsoProvidersSchema, ...errorResponses() },
      },
    },
    async () => ({ sso_providers: await ssoConfig.list() }),
  );

  app.post(
    '/update_sso_provider',
    {
      config: write,
      schema: {
        tags,
        security,
        summary: "Replace an identity provider's settings and group mappings (found by name)",
        body: SsoProviderBodySchema,
        response: { 200: SsoProviderEnvelopeSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const config = configOf(request.body.target_sso_provider);
      await ssoConfig.update(config, request.audit);
      return { sso_provider: await ssoConfig.find(config.name) };
    },
  );

  app.post(
    '/delete_sso_provider',
    {
      config: write,
      schema: {
        tags,
        security,
        summary: 'Remove an identity provider; its users stay, with no way to sign in through it',
        body: TargetSsoProviderBodySchema,
        response: { 200: EmptySchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      await ssoConfig.remove(request.body.target_sso_provider.name, request.audit);
      return {};
    },
  );

  app.post(
    '/test_sso_provider',
    {
      // Saves nothing: no event (its permission is a write's, for it reads secrets and calls out).
      config: { permission: 'settings.modify', audit: false },
      schema: {
        tags,
        security,
        summary:
          'Test a configuration without saving it: every problem at once (schema, secrets, provider reached, groups)',
        body: SsoProviderBodySchema,
        response: { 200: SsoTestSchema, ...errorResponses() },
      },
    },
    async (request) => {
      const problems = await ssoConfig.test(configOf(request.body.target_sso_provider));
      return { ok: problems.length === 0, problems };
    },
  );
};
