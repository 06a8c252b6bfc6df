import type { Harness } from './harness';
import { userInput } from './factories';

/** The system groups' fixed wire ids, as the contract states them. */
export const ALL_USERS = '68d557ac4cac42cca9f31c7c853de0f3';
export const ADMINISTRATORS = 'b578d8e34b3f4a4b8a4f2d2a4c6bb1a1';

/** Creates a group through the API (named "Developers" unless given) and answers it. */
export async function createGroup(h: Harness, target_group: Record<string, unknown> = {}) {
  const res = await h.call('create_group', {
    target_group: { name: 'Developers', ...target_group },
  });
  expect(res.statusCode).toBe(200);
  return res.json().group;
}

/** Creates a user and adds them to the group; answers the user. */
export async function createMember(h: Harness, groupId: string, username?: string) {
  const created = await h.call('create_user', {
    target_user: userInput(username ? { username } : {}),
  });
  const body = created.json();
  // The answer's body in the failure message, should it not be 200.
  expect({ status: created.statusCode, body }).toMatchObject({ status: 200 });
  const { user } = body;
  const added = await h.call('add_user_group', {
    target_user: { user_id: user.user_id },
    target_group: { group_id: groupId },
  });
  expect(added.statusCode).toBe(200);
  return user;
}
