import { FileNameInvalidError } from '../errors';

/** Longest name in bytes that Linux file systems take (NAME_MAX). */
const NAME_MAX_BYTES = 255;
// C0 and C1 controls and DEL: they can fake lines in listings, logs and the audit trail.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** The folder in ~/Uploads where uploads under way are kept (resumable-uploads.ts). */
export const PARTIAL_FOLDER = '.partial';

/**
 * The name of a file in ~/Uploads or ~/Downloads as a request gives it, or a 400: one path
 * component (no slash, no backslash, not `.` or `..`), no control characters, not the partial
 * uploads' folder, at most NAME_MAX bytes. Never a path: a file can only be where it is named.
 */
export function checkFileName(name: string): string {
  const problem =
    name.length === 0
      ? 'is empty'
      : name === '.' || name === '..'
        ? 'is . or ..'
        : /[/\\]/.test(name)
          ? 'holds a slash: give a file name, not a path'
          : CONTROL.test(name)
            ? 'holds control characters'
            : name === PARTIAL_FOLDER
              ? 'is the folder of uploads under way'
              : Buffer.byteLength(name, 'utf8') > NAME_MAX_BYTES
                ? `is longer than ${NAME_MAX_BYTES} bytes`
                : null;
  if (problem) throw new FileNameInvalidError(`The file name ${problem}`);
  return name;
}

/**
 * A name's stem and extension, for the names tried when it is taken: `report (1).pdf`. A name
 * whose only dot leads (`.bashrc`) has no extension.
 */
export function splitName(name: string): { stem: string; extension: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return { stem: name, extension: '' };
  return { stem: name.slice(0, dot), extension: name.slice(dot) };
}

/** A `Content-Disposition: attachment` header for `name`, any characters (RFC 6266, 5987). */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
