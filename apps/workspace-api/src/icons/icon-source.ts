import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Image types the page shows; anything else a registry serves is not stored. */
export const ICON_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

export type IconSource =
  | { kind: 'http'; url: string }
  | { kind: 'local'; url: string; file: string }
  | { problem: string };

/**
 * Where a registry keeps the icon `image_src`: `<registry>/<schema version>/icons/<image_src>`,
 * as Kasm's registries publish them (an absolute http(s) URL is taken as it is). A local
 * registry's icon must stay inside the registry's directory.
 */
export function iconSource(
  registryUrl: string,
  schemaVersion: string,
  imageSrc: string,
): IconSource {
  let url: URL;
  try {
    url = /^https?:\/\//i.test(imageSrc)
      ? new URL(imageSrc)
      : new URL(`${schemaVersion}/icons/${imageSrc}`, registryUrl);
  } catch {
    return { problem: `"${imageSrc}" is not a usable icon location` };
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return { kind: 'http', url: url.href };
  if (url.protocol !== 'file:' || !registryUrl.startsWith('file:'))
    return { problem: `"${imageSrc}" is not a usable icon location` };
  const root = fileURLToPath(registryUrl);
  const file = fileURLToPath(url);
  if (path.relative(root, file).startsWith('..'))
    return { problem: `"${imageSrc}" points outside the registry` };
  return { kind: 'local', url: url.href, file };
}

/** The type of icon bytes, from what the server said or else the file name; null if not an image we show. */
export function iconType(fileName: string, contentType: string | null): string | null {
  const declared = contentType?.split(';')[0].trim().toLowerCase();
  if (declared && Object.values(ICON_TYPES).includes(declared)) return declared;
  return ICON_TYPES[path.extname(new URL(fileName, 'file:///').pathname).toLowerCase()] ?? null;
}
