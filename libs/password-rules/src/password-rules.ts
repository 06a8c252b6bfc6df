export interface PasswordRule {
  id: 'min_length' | 'max_bytes' | 'uppercase' | 'lowercase' | 'digit' | 'special';
  message: string;
  test: (password: string) => boolean;
}

export interface PasswordViolation {
  rule: PasswordRule['id'];
  message: string;
}

export const MIN_PASSWORD_LENGTH = 8;
/** bcrypt ignores everything past 72 bytes; a longer password would only look stronger. */
export const MAX_PASSWORD_BYTES = 72;

// Unicode-aware: "É" is an uppercase letter, "ß" lowercase, "٣" a digit.
export const PASSWORD_RULES: readonly PasswordRule[] = [
  {
    id: 'min_length',
    message: `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`,
    // Count code points, not UTF-16 units, so an emoji is one character.
    test: (password) => [...password].length >= MIN_PASSWORD_LENGTH,
  },
  {
    id: 'max_bytes',
    message: `Password must be at most ${MAX_PASSWORD_BYTES} bytes long (UTF-8)`,
    test: (password) => Buffer.byteLength(password, 'utf8') <= MAX_PASSWORD_BYTES,
  },
  {
    id: 'uppercase',
    message: 'Password must contain at least one uppercase letter',
    test: (password) => /\p{Lu}/u.test(password),
  },
  {
    id: 'lowercase',
    message: 'Password must contain at least one lowercase letter',
    test: (password) => /\p{Ll}/u.test(password),
  },
  {
    id: 'digit',
    message: 'Password must contain at least one digit',
    test: (password) => /\p{Nd}/u.test(password),
  },
  {
    id: 'special',
    message: 'Password must contain at least one special character (not a letter or digit)',
    test: (password) => /[^\p{L}\p{Nd}]/u.test(password),
  },
];

/** Every rule the password breaks, in rule order; empty when it passes. */
export function checkPassword(password: string): PasswordViolation[] {
  return PASSWORD_RULES.filter((rule) => !rule.test(password)).map(({ id, message }) => ({
    rule: id,
    message,
  }));
}
