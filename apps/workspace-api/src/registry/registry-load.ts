import { withFieldErrors } from '@platform/errors';
import {
  RegistryInvalidError,
  RegistryListMissingError,
  RegistryNotJsonError,
  RegistryVersionsMissingError,
  RegistryVersionUnsupportedError,
} from '../errors';
import { checkReachable, fetchRegistryFile, type FetchOptions } from './registry-fetch';
import {
  parseRegistryList,
  parseVersions,
  schemaVersionsToTry,
  SUPPORTED_SCHEMA_VERSIONS,
  type InvalidEntry,
  type RegistryMeta,
  type SchemaVersion,
  type WorkspaceEntry,
} from './registry-list';
import { fileUrl, type RegistrySource } from './registry-source';

export interface LoadedRegistry {
  schemaVersion: SchemaVersion;
  meta: RegistryMeta;
  entries: WorkspaceEntry[];
  invalid: InvalidEntry[];
}

const shorten = (s: string) => (s.length > 80 ? `${s.slice(0, 77)}...` : s);

/** One schema version's list, validated; throws when the list is missing, not JSON or not a registry. */
async function loadList(
  source: RegistrySource,
  schemaVersion: SchemaVersion,
  options: FetchOptions,
): Promise<LoadedRegistry> {
  const listFile = `${schemaVersion}/list.json`;
  const listUrl = fileUrl(source, listFile);
  const listText = await fetchRegistryFile(source, listFile, options);
  if (listText === null) throw new RegistryListMissingError(listUrl);
  let list: unknown;
  try {
    list = JSON.parse(listText);
  } catch {
    throw new RegistryNotJsonError(listUrl);
  }
  const parsed = parseRegistryList(list, schemaVersion);
  if (!parsed.ok) throw withFieldErrors(new RegistryInvalidError(listUrl), parsed.problems);
  return { schemaVersion, meta: parsed.meta, entries: parsed.entries, invalid: parsed.invalid };
}

const loadsSomething = (loaded: LoadedRegistry) =>
  loaded.entries.length > 0 || loaded.invalid.length === 0;

/**
 * Fetches versions.txt and loads the newest supported schema whose list loads: a list that is
 * missing, broken, or whose every entry is invalid gives way to the next older version. When none
 * loads, the newest list read (with its invalid entries), else the newest version's error, is the answer.
 */
export async function loadRegistry(
  source: RegistrySource,
  options: FetchOptions,
): Promise<LoadedRegistry> {
  await checkReachable(source);
  const versionsText = await fetchRegistryFile(source, 'versions.txt', options);
  if (versionsText === null)
    throw new RegistryVersionsMissingError(fileUrl(source, 'versions.txt'));
  const offered = parseVersions(versionsText);
  const candidates = schemaVersionsToTry(offered);
  if (candidates.length === 0) {
    throw new RegistryVersionUnsupportedError(
      offered.length > 0 ? shorten(offered.join(', ')) : 'none',
      SUPPORTED_SCHEMA_VERSIONS.join(' and '),
    );
  }

  let onlyInvalid: LoadedRegistry | undefined;
  let firstError: unknown;
  for (const schemaVersion of candidates) {
    try {
      const loaded = await loadList(source, schemaVersion, options);
      if (loadsSomething(loaded)) return loaded;
      onlyInvalid ??= loaded;
    } catch (error) {
      firstError ??= error;
    }
  }
  if (onlyInvalid) return onlyInvalid;
  throw firstError;
}
