import { randomBytes } from 'node:crypto';
import type { Harness } from './harness';

export const VALID_PASSWORD = 'Corr3ct-horse';

/** A well-formed id that matches nothing. */
export const UNKNOWN_ID = '11111111111111111111111111111111';

export interface UserInput {
  username: string;
  password?: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
  organization?: string;
  notes?: string;
  locked?: boolean;
  disabled?: boolean;
}

/** A create_user `target_user` with a unique username. */
export function userInput(overrides: Partial<UserInput> = {}): UserInput {
  return {
    username: `user-${randomBytes(4).toString('hex')}`,
    password: VALID_PASSWORD,
    first_name: 'Ada',
    last_name: 'Lovelace',
    organization: 'Analytical Engines',
    ...overrides,
  };
}

/** create_user (answering the user) and authenticate, through the API of the harness `h()` gives. */
export function userActions(h: () => Harness) {
  return {
    createUser: async (overrides: Partial<UserInput> = {}) =>
      (await h().call('create_user', { target_user: userInput(overrides) })).json().user,
    login: (username: string, password = VALID_PASSWORD) =>
      h().call('authenticate', { username, password }, null),
  };
}
