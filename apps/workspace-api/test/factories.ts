import { randomBytes } from 'node:crypto';

export const VALID_PASSWORD = 'Corr3ct-horse';

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
