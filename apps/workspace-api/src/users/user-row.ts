import { toTimestamp, toWireId } from '@platform/schemas';
import type { UserResponse } from './users.schemas';

/**
 * A user as every query of the users repository answers it: the row (never its password hash or
 * failed-login count) and its groups in membership order.
 */
export interface UserRow {
  id: string;
  username: string;
  firstName: string;
  lastName: string;
  phone: string;
  organization: string;
  notes: string;
  locked: boolean;
  disabled: boolean;
  realm: string;
  createdAt: Date;
  lastSession: Date | null;
  passwordSetDate: Date | null;
  groups: { id: string; name: string }[];
}

/** The one wire form of a user. */
export function toUserResponse(user: UserRow): UserResponse {
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
    groups: user.groups.map((group) => ({ group_id: toWireId(group.id), name: group.name })),
    created: toTimestamp(user.createdAt),
    last_session: toTimestamp(user.lastSession),
    password_set_date: toTimestamp(user.passwordSetDate),
  };
}
