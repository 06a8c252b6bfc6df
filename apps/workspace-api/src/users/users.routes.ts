import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { API_KEY_SECURITY, EmptySchema, errorResponses, TargetUserBodySchema } from '../api';
import { everyUserJson } from './every-user';
import { toUserResponse } from './user-row';
import {
  CreateUserBodySchema,
  DeleteUserBodySchema,
  GetUsersBodySchema,
  UpdateUserBodySchema,
  UserEnvelopeSchema,
  userWithKasmsEnvelope,
  UsersPageSchema,
  type UsersPage,
} from './users.schemas';
import type { UserSessionsListing, UsersService } from './users.service';

const tags = ['users'];
const security = API_KEY_SECURITY;

export const usersRoutes: FastifyPluginAsyncTypebox<{
  users: UsersService;
  sessions: UserSessionsListing;
}> = async (app, { users, sessions }) => {
  const UserWithKasmsEnvelopeSchema = userWithKasmsEnvelope(sessions.schema);
  app.post(
    '/create_user',
    {
      config: { permission: 'users.create', audit: 'user', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'Create a user (joins All Users)',
        body: CreateUserBodySchema,
        response: { 200: UserEnvelopeSchema, ...errorResponses(409) },
      },
    },
    async (request) => ({
      user: toUserResponse(await users.create(request.body.target_user, request.audit)),
    }),
  );

  app.post(
    '/get_user',
    {
      config: { permission: 'users.view' },
      schema: {
        tags,
        security,
        summary: 'Get one user by user_id or username',
        body: TargetUserBodySchema,
        response: { 200: UserWithKasmsEnvelopeSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const target = request.body.target_user;
      // By user_id the user and their sessions are read side by side; by username, in turn.
      const [user, byId] = await Promise.all([
        users.find(target),
        target.user_id === undefined ? null : sessions.liveOf(target.user_id),
      ]);
      const kasms = byId ?? (await sessions.liveOf(user.id));
      // Not `{ ...toUserResponse(user), kasms }`: V8 gives every object built by that spread a
      // map of its own, and the serializer, meeting a new shape each time, took 5–6 µs instead of
      // 0.9 (docs/decisions/0001-users-statement-reads-groups.md).
      return { user: Object.assign(toUserResponse(user), { kasms }) };
    },
  );

  app.post(
    '/get_users',
    {
      config: { permission: 'users.view' },
      schema: {
        tags,
        security,
        summary:
          'List users, filtered and sorted: every one without paging fields, as Kasm does; else paged (page or keyset cursor)',
        body: GetUsersBodySchema,
        response: { 200: UsersPageSchema, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const listing = await users.list(request.body);
      if (!listing.paged) {
        // The stream writes UsersPageSchema's JSON itself, batch by batch.
        const body = (await everyUserJson(listing.batches)) as unknown as UsersPage;
        return reply.type('application/json').send(body);
      }
      return {
        users: listing.result.users.map(toUserResponse),
        total: listing.result.total,
        page: listing.page,
        page_size: listing.pageSize,
        next_cursor: listing.result.nextCursor,
      };
    },
  );

  app.post(
    '/update_user',
    {
      config: { permission: 'users.modify', audit: 'user', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'Change the fields present; a new password ends every login session',
        body: UpdateUserBodySchema,
        response: { 200: UserEnvelopeSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => ({
      user: toUserResponse(
        await users.update(request.body.target_user, request.apiKey ?? undefined, request.audit),
      ),
    }),
  );

  app.post(
    '/delete_user',
    {
      config: { permission: 'users.delete', audit: 'user', auditInChange: true },
      schema: {
        tags,
        security,
        summary: 'Delete a user; needs force while the user has live sessions',
        body: DeleteUserBodySchema,
        response: { 200: EmptySchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      await users.remove(
        request.body.target_user,
        request.body.force ?? false,
        request.apiKey ?? undefined,
        request.audit,
      );
      return {};
    },
  );
};
