import { Type } from '@sinclair/typebox';
import { IdSchema, toWireId } from '@platform/schemas';
import {
  GROUP_POLICY_SWITCHES,
  type GroupImagesService,
  type GroupsService,
  type MembershipsService,
} from '../../groups';
import type { ImagesService } from '../../images';
import { sendPage } from '../../web';
import { type AdminSection, may, personOf } from '../admin-context';
import { policyInput } from './policy-fields';
import { DoneQuery, noticeOf, permissionsIn, wholeNumber } from './section-forms';
import { groupPage, groupsPage, MEMBERS_PAGE_SIZE } from './groups.views';

const NOTICES = {
  created: 'The group was created.',
  saved: 'The changes were saved.',
  joined: 'The member was added.',
  left: 'The member was removed.',
  allowed: 'The workspace was added to Allowed Workspaces.',
  disallowed: 'The workspace was removed from Allowed Workspaces.',
  deleted: 'The group was deleted.',
};
const GroupParams = Type.Object({ groupId: IdSchema });
const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));
const GroupForm = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    description: Text(2000),
    priority: Text(10),
    max_kasms_per_user: Text(10),
  },
  { additionalProperties: true },
);
type GroupFormBody = typeof GroupForm.static;

/** The form's fields as create_group and update_group take them; blank leaves a number unset. */
function groupInput(body: GroupFormBody & Record<string, unknown>) {
  return {
    name: body.name,
    description: body.description ?? '',
    priority: wholeNumber(body.priority, 'priority', undefined),
    max_kasms_per_user: wholeNumber(body.max_kasms_per_user, 'max_kasms_per_user', undefined),
    permissions: permissionsIn(body),
    ...policyInput<Parameters<GroupsService['update']>[0]>(body, GROUP_POLICY_SWITCHES),
  };
}
const done = (groupId: string, what: string) => `/admin/groups/${toWireId(groupId)}?done=${what}`;

export interface GroupsSectionDeps {
  groups: GroupsService;
  memberships: MembershipsService;
  groupImages: GroupImagesService;
  images: ImagesService;
}

/** Groups: members, Allowed Workspaces, session limit, permissions, priority. */
export function groupsSection({
  groups,
  memberships,
  groupImages,
  images,
}: GroupsSectionDeps): AdminSection {
  return {
    id: 'groups',
    title: 'Groups',
    viewPermission: 'groups.view',
    routes: async (app) => {
      app.get('/', { schema: { hide: true, querystring: DoneQuery } }, async (request, reply) => {
        const page = groupsPage(
          personOf(request),
          await groups.list(),
          noticeOf(NOTICES, request.query.done),
        );
        return sendPage(reply, page);
      });

      app.post(
        '/create',
        {
          config: { permission: 'groups.create', audit: 'group', operation: 'create_group' },
          schema: { hide: true, body: GroupForm },
        },
        async (request, reply) => {
          const group = await groups.create(groupInput(request.body), personOf(request).grant);
          return reply.redirect(done(group.id, 'created'), 303);
        },
      );

      app.get(
        '/:groupId',
        {
          schema: {
            hide: true,
            params: GroupParams,
            querystring: Type.Composite([
              DoneQuery,
              Type.Object({ page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })) }),
            ]),
          },
        },
        async (request, reply) => {
          const person = personOf(request);
          const group_id = request.params.groupId;
          const page = request.query.page ?? 0;
          const [group, members, allowed, all] = await Promise.all([
            groups.find(group_id),
            groups.members({ target_group: { group_id }, page, page_size: MEMBERS_PAGE_SIZE }),
            may(person, 'images.view') ? groupImages.list(group_id) : Promise.resolve(null),
            may(person, 'images.view') && may(person, 'groups.modify')
              ? images.list()
              : Promise.resolve([]),
          ]);
          const notice = noticeOf(NOTICES, request.query.done);
          return sendPage(reply, groupPage(person, { group, members, page, allowed, all, notice }));
        },
      );

      app.post(
        '/:groupId/update',
        {
          config: { permission: 'groups.modify', audit: 'group', operation: 'update_group' },
          schema: { hide: true, params: GroupParams, body: GroupForm },
        },
        async (request, reply) => {
          const input = { group_id: request.params.groupId, ...groupInput(request.body) };
          const group = await groups.update(input, personOf(request).grant);
          return reply.redirect(done(group.id, 'saved'), 303);
        },
      );

      app.post(
        '/:groupId/delete',
        {
          config: { permission: 'groups.delete', audit: 'group', operation: 'delete_group' },
          schema: { hide: true, params: GroupParams },
        },
        async (request, reply) => {
          await groups.remove(request.params.groupId, true, personOf(request).grant);
          return reply.redirect('/admin/groups?done=deleted', 303);
        },
      );

      const MemberForm = Type.Object({ username: Type.String({ minLength: 1, maxLength: 255 }) });
      app.post(
        '/:groupId/members/add',
        {
          config: { permission: 'groups.modify', audit: 'group', operation: 'add_user_group' },
          schema: { hide: true, params: GroupParams, body: MemberForm },
        },
        async (request, reply) => {
          const { groupId } = request.params;
          await memberships.add(
            { user: { username: request.body.username }, groupId },
            personOf(request).grant,
          );
          return reply.redirect(done(groupId, 'joined'), 303);
        },
      );
      app.post(
        '/:groupId/members/remove',
        {
          config: { permission: 'groups.modify', audit: 'group', operation: 'remove_user_group' },
          schema: { hide: true, params: GroupParams, body: Type.Object({ user_id: IdSchema }) },
        },
        async (request, reply) => {
          const { groupId } = request.params;
          await memberships.remove(
            { user: { user_id: request.body.user_id }, groupId },
            personOf(request).grant,
          );
          return reply.redirect(done(groupId, 'left'), 303);
        },
      );

      const ImageForm = Type.Object({ image_id: IdSchema });
      for (const [action, what] of [
        ['add', 'allowed'],
        ['remove', 'disallowed'],
      ] as const) {
        app.post(
          `/:groupId/workspaces/${action}`,
          {
            config: {
              permission: 'groups.modify',
              audit: 'group',
              operation: action === 'add' ? 'add_images_group' : 'remove_images_group',
            },
            schema: { hide: true, params: GroupParams, body: ImageForm },
          },
          async (request, reply) => {
            const target = { groupId: request.params.groupId, imageId: request.body.image_id };
            await (action === 'add' ? groupImages.add(target) : groupImages.remove(target));
            return reply.redirect(done(request.params.groupId, what), 303);
          },
        );
      }
    },
  };
}
