import type { ProfileUser } from '../engines';

// The largest id Docker's USER accepts.
const MAX_ID = 2 ** 31 - 1;

/**
 * Who owns a profile folder: the user the image runs as when it names a non-root uid (and gid),
 * else the configured default (1000, Kasm's kasm-user). A user given by name cannot be resolved
 * without the image's passwd file, and an image starting as root usually drops to its user later.
 */
export function profileUser(imageUser: string, fallback: ProfileUser): ProfileUser {
  const [user = '', group] = imageUser.split(':');
  const number = (text: string | undefined) => (text && /^\d+$/.test(text) ? Number(text) : NaN);
  const uid = number(user);
  if (!(uid > 0 && uid <= MAX_ID)) return fallback;
  const gid = number(group);
  return { uid, gid: gid >= 0 && gid <= MAX_ID ? gid : fallback.gid };
}

/** Whether an image starts as root: no USER, or uid 0 or root by name (whatever the group). */
export function startsAsRoot(imageUser: string): boolean {
  const user = imageUser.split(':')[0].trim();
  return user === '' || user === 'root' || /^0+$/.test(user);
}
