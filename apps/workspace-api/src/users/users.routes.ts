import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { API_KEY_SECURITY, EmptySchema, errorResponses } from '../operations';
import { toKasmResponse } from '../sessions/kasm-response';
import type { SessionsService } from '../sessions/sessions.service';
import { toUserResponse } from './user-response';
import {
  CreateUserBodySchema,
  DeleteUserBodySchema,
  GetUserBodySchema,
  GetUsersBodySchema,
  UpdateUserBodySchema,
  UserEnvelopeSchema,
  UserWithKasmsEnvelopeSchema,
  UsersPageSchema,
} from './users.schemas';
import type { UsersService } from './users.service';

const tags = ['users'];
const security = API_KEY_SECURITY;

export const usersRoutes: FastifyPluginAsyncTypebox<{
  users: UsersService;
  sessions: SessionsService;
}> = async (app, { users, sessions }) => {
  app.post(
    '/create_user',
    {
      config: { permission: 'users.create' },
      schema: {
        tags,
        security,
        summary: 'Create a user (joins All Users)',
        body: CreateUserBodySchema,
        response: { 200: UserEnvelopeSchema, ...errorResponses(409) },
      },
    },
    async (request) => ({ user: toUserResponse(await users.create(request.body.target_user)) }),
  );

  app.post(
    '/get_user',
    {
      config: { permission: 'users.view' },
      schema: {
        tags,
        security,
        summary: 'Get one user by user_id or username',
        body: GetUserBodySchema,
        response: { 200: UserWithKasmsEnvelopeSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const user = await users.findByIdOrUsername(request.body.target_user);
      const kasms = await sessions.listLive(user.id);
      return { user: { ...toUserResponse(user), kasms: kasms.map(toKasmResponse) } };
    },
  );

  app.post(
    '/get_users',
    {
      config: { permission: 'users.view' },
      schema: {
        tags,
        security,
        summary: 'List users: paged, filtered, sorted; keyset paging with cursor',
        body: GetUsersBodySchema,
        response: { 200: UsersPageSchema, ...errorResponses() },
      },
    },
    async (request) => {
      const page = await users.list(request.body);
      return {
        users: page.users.map(toUserResponse),
        total: page.total,
        page: request.body.page,
        page_size: request.body.page_size,
        next_cursor: page.nextCursor,
      };
    },
  );

  app.post(
    '/update_user',
    {
      config: { permission: 'users.modify' },
      schema: {
        tags,
        security,
        summary: 'Change the fields present; a new password ends every login session',
        body: UpdateUserBodySchema,
        response: { 200: UserEnvelopeSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => ({ user: toUserResponse(await users.update(request.body.target_user)) }),
  );

  app.post(
    '/delete_user',
    {
      config: { permission: 'users.delete' },
      schema: {
        tags,
        security,
        summary: 'Delete a user; needs force while the user has live sessions',
        body: DeleteUserBodySchema,
        response: { 200: EmptySchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      await users.remove(request.body.target_user.user_id, request.body.force ?? false);
      return {};
    },
  );
};
