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
  return [...problems, ...segmentProblems(value)];
}

const hasControl = (text: string) =>
  [...text].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
const ENCODED_ASCII = /%([0-7][0-9a-f])/gi;

/** Decodes %XX of ASCII characters until nothing changes, so %252e%252e counts as `..` too. */
function decodeAscii(value: string): string {
  let current = value;
  for (;;) {
    const next = current.replace(ENCODED_ASCII, (_m, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
    if (next === current) return current;
    current = next;
  }
}

/**
 * Why a path's folders could lead somewhere else; empty when they cannot. A `..` segment climbs
 * out (Docker cleans `/{user_id}/..` to `/`), `.` and a backslash hide one, and whatever reads
 * the path later (an S3 client, a proxy) may decode percent-encoding: so every form is refused,
 * raw or encoded any number of times.
 */
export function segmentProblems(value: string): string[] {
  const decoded = decodeAscii(value);
  const problems: string[] = [];
  if (decoded.split('/').some((s) => s === '.' || s === '..'))
    problems.push('must not contain . or .. segments, raw or percent-encoded');
  if (decoded.includes('\\')) problems.push('must separate folders with /, not \\');
  if (hasControl(decoded))
    problems.push('must not contain control characters (NUL included), raw or percent-encoded');
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
