import { toTimestamp, toWireId } from '@platform/schemas';
import type { Prisma, User } from '../generated/prisma/client';
import type { UserResponse } from './users.schemas';

/** What every user query loads: the row and its groups' ids and names. */
export const USER_WITH_GROUPS = {
  groups: {
    include: { group: { select: { id: true, name: true } } },
    orderBy: { createdAt: 'asc' },
  },
} satisfies Prisma.UserInclude;

export type UserWithGroups = Prisma.UserGetPayload<{ include: typeof USER_WITH_GROUPS }>;

/** What the wire form needs: loaded with USER_WITH_GROUPS, or in one statement by users.repository. */
export type UserView = Pick<User, ViewField> & {
  groups: { group: { id: string; name: string } }[];
};
type ViewField =
  | 'id'
  | 'username'
  | 'firstName'
  | 'lastName'
  | 'phone'
  | 'organization'
  | 'notes'
  | 'locked'
  | 'disabled'
  | 'realm'
  | 'createdAt'
  | 'lastSession'
  | 'passwordSetDate';

/** The wire form of a user; it never carries the password hash or the failed-login count. */
export function toUserResponse(user: UserView): UserResponse {
  return {
    user_id: toWireId(user.id),
    username: user.username,
    first_name: user.firstName,
    last_name: user.lastName,
    phone: user.phone,
    organization: user.organization,
    notes: user.notes,
    locked: user.locked,
    disabled: user.disabled,
    realm: user.realm,
    groups: user.groups.map(({ group }) => ({ group_id: toWireId(group.id), name: group.name })),
    created: toTimestamp(user.createdAt),
    last_session: toTimestamp(user.lastSession),
    password_set_date: toTimestamp(user.passwordSetDate),
  };
}
