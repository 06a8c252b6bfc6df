export { checkPassword, MAX_PASSWORD_BYTES, PASSWORD_RULES } from './password-rules';
export type { PasswordRule, PasswordViolation } from './password-rules';
