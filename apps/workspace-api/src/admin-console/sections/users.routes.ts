import { Type } from '@sinclair/typebox';
import { IdSchema, toUuid, toWireId } from '@platform/schemas';
import { checkPassword } from '@platform/password-rules';
import type { GroupsService, MembershipsService } from '../../groups';
import { LOGIN_LINK_PREFIX, type LoginsService } from '../../logins';
import { publicProtocol } from '../../domain';
import type { SessionsService } from '../../sessions';
import type { UsersService } from '../../users';
import { sendPage } from '../../web';
import { type AdminSection, may, personOf } from '../admin-context';
import { DoneQuery, noticeOf, ticked } from './section-forms';
import { loginLinkPage, userPage, usersPage, USERS_PAGE_SIZE } from './users.views';

const NOTICES = {
  created: 'The user was created.',
  // Profile folders are not removed with their user (they live on the agents' hosts).
  created_reused:
    "The user was created. A user of this name was deleted before, and that user's profile folders were kept: a workspace whose persistent profile path holds {username} gives them to this user. If this is someone else, move those folders aside on the agents' hosts (under PROFILE_ROOT) before they launch.",
  saved: 'The changes were saved.',
  password: 'The password was set; the user was signed out everywhere.',
  joined: 'The user joined the group.',
  left: 'The user left the group.',
};
const UserParams = Type.Object({ userId: IdSchema });
const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
const ProfileForm = {
  first_name: Text(64),
  last_name: Text(64),
  phone: Text(64),
  organization: Text(64),
  notes: Text(2000),
  locked: Text(10),
  disabled: Text(10),
};
const back = (userId: string, done: string) => `/admin/users/${toWireId(userId)}?done=${done}`;

export interface UsersSectionDeps {
  users: UsersService;
  /** Whether a user of this username was deleted before (the audit trail remembers). */
  usernameDeleted: (username: string) => Promise<boolean>;
  groups: GroupsService;
  memberships: MembershipsService;
  sessions: SessionsService;
  logins: LoginsService;
}

/** Users: search and page through them, create, edit, password, groups, sessions, login link. */
export function usersSection(deps: UsersSectionDeps): AdminSection {
  const { users, groups, memberships, sessions, logins, usernameDeleted } = deps;
  return {
    id: 'users',
    title: 'Users',
    viewPermission: 'users.view',
    routes: async (app) => {
      app.get(
        '/',
        {
          schema: {
            hide: true,
            querystring: Type.Composite([
              DoneQuery,
              Type.Object({ q: Text(255), cursor: Text(1024) }),
            ]),
          },
        },
        async (request, reply) => {
          const { q = '', cursor, done } = request.query;
          const listing = await users.list({
            filters: q.trim() ? [{ id: 'username', value: q.trim() }] : [],
            sort_by: 'username',
            sort_direction: 'asc',
            page_size: USERS_PAGE_SIZE,
            cursor: cursor || undefined,
          });
          if (!listing.paged) throw new Error('a page was asked for');
          const page = usersPage(personOf(request), {
            query: q,
            result: listing.result,
            notice: noticeOf(NOTICES, done),
          });
          return sendPage(reply, page);
        },
      );

      app.post(
        '/create',
        {
          config: { permission: 'users.create', audit: 'user', operation: 'create_user' },
          schema: {
            hide: true,
            body: Type.Object({
              username: Type.String({ minLength: 1, maxLength: 255 }),
              password: Text(1024),
              ...ProfileForm,
            }),
          },
        },
        async (request, reply) => {
          const { password, locked, disabled, ...fields } = request.body;
          const user = await users.create({
            ...fields,
            password: password || undefined,
            locked: ticked(locked),
            disabled: ticked(disabled),
          });
          const reused = await usernameDeleted(user.username);
          return reply.redirect(back(user.id, reused ? 'created_reused' : 'created'), 303);
        },
      );

      // The password rules, checked as the administrator types (admin.js); the form checks again.
      app.post(
        '/password-rules',
        {
          config: { permission: 'users.view' },
          schema: { hide: true, body: Type.Object({ password: Type.String({ maxLength: 1024 }) }) },
        },
        async (request) => ({ unmet: checkPassword(request.body.password).map((v) => v.rule) }),
      );

      app.get(
        '/:userId',
        { schema: { hide: true, params: UserParams, querystring: DoneQuery } },
        async (request, reply) => {
          const person = personOf(request);
          const user = await users.find({ user_id: request.params.userId });
          const [allGroups, live] = await Promise.all([
            may(person, 'groups.view') ? groups.list() : Promise.resolve([]),
            may(person, 'sessions.view') ? sessions.liveOf(user.id) : Promise.resolve(null),
          ]);
          const notice = noticeOf(NOTICES, request.query.done);
          return sendPage(reply, userPage(person, { user, allGroups, live, notice }));
        },
      );

      app.post(
        '/:userId/update',
        {
          config: { permission: 'users.modify', audit: 'user', operation: 'update_user' },
          schema: {
            hide: true,
            params: UserParams,
            body: Type.Object({
              username: Type.String({ minLength: 1, maxLength: 255 }),
              ...ProfileForm,
            }),
          },
        },
        async (request, reply) => {
          const { locked, disabled, ...fields } = request.body;
          const user = await users.update(
            {
              user_id: request.params.userId,
              ...fields,
              locked: ticked(locked),
              disabled: ticked(disabled),
            },
            personOf(request).grant,
          );
          return reply.redirect(back(user.id, 'saved'), 303);
        },
      );

      app.post(
        '/:userId/password',
        {
          config: { permission: 'users.modify', audit: 'user', operation: 'update_user' },
          schema: {
            hide: true,
            params: UserParams,
            body: Type.Object({ password: Type.String({ minLength: 1, maxLength: 1024 }) }),
          },
        },
        async (request, reply) => {
          const user_id = request.params.userId;
          await users.update({ user_id, password: request.body.password }, personOf(request).grant);
          return reply.redirect(back(user_id, 'password'), 303);
        },
      );

      const GroupForm = Type.Object({ group_id: IdSchema });
      for (const [action, done] of [
        ['join', 'joined'],
        ['leave', 'left'],
      ] as const) {
        app.post(
          `/:userId/groups/${action}`,
          {
            config: {
              permission: 'groups.modify',
              audit: 'user',
              operation: action === 'join' ? 'add_user_group' : 'remove_user_group',
            },
            schema: { hide: true, params: UserParams, body: GroupForm },
          },
          async (request, reply) => {
            const target = {
              user: { user_id: request.params.userId },
              groupId: request.body.group_id,
            };
            const grantor = personOf(request).grant;
            if (action === 'join') await memberships.add(target, grantor);
            else await memberships.remove(target, grantor);
            return reply.redirect(back(toUuid(request.params.userId), done), 303);
          },
        );
      }

      // The link is shown once, on the answer to this form: it signs the user in.
      app.post(
        '/:userId/login-link',
        {
          config: { permission: 'users.auth_session', audit: 'user', operation: 'get_login' },
          schema: { hide: true, params: UserParams },
        },
        async (request, reply) => {
          const person = personOf(request);
          const user = await users.find({ user_id: request.params.userId });
          const token = await logins.createLink({ user_id: user.id }, person.grant);
          const url = `${publicProtocol(request)}://${request.host}${LOGIN_LINK_PREFIX}${token}`;
          return sendPage(reply, loginLinkPage(person, user, url));
        },
      );
    },
  };
}
