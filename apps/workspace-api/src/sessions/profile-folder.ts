/** The folders of a profile below the agent's profile root, as the engine creates and mounts them. */
export interface ProfileFolder {
  root: string;
  /** One name per level below the root, none of them empty, `.` or `..`; the last is the home. */
  folders: string[];
}

const names = (path: string) => path.split('/').filter((s) => s !== '');

/**
 * Where a filled profile path lies below the profile root, or why it may not be mounted. The
 * path is taken literally, as the engine's host reads it: a username filled in is encoded so that
 * it stays one name, and the templates' own `.`, `..` and encodings were refused where they came
 * in; this check holds even for rows stored before those rules.
 */
export function profileFolder(root: string, path: string): ProfileFolder | string {
  const segments = names(path);
  if (segments.some((s) => s === '.' || s === '..' || s.includes('\\') || s.includes('\0'))) {
    return `The profile path ${JSON.stringify(path)} has a ., .. or \\ segment or a NUL`;
  }
  const rootNames = names(root);
  const inside = rootNames.every((name, i) => segments[i] === name);
  if (!inside || segments.length <= rootNames.length) {
    return `The profile path ${path} is not a folder inside the agent's profile root ${root} (PROFILE_ROOT)`;
  }
  return { root: `/${rootNames.join('/')}`, folders: segments.slice(rootNames.length) };
}
