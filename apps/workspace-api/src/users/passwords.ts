import bcrypt from 'bcrypt';
import { checkPassword } from '@platform/password-rules';
import { withFieldErrors } from '@platform/errors';
import { PasswordRulesError } from '../errors';

/** Checks the password rules (every broken one reported), then hashes with async bcrypt. */
export async function hashNewPassword(password: string, cost: number): Promise<string> {
  const broken = checkPassword(password);
  if (broken.length > 0) {
    throw withFieldErrors(
      new PasswordRulesError(),
      broken.map((v) => ({ field: 'target_user.password', message: v.message })),
    );
  }
  return bcrypt.hash(password, cost);
}
