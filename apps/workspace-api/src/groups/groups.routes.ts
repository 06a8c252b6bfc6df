import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { API_KEY_SECURITY, EmptySchema, errorResponses } from '../api';
import { toGroupResponse } from './group-response';
import {
  CreateGroupBodySchema,
  DeleteGroupBodySchema,
  GetUsersGroupBodySchema,
  GroupEnvelopeSchema,
  GroupsSchema,
  GroupUsersPageSchema,
  TargetGroupBodySchema,
  UpdateGroupBodySchema,
} from './groups.schemas';
import type { GroupsService } from './groups.service';
import { toUserResponse } from '../users';

const tags = ['groups'];
const security = API_KEY_SECURITY;

export const groupsRoutes: FastifyPluginAsyncTypebox<{ groups: GroupsService }> = async (
  app,
  { groups },
) => {
  app.post(
    '/create_group',
    {
      config: { permission: 'groups.create', audit: 'group', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'Create a group; names are unique, priority 1–4095 (default 100)',
        body: CreateGroupBodySchema,
        response: { 200: GroupEnvelopeSchema, ...errorResponses(409) },
      },
    },
    async (request) => ({
      group: toGroupResponse(
        await groups.create(request.body.target_group, request.apiKey ?? undefined, request.audit),
      ),
    }),
  );

  app.post(
    '/get_groups',
    {
      config: { permission: 'groups.view' },
      schema: {
        tags,
        security,
        summary: 'List every group by priority',
        response: { 200: GroupsSchema, ...errorResponses() },
      },
    },
    async () => ({ groups: (await groups.list()).map(toGroupResponse) }),
  );

  app.post(
    '/get_group',
    {
      config: { permission: 'groups.view' },
      schema: {
        tags,
        security,
        summary: 'Get one group',
        body: TargetGroupBodySchema,
        response: { 200: GroupEnvelopeSchema, ...errorResponses(404) },
      },
    },
    async (request) => ({
      group: toGroupResponse(await groups.find(request.body.target_group.group_id)),
    }),
  );

  app.post(
    '/update_group',
    {
      config: { permission: 'groups.modify', audit: 'group', auditInChange: true },
      schema: {
        tags,
        security,
        summary:
          'Change the name, description, priority, session limit or permissions present; system groups cannot be renamed',
        description:
          'Permissions granted or taken away must be held by the calling key (global_admin holds all); otherwise 403 FORBIDDEN naming them.',
        body: UpdateGroupBodySchema,
        response: { 200: GroupEnvelopeSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => ({
      group: toGroupResponse(
        await groups.update(request.body.target_group, request.apiKey ?? undefined, request.audit),
      ),
    }),
  );

  app.post(
    '/delete_group',
    {
      config: { permission: 'groups.delete', audit: 'group', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'Delete a group; needs force while it has members; system groups are refused',
        body: DeleteGroupBodySchema,
        response: { 200: EmptySchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      await groups.remove(
        request.body.target_group.group_id,
        request.body.force ?? false,
        request.apiKey ?? undefined,
        request.audit,
      );
      return {};
    },
  );

  app.post(
    '/get_users_group',
    {
      config: { permission: 'groups.view' },
      schema: {
        tags,
        security,
        summary: "A group's members, paged and sorted by username",
        body: GetUsersGroupBodySchema,
        response: { 200: GroupUsersPageSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const { users, total } = await groups.members(request.body);
      return {
        users: users.map(toUserResponse),
        total,
        page: request.body.page,
        page_size: request.body.page_size,
      };
    },
  );
};
