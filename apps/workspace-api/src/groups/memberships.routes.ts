import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IdSchema } from '@platform/schemas';
import { API_KEY_SECURITY, EmptySchema, errorResponses, TargetUserSchema } from '../api';
import type { MembershipsService } from './memberships.service';

const MembershipBodySchema = Type.Object({
  target_user: TargetUserSchema,
  target_group: Type.Object({ group_id: IdSchema }),
});

const schema = (summary: string) => ({
  tags: ['groups'],
  security: API_KEY_SECURITY,
  summary,
  body: MembershipBodySchema,
  response: { 200: EmptySchema, ...errorResponses(404, 409) },
});

export const membershipsRoutes: FastifyPluginAsyncTypebox<{
  memberships: MembershipsService;
}> = async (app, { memberships }) => {
  app.post(
    '/add_user_group',
    {
      config: { permission: 'groups.modify', audit: 'user', auditInChange: true },
      schema: schema('Add a user to a group'),
    },
    async (request) => {
      await memberships.add(
        {
          user: request.body.target_user,
          groupId: request.body.target_group.group_id,
        },
        request.apiKey ?? undefined,
        request.audit,
      );
      return {};
    },
  );

  app.post(
    '/remove_user_group',
    {
      config: { permission: 'groups.modify', audit: 'user', auditInChange: true },
      schema: schema('Remove a user from a group (never from All Users)'),
    },
    async (request) => {
      await memberships.remove(
        {
          user: request.body.target_user,
          groupId: request.body.target_group.group_id,
        },
        request.apiKey ?? undefined,
        request.audit,
      );
      return {};
    },
  );
};
