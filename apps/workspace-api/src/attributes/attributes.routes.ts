import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { API_KEY_SECURITY, errorResponses, TargetUserBodySchema } from '../api';
import { AttributesEnvelopeSchema, UpdateAttributesBodySchema } from './attributes.schemas';
import type { AttributesService } from './attributes.service';

const tags = ['users'];
const security = API_KEY_SECURITY;

export const attributesRoutes: FastifyPluginAsyncTypebox<{
  attributes: AttributesService;
}> = async (app, { attributes }) => {
  app.post(
    '/get_attributes',
    {
      config: { permission: 'users.view' },
      schema: {
        tags,
        security,
        summary: "A user's attributes: default workspace and preferences",
        body: TargetUserBodySchema,
        response: { 200: AttributesEnvelopeSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({
      user_attributes: await attributes.get(request.body.target_user),
    }),
  );

  app.post(
    '/update_user_attributes',
    {
      config: { permission: 'users.modify', audit: 'user_attributes', auditInChange: true },
      schema: {
        tags,
        security,
        summary: "Change a user's attributes; only the fields given change",
        body: UpdateAttributesBodySchema,
        response: { 200: AttributesEnvelopeSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({
      user_attributes: await attributes.update(request.body.target_user_attributes, request.audit),
    }),
  );
};
