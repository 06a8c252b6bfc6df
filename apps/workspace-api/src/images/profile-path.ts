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

export interface ProfileOwner {
  username: string;
  /** Wire ids (32 hex characters), as clients see them. */
  userId: string;
  imageId: string;
}

/**
 * One path segment made of a value: percent-encoded like a URL component (an e-mail's @ stays
 * readable), so that a username such as `../x` or `a/b` cannot climb out of, or split, the
 * directory it is placed in.
 */
function segment(value: string): string {
  const encoded = encodeURIComponent(value).replace(/%40/g, '@');
  return /^\.+$/.test(encoded) ? '%2E'.repeat(encoded.length) : encoded;
}

/** The profile path of one user's sessions of one workspace; null when the workspace keeps none. */
export function fillProfilePath(template: string, owner: ProfileOwner): string | null {
  if (template === '') return null;
  const values: Record<(typeof PROFILE_PLACEHOLDERS)[number], string> = {
    username: segment(owner.username),
    user_id: owner.userId,
    image_id: owner.imageId,
  };
  return template.replace(
    /\{(username|user_id|image_id)\}/g,
    (_match, name: keyof typeof values) => values[name],
  );
}
