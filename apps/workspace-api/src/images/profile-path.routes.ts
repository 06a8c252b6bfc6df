import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IdSchema, toWireId } from '@platform/schemas';
import type { ImageRow } from './images.repository';
import { API_KEY_SECURITY, errorResponses } from '../api';
import { ProfilePathSchema, TargetImageBodySchema } from './images.schemas';
import type { ImagesService } from './images.service';

const ProfilePathResponseSchema = Type.Object({
  image_id: Type.String(),
  name: Type.String(),
  persistent_profile_path: Type.String({
    description: '"" when the workspace keeps no persistent profile',
  }),
});
const SetProfilePathBodySchema = Type.Object({
  target_image: Type.Object({ image_id: IdSchema, persistent_profile_path: ProfilePathSchema }),
});

const toProfilePath = (image: ImageRow) => ({
  image_id: toWireId(image.id),
  name: image.name,
  persistent_profile_path: image.persistentProfilePath,
});

const tags = ['settings'];
const security = API_KEY_SECURITY;

/** The workspace setting on its own, under settings permissions; update_image changes it the same way. */
export const profilePathRoutes: FastifyPluginAsyncTypebox<{ images: ImagesService }> = async (
  app,
  { images },
) => {
  app.post(
    '/get_persistent_profile_path',
    {
      config: { permission: 'settings.view' },
      schema: {
        tags,
        security,
        summary: "A workspace's persistent profile path",
        body: TargetImageBodySchema,
        response: { 200: ProfilePathResponseSchema, ...errorResponses(404) },
      },
    },
    async (request) => toProfilePath(await images.find(request.body.target_image.image_id)),
  );

  app.post(
    '/set_persistent_profile_path',
    {
      config: { permission: 'settings.modify', audit: 'image', auditInChange: true },
      schema: {
        tags,
        security,
        summary:
          'Set a workspace\'s persistent profile path ("" for none); the rules of update_image apply',
        body: SetProfilePathBodySchema,
        response: { 200: ProfilePathResponseSchema, ...errorResponses(404) },
      },
    },
    async (request) =>
      toProfilePath(await images.update(request.body.target_image, undefined, request.audit)),
  );
};
