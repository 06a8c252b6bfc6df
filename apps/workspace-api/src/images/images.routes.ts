import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { API_KEY_SECURITY, EmptySchema, errorResponses, TargetUserBodySchema } from '../api';
import { toImageResponse } from './image-response';
import {
  AccessSchema,
  CheckAccessBodySchema,
  ImageEnvelopeSchema,
  ImagesSchema,
  TargetImageBodySchema,
  UpdateImageBodySchema,
} from './images.schemas';
import type { ImagesService } from './images.service';

const tags = ['workspaces'];
const security = API_KEY_SECURITY;

export const imagesRoutes: FastifyPluginAsyncTypebox<{ images: ImagesService }> = async (
  app,
  { images },
) => {
  app.post(
    '/get_images',
    {
      config: { permission: 'images.view' },
      schema: {
        tags,
        security,
        summary: 'List installed workspaces',
        response: { 200: ImagesSchema, ...errorResponses() },
      },
    },
    async () => ({ images: (await images.list()).map(toImageResponse) }),
  );

  app.post(
    '/update_image',
    {
      config: { permission: 'images.modify', audit: 'image', auditInChange: true },
      schema: {
        tags,
        security,
        summary:
          'Enable or disable a workspace; change its friendly name, cores, memory, persistent profile path',
        body: UpdateImageBodySchema,
        response: { 200: ImageEnvelopeSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({
      image: toImageResponse(
        await images.update(request.body.target_image, request.apiKey ?? undefined, request.audit),
      ),
    }),
  );

  app.post(
    '/delete_image',
    {
      config: { permission: 'images.modify', audit: 'image', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'Delete an installed workspace; it leaves every group list',
        body: TargetImageBodySchema,
        response: { 200: EmptySchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      await images.remove(request.body.target_image.image_id, request.audit);
      return {};
    },
  );

  app.post(
    '/get_user_images',
    {
      config: { permission: 'images.view' },
      schema: {
        tags,
        security,
        summary: "The workspaces a user may use: enabled and on one of their groups' lists",
        body: TargetUserBodySchema,
        response: { 200: ImagesSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({
      images: (await images.allowedFor(request.body.target_user)).map(toImageResponse),
    }),
  );

  app.post(
    '/check_image_access',
    {
      config: { permission: 'images.view' },
      schema: {
        tags,
        security,
        summary: 'Whether a user may use a workspace, and why',
        body: CheckAccessBodySchema,
        response: { 200: AccessSchema, ...errorResponses(404) },
      },
    },
    async (request) =>
      images.checkAccess(request.body.target_user, request.body.target_image.image_id),
  );
};
