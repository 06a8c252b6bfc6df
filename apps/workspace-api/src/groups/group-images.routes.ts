import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ImagesSchema, toImageResponse } from '../images';
import { API_KEY_SECURITY, EmptySchema, errorResponses } from '../api';
import type { GroupImagesService } from './group-images.service';
import { GroupImageBodySchema, TargetGroupBodySchema } from './groups.schemas';

const tags = ['groups'];
const security = API_KEY_SECURITY;

export const groupImagesRoutes: FastifyPluginAsyncTypebox<{
  groupImages: GroupImagesService;
}> = async (app, { groupImages }) => {
  app.post(
    '/get_images_group',
    {
      config: { permission: 'images.view' },
      schema: {
        tags,
        security,
        summary: "A group's Allowed Workspaces",
        body: TargetGroupBodySchema,
        response: { 200: ImagesSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({
      images: (await groupImages.list(request.body.target_group.group_id)).map(toImageResponse),
    }),
  );

  app.post(
    '/add_images_group',
    {
      config: { permission: 'groups.modify', audit: 'group', auditInChange: true },
      schema: {
        tags,
        security,
        summary: "Add a workspace to a group's Allowed Workspaces (409 when already there)",
        body: GroupImageBodySchema,
        response: { 200: EmptySchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      await groupImages.add(
        {
          groupId: request.body.target_group.group_id,
          imageId: request.body.target_image.image_id,
        },
        request.audit,
      );
      return {};
    },
  );

  app.post(
    '/remove_images_group',
    {
      config: { permission: 'groups.modify', audit: 'group', auditInChange: true },
      schema: {
        tags,
        security,
        summary: "Take a workspace off a group's Allowed Workspaces (the workspace itself stays)",
        body: GroupImageBodySchema,
        response: { 200: EmptySchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      await groupImages.remove(
        {
          groupId: request.body.target_group.group_id,
          imageId: request.body.target_image.image_id,
        },
        request.audit,
      );
      return {};
    },
  );
};
