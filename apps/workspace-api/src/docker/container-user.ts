/** The lines of a passwd or group file, each split at its colons; comments and blanks left out. */
const entries = (file: string) =>
  file
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.split(':'));

const numeric = (text: string) => /^\d+$/.test(text);

/**
 * Whether a command run as `user` (Docker's `user`, `user:group`, `uid` or `uid:gid`) gets
 * root's uid or gid 0, read as the engine reads the container's own /etc/passwd and /etc/group:
 * a name is its passwd entry's uid and primary gid, plus the groups listing it. So `toor` with
 * uid 0, or a user in a group of gid 0, is root. A name the files do not hold is not root (the
 * engine refuses to run as it).
 */
export function runsAsRoot(user: string, passwd: string, group: string): boolean {
  const [name = '', groupName] = user.trim().split(':');
  const groups = entries(group);
  const gidOf = (text: string) =>
    numeric(text) ? Number(text) : groups.find(([n]) => n === text)?.[2];
  if (groupName !== undefined && Number(gidOf(groupName)) === 0) return true;
  if (numeric(name)) return Number(name) === 0;
  const entry = entries(passwd).find(([n]) => n === name);
  if (!entry) return false;
  const [, , uid, gid] = entry;
  if (Number(uid) === 0 || (groupName === undefined && Number(gid) === 0)) return true;
  // Docker adds the groups that list the user as supplementary groups.
  return groups.some(
    ([, , id, members = '']) => Number(id) === 0 && members.split(',').includes(name),
  );
}
