import type { TSchema } from '@sinclair/typebox';
import { Value, ValueErrorType } from '@sinclair/typebox/value';
import type { FieldProblem } from '@platform/errors';
import type { CompatibilityRow } from './compatibility';
import {
  EntrySchemaV10,
  EntrySchemaV11,
  RegistryListSchema,
  type EntryV10,
  type EntryV11,
  type RegistryList,
} from './registry-entry.schemas';

/** In order of preference: a registry offering both is read as 1.1. */
export const SUPPORTED_SCHEMA_VERSIONS = ['1.1', '1.0'] as const;
export type SchemaVersion = (typeof SUPPORTED_SCHEMA_VERSIONS)[number];

/** A valid registry workspace, normalised to one shape whatever the schema version. */
export interface WorkspaceEntry {
  name: string;
  friendly_name: string;
  description: string;
  image_src: string;
  docker_registry: string;
  run_config: Record<string, unknown>;
  exec_config: Record<string, unknown>;
  categories: string[];
  architecture: string[];
  compatibility: CompatibilityRow[];
  notes: string | null;
  cores: number | null;
  memory: number | null;
  gpu_count: number | null;
  volume_mappings: Record<string, unknown> | null;
  cpu_allocation_method: string | null;
}

export interface InvalidEntry {
  index: number;
  name: string | null;
  problems: FieldProblem[];
}

export interface RegistryMeta {
  name: string;
  description: string;
  icon: string;
  list_url: string;
  contact_url: string;
}

export type ParsedList =
  | { ok: true; meta: RegistryMeta; entries: WorkspaceEntry[]; invalid: InvalidEntry[] }
  | { ok: false; problems: FieldProblem[] };

const SCHEMA_VERSION_LINE = /^[0-9]+\.[0-9]+$/;

/**
 * versions.txt: the schema versions offered, one per line. Published registries also list their
 * channels (branch names such as `develop`) there; those, blank lines and `#` comments are skipped.
 */
export function parseVersions(text: string): string[] {
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => SCHEMA_VERSION_LINE.test(line));
}

/** The supported versions offered, newest first: the order in which loading is tried. */
export function schemaVersionsToTry(offered: readonly string[]): SchemaVersion[] {
  return SUPPORTED_SCHEMA_VERSIONS.filter((v) => offered.includes(v));
}

export function chooseSchemaVersion(offered: readonly string[]): SchemaVersion | null {
  return schemaVersionsToTry(offered)[0] ?? null;
}

/** Every problem, one per field (TypeBox reports a missing property twice). */
export function problemsOf(schema: TSchema, value: unknown, root = 'entry'): FieldProblem[] {
  const seen = new Map<string, string>();
  for (const error of Value.Errors(schema, value)) {
    const field = error.path.slice(1).replace(/\//g, '.') || root;
    // A regular expression tells a registry author little; the schema's description says what is meant.
    const message =
      error.type === ValueErrorType.StringPattern && error.schema.description
        ? `Expected ${error.schema.description}`
        : error.message;
    if (!seen.has(field)) seen.set(field, message);
  }
  return [...seen].map(([field, message]) => ({ field, message }));
}

function commonFields(entry: EntryV10 | EntryV11) {
  return {
    name: entry.name ?? entry.friendly_name,
    friendly_name: entry.friendly_name,
    description: entry.description,
    image_src: entry.image_src,
    docker_registry: entry.docker_registry,
    run_config: entry.run_config ?? {},
    exec_config: entry.exec_config ?? {},
    categories: entry.categories,
    architecture: entry.architecture,
    notes: entry.notes ?? null,
    cores: entry.cores ?? null,
    memory: entry.memory ?? null,
    gpu_count: entry.gpu_count ?? null,
    volume_mappings: entry.volume_mappings ?? null,
    cpu_allocation_method: entry.cpu_allocation_method ?? null,
  };
}

export function normalizeEntry(raw: unknown, version: SchemaVersion): WorkspaceEntry {
  if (version === '1.0') {
    const entry = raw as EntryV10;
    const size = entry.uncompressed_size_mb ?? null;
    const rows = entry.compatibility.map((v) => ({
      version: v,
      image: entry.name,
      uncompressed_size_mb: size,
      available_tags: [],
    }));
    return { ...commonFields(entry), compatibility: rows };
  }
  const entry = raw as EntryV11;
  const rows = entry.compatibility.map((row) => ({
    version: row.version,
    image: row.image,
    uncompressed_size_mb: row.uncompressed_size_mb ?? entry.uncompressed_size_mb ?? null,
    available_tags: row.available_tags ?? [],
  }));
  return { ...commonFields(entry), compatibility: rows };
}

/** The entry's name as normalizeEntry would give it: 1.1 entries are known by their friendly name. */
const nameOf = (raw: unknown, version: SchemaVersion) => {
  const entry = raw as { name?: unknown; friendly_name?: unknown } | null;
  const name = version === '1.1' ? (entry?.name ?? entry?.friendly_name) : entry?.name;
  return typeof name === 'string' ? name.slice(0, 255) : null;
};

/**
 * Validates a parsed list.json. A list that is not a registry fails as a whole; a workspace that
 * breaks the entry schema (or repeats an earlier name) is reported and the others still load.
 */
export function parseRegistryList(list: unknown, version: SchemaVersion): ParsedList {
  const listProblems = problemsOf(RegistryListSchema, list, 'list');
  if (listProblems.length > 0) return { ok: false, problems: listProblems };
  const valid = list as RegistryList;
  const schema = version === '1.0' ? EntrySchemaV10 : EntrySchemaV11;
  const entries: WorkspaceEntry[] = [];
  const invalid: InvalidEntry[] = [];
  const firstIndex = new Map<string, number>();
  valid.workspaces.forEach((raw, index) => {
    const problems = problemsOf(schema, raw);
    const entryName = nameOf(raw, version);
    const earlier = entryName === null ? undefined : firstIndex.get(entryName);
    if (earlier !== undefined) {
      problems.push({ field: 'name', message: `repeats the name of workspace ${earlier}` });
    }
    if (problems.length > 0) {
      invalid.push({ index, name: entryName, problems });
    } else {
      firstIndex.set(entryName as string, index);
      entries.push(normalizeEntry(raw, version));
    }
  });
  const meta = {
    name: valid.name,
    description: valid.description ?? '',
    icon: valid.icon ?? '',
    list_url: valid.list_url ?? '',
    contact_url: valid.contact_url ?? '',
  };
  return { ok: true, meta, entries, invalid };
}
