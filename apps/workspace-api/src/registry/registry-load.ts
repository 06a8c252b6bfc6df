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
  chooseSchemaVersion,
  parseRegistryList,
  parseVersions,
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

/** Fetches versions.txt and the list of the best supported version, and validates it. */
export async function loadRegistry(
  source: RegistrySource,
  options: FetchOptions,
): Promise<LoadedRegistry> {
  await checkReachable(source);
  const versionsText = await fetchRegistryFile(source, 'versions.txt', options);
  if (versionsText === null)
    throw new RegistryVersionsMissingError(fileUrl(source, 'versions.txt'));
  const offered = parseVersions(versionsText);
  const schemaVersion = chooseSchemaVersion(offered);
  if (!schemaVersion) {
    throw new RegistryVersionUnsupportedError(
      shorten(offered.join(', ')),
      SUPPORTED_SCHEMA_VERSIONS.join(' and '),
    );
  }

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
