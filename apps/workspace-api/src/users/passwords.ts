import { checkPassword } from '@platform/password-rules';
import { withFieldErrors } from '@platform/errors';
import { PasswordRulesError } from '../errors';
import { hashPassword } from '../domain';

/** Checks the password rules (every broken one reported), then hashes with bcrypt off the request path. */
export async function hashNewPassword(password: string, cost: number): Promise<string> {
  const broken = checkPassword(password);
  if (broken.length > 0) {
    throw withFieldErrors(
      new PasswordRulesError(),
      broken.map((v) => ({ field: 'target_user.password', message: v.message })),
    );
  }
  return hashPassword(password, cost);
}
