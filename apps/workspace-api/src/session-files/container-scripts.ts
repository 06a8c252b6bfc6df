import {
  EngineFailedError,
  FileNotFoundError,
  FileNotRegularError,
  FolderUnsafeError,
} from '../errors';

// The commands run inside the session's container, as the image's own user (never root): a
// link planted in ~/Uploads or ~/Downloads can only lead where that user may go anyway, and the
// checks below refuse the links a request could be led through. Values travel in environment
// variables, never in the command text. Only POSIX sh, mkdir, cat, mv, rm, sha256sum and stat
// are used: busybox, Debian and Ubuntu (Kasm's images) all have them. A part's size is read by
// `stat`, never by `wc -c` (busybox's reads the whole file: 12 s for a gibibyte here).

const FOLDER_UNSAFE = 3;
const NO_UPLOAD = 4;
const NOT_REGULAR = 5;
const NO_FILE = 6;

const UPLOADS = `U="$HOME/Uploads"; P="$U/.partial"`;
const SAFE_UPLOADS = `${UPLOADS}
if [ -L "$U" ] || [ -L "$P" ]; then exit ${FOLDER_UNSAFE}; fi`;
const UPLOAD_EXISTS = `${SAFE_UPLOADS}
if [ -L "$P/$ID" ] || [ ! -f "$P/$ID" ] || [ -L "$P/$ID.meta" ] || [ ! -f "$P/$ID.meta" ]; then exit ${NO_UPLOAD}; fi`;

export const SCRIPTS = {
  /** env ID, SIZE, NAME: an empty part and its meta (`SIZE\nNAME`), never over an existing file. */
  createUpload: `${SAFE_UPLOADS}
mkdir -p "$U" 2>/dev/null && mkdir -p "$P" 2>/dev/null || exit ${FOLDER_UNSAFE}
if [ -L "$U" ] || [ -L "$P" ]; then exit ${FOLDER_UNSAFE}; fi
set -C
: > "$P/$ID" && printf '%s\\n%s' "$SIZE" "$NAME" > "$P/$ID.meta"`,

  /** env ID: the meta's two lines, then the part's size. */
  uploadStatus: `${UPLOAD_EXISTS}
cat "$P/$ID.meta" && printf '\\n' && stat -c %s -- "$P/$ID"`,

  /**
   * env ID, SIZE, STEM, EXT, SUM (1: digest it here); stdin: the bytes to append to the part.
   * Prints the part's size once they are in; when that completes the upload, moves the part to
   * the first free name of `STEM EXT`, `STEM (1)EXT`, … (a dangling link counts as taken) and
   * prints that name, then the digest. One command for both: an exec costs tens of milliseconds.
   */
  appendUpload: `${UPLOAD_EXISTS}
cat >> "$P/$ID" || exit 1
size=$(stat -c %s -- "$P/$ID") || exit 1
printf '%s\\n' "$size"
[ "$size" -ge "$SIZE" ] || exit 0
${UPLOAD_EXISTS}
t="$STEM$EXT"; n=1
while [ -e "$U/$t" ] || [ -L "$U/$t" ]; do t="$STEM ($n)$EXT"; n=$((n+1)); done
if [ "$SUM" = 1 ]; then s=$(sha256sum < "$P/$ID") || exit 1; else s=; fi
mv -- "$P/$ID" "$U/$t" && rm -f -- "$P/$ID.meta" && printf '%s\\n%s' "$t" "$s"`,

  /** env ID: the part and its meta go. */
  cancelUpload: `${SAFE_UPLOADS}
rm -f -- "$P/$ID" "$P/$ID.meta"`,

  /**
   * ~/Downloads' physical path, then `size/mtime/name` of each regular file in it (links and
   * anything else left out). Names holding a newline break their line and are skipped.
   */
  listDownloads: `D="$HOME/Downloads"
if [ -L "$D" ]; then exit ${FOLDER_UNSAFE}; fi
if [ ! -d "$D" ]; then pwd -P; exit 0; fi
cd "$D" && pwd -P || exit ${FOLDER_UNSAFE}
for f in * .[!.]* ..?*; do
  if [ -f "$f" ] && [ ! -L "$f" ]; then stat -c '%s/%Y/%n' -- "$f"; fi
done`,

  /**
   * env NAME: when NAME in ~/Downloads is a regular file and no link, its size on a line, then
   * its bytes. The file is opened first and the open file is what is checked (same device and
   * inode as the name itself, not followed): a link swapped in after the checks has its own
   * inode, so only the bytes of the file that was checked ever leave.
   */
  download: `D="$HOME/Downloads"
if [ -L "$D" ]; then exit ${FOLDER_UNSAFE}; fi
cd "$D" 2>/dev/null || exit ${NO_FILE}
if [ -L "$NAME" ]; then exit ${NOT_REGULAR}; fi
if [ ! -e "$NAME" ]; then exit ${NO_FILE}; fi
if [ ! -f "$NAME" ]; then exit ${NOT_REGULAR}; fi
exec 3< "$NAME" || exit ${NO_FILE}
[ -f /proc/self/fd/3 ] || exit ${NOT_REGULAR}
[ "$(stat -L -c %d:%i /proc/self/fd/3)" = "$(stat -c %d:%i -- "$NAME")" ] || exit ${NOT_REGULAR}
stat -L -c %s /proc/self/fd/3 && exec cat <&3`,
} as const;

/** The error a script's exit code stands for; anything unforeseen is the engine's failure. */
export function scriptFailure(exitCode: number, what: string): Error {
  switch (exitCode) {
    case FOLDER_UNSAFE:
      return new FolderUnsafeError(
        `${what}: ~/Uploads or ~/Downloads (or the uploads under way) is a link or not a folder`,
      );
    case NO_UPLOAD:
      return new FileNotFoundError('No upload under way matches this id in the session');
    case NOT_REGULAR:
      return new FileNotRegularError(
        'Only regular files can be downloaded (not links, folders or devices)',
      );
    case NO_FILE:
      return new FileNotFoundError('No such file in ~/Downloads');
    default:
      return new EngineFailedError(`${what} failed in the session's container (exit ${exitCode})`);
  }
}
