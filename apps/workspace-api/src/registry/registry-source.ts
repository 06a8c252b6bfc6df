import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Where a registry's files are: `url` is the normalised form stored (and compared for duplicates). */
export type RegistrySource =
  { kind: 'http'; url: string } | { kind: 'local'; url: string; dir: string };

const withSlash = (s: string) => (s.endsWith('/') ? s : `${s}/`);

function httpSource(input: string): RegistrySource | { problem: string } {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { problem: `"${input}" is not a valid URL` };
  }
  if (url.username || url.password)
    return { problem: 'Registry URLs with credentials are not supported' };
  if (!url.hostname) return { problem: `"${input}" has no host` };
  url.hash = '';
  url.search = '';
  url.pathname = withSlash(url.pathname.replace(/\/+$/, ''));
  return { kind: 'http', url: url.href };
}

function localSource(dir: string): RegistrySource {
  const resolved = path.resolve(dir);
  return { kind: 'local', dir: resolved, url: withSlash(pathToFileURL(resolved).href) };
}

/**
 * Reads what add_registry was given: an http(s) URL, or (when allowed) an absolute directory
 * path or file:// URL. Trailing slashes, fragments and queries do not make a registry different.
 */
export function parseRegistrySource(
  input: string,
  { allowLocal }: { allowLocal: boolean },
): RegistrySource | { problem: string } {
  const value = input.trim();
  if (/^https?:\/\//i.test(value)) return httpSource(value);
  const isLocal = /^file:\/\//i.test(value) || path.isAbsolute(value);
  if (!isLocal) {
    return {
      problem: `"${value}" is not an http(s) URL${allowLocal ? ' or an absolute directory path' : ''}`,
    };
  }
  if (!allowLocal)
    return { problem: 'Local registry paths are disabled (REGISTRY_ALLOW_LOCAL_PATHS is off)' };
  if (/^file:/i.test(value)) {
    try {
      return localSource(fileURLToPath(value));
    } catch {
      return { problem: `"${value}" is not a valid file URL` };
    }
  }
  return localSource(value);
}

/** The address of one of the registry's files, for messages and for fetching. */
export function fileUrl(source: RegistrySource, file: string): string {
  return new URL(file, source.url).href;
}
