export const PROFILE_PLACEHOLDERS = ['username', 'user_id', 'image_id'] as const;

/**
 * Why a persistent profile path is unusable; empty when it is fine. An empty path means "no
 * persistent profile". Otherwise: an absolute path or an s3:// URL, only known placeholders, and
 * {username} or {user_id} in it so that every user gets a profile of their own.
 */
export function profilePathProblems(value: string): string[] {
  if (value === '') return [];
  const problems: string[] = [];
  if (!value.startsWith('/') && !value.startsWith('s3://'))
    problems.push('must be an absolute path or an s3:// URL');
  const placeholders = [...value.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]);
  const unknown = placeholders.filter(
    (p) => !(PROFILE_PLACEHOLDERS as readonly string[]).includes(p),
  );
  if (unknown.length > 0) {
    problems.push(
      `has unknown placeholder(s) ${unknown.map((p) => `{${p}}`).join(', ')}; known are {username}, {user_id}, {image_id}`,
    );
  }
  if (/[{}]/.test(value.replace(/\{[^{}]*\}/g, ''))) problems.push('has an unmatched { or }');
  if (!placeholders.includes('username') && !placeholders.includes('user_id')) {
    problems.push(
      'must contain {username} or {user_id}, so that each user has a profile of their own',
    );
  }
  return problems;
}
