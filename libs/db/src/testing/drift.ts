import { readFile } from 'node:fs/promises';
import { get_dmmf } from '@prisma/prisma-schema-wasm';
import { Client } from 'pg';
import { RUNNER_TABLES } from '../migrate';

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: 'scalar' | 'object' | 'enum';
  type: string;
  isList: boolean;
  isRequired: boolean;
  hasDefaultValue: boolean;
  isUpdatedAt: boolean;
  default?: unknown;
  nativeType?: [string, string[]] | null;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
  documentation?: string;
}
interface DmmfIndex {
  model: string;
  type: 'id' | 'unique' | 'normal' | 'fulltext';
  dbName?: string | null;
  fields: { name: string }[];
}

const DEFAULT_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Boolean: 'boolean',
  DateTime: 'timestamp(3) without time zone',
  Float: 'double precision',
  Json: 'jsonb',
  Decimal: 'numeric(65,30)',
  Bytes: 'bytea',
};

// Without an argument Prisma writes e.g. plain `TIMESTAMPTZ`, which has no typmod to show.
const precision = (p: string | undefined) => (p ? `(${p})` : '');

const NATIVE_TYPES: Record<string, (args: string[]) => string> = {
  VarChar: ([n]) => (n ? `character varying(${n})` : 'character varying'),
  Char: ([n]) => `character(${n ?? 1})`,
  Text: () => 'text',
  Uuid: () => 'uuid',
  Date: () => 'date',
  Timestamptz: ([p]) => `timestamp${precision(p)} with time zone`,
  Timestamp: ([p]) => `timestamp${precision(p)} without time zone`,
  Timetz: ([p]) => `time${precision(p)} with time zone`,
  Time: ([p]) => `time${precision(p)} without time zone`,
  Decimal: ([p, s]) => (p ? `numeric(${p},${s ?? 0})` : 'numeric'),
  Integer: () => 'integer',
  SmallInt: () => 'smallint',
  BigInt: () => 'bigint',
  DoublePrecision: () => 'double precision',
  JsonB: () => 'jsonb',
};

// Defaults Prisma fills in on the client side: no DEFAULT in the database.
const CLIENT_DEFAULTS = new Set(['uuid', 'cuid', 'nanoid', 'ulid']);

function columnType(field: DmmfField): string {
  const base = field.nativeType
    ? (NATIVE_TYPES[field.nativeType[0]]?.(field.nativeType[1]) ??
      field.nativeType[0].toLowerCase())
    : field.kind === 'enum'
      ? field.type
      : DEFAULT_TYPES[field.type];
  return field.isList ? `${base}[]` : base;
}

function hasDbDefault(field: DmmfField): boolean {
  if (!field.hasDefaultValue) return false;
  const fn = (field.default as { name?: string } | undefined)?.name;
  return !(fn && CLIENT_DEFAULTS.has(fn));
}

/** What schema.prisma says the database holds, as comparable lines. */
export function expectedShape(prismaSchema: string): string[] {
  const dmmf = JSON.parse(
    get_dmmf(JSON.stringify({ prismaSchema: [['schema.prisma', prismaSchema]] })),
  );
  const models: DmmfModel[] = dmmf.datamodel.models;
  const table = (name: string) => {
    const model = models.find((m) => m.name === name);
    return model?.dbName ?? name;
  };
  const column = (model: string, field: string) => {
    const f = models.find((m) => m.name === model)?.fields.find((x) => x.name === field);
    return f?.dbName ?? field;
  };
  const lines: string[] = [];
  for (const model of models) {
    const t = model.dbName ?? model.name;
    lines.push(`table ${t}`);
    for (const f of model.fields) {
      if (f.kind === 'object') {
        if (f.relationFromFields?.length) {
          const from = f.relationFromFields.map((x) => column(model.name, x)).join(',');
          const to = (f.relationToFields ?? []).map((x) => column(f.type, x)).join(',');
          const onDelete = (
            f.relationOnDelete ?? (f.isRequired ? 'Restrict' : 'SetNull')
          ).toLowerCase();
          lines.push(`fk ${t}(${from}) -> ${table(f.type)}(${to}) on delete ${onDelete}`);
        }
        continue;
      }
      // Prisma creates scalar lists as nullable arrays.
      const nullable = f.isRequired && !f.isList ? 'not null' : 'null';
      const def = hasDbDefault(f) ? ' default' : '';
      lines.push(`column ${t}.${f.dbName ?? f.name} ${columnType(f)} ${nullable}${def}`);
    }
  }
  // Prisma cannot describe an index on an expression; a model documents it on a line of its own,
  // `/// @expression-index unique lower(name::text)`, as pg_get_indexdef prints it.
  for (const model of models) {
    for (const match of (model.documentation ?? '').matchAll(
      /^@expression-index (unique|index) (.+)$/gm,
    )) {
      lines.push(`${match[1]} ${model.dbName ?? model.name}(${match[2].trim()})`);
    }
  }
  for (const index of dmmf.datamodel.indexes as DmmfIndex[]) {
    const kind = index.type === 'id' ? 'primary' : index.type === 'unique' ? 'unique' : 'index';
    const cols = index.fields.map((f) => column(index.model, f.name)).join(',');
    lines.push(`${kind} ${table(index.model)}(${cols})`);
  }
  return lines.sort();
}

const ON_DELETE: Record<string, string> = {
  a: 'noaction',
  r: 'restrict',
  c: 'cascade',
  n: 'setnull',
  d: 'setdefault',
};

/** What the migrated database holds, in the same lines as `expectedShape`. */
export async function actualShape(connectionString: string, schema: string): Promise<string[]> {
  const client = new Client({ connectionString });
  await client.connect();
  try {
    // format_type leaves the schema's own types (enums) unqualified only when it is on the path.
    await client.query(`SELECT set_config('search_path', quote_ident($1), false)`, [schema]);
    const q = async (sql: string) => (await client.query(sql, [schema, RUNNER_TABLES])).rows;
    const tables = await q(
      `SELECT tablename AS t FROM pg_tables WHERE schemaname = $1 AND tablename <> ALL($2)`,
    );
    const columns = await q(
      `SELECT c.relname AS t, a.attname AS col, format_type(a.atttypid, a.atttypmod) AS type,
              a.attnotnull AS notnull, a.atthasdef AS hasdef
         FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
          AND c.relname <> ALL($2)`,
    );
    const indexes = await q(
      `SELECT c.relname AS t, i.indisprimary AS pk, i.indisunique AS uq,
              array_to_string(ARRAY(SELECT pg_get_indexdef(i.indexrelid, k.o, true)
                FROM generate_series(1, i.indnkeyatts::int) k(o) ORDER BY k.o), ',') AS cols
         FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relname <> ALL($2)`,
    );
    const fks = await q(
      `SELECT c.relname AS t, f.relname AS ft, con.confdeltype AS del,
              array_to_string(ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(n, o)
                JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.n ORDER BY k.o), ',') AS cols,
              array_to_string(ARRAY(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(n, o)
                JOIN pg_attribute a ON a.attrelid = f.oid AND a.attnum = k.n ORDER BY k.o), ',') AS fcols
         FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_class f ON f.oid = con.confrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND con.contype = 'f' AND c.relname <> ALL($2)`,
    );
    return [
      ...tables.map((r) => `table ${r.t}`),
      ...columns.map(
        (r) =>
          `column ${r.t}.${r.col} ${String(r.type).replace(/"/g, '')} ${r.notnull ? 'not null' : 'null'}${r.hasdef ? ' default' : ''}`,
      ),
      ...indexes.map((r) => `${r.pk ? 'primary' : r.uq ? 'unique' : 'index'} ${r.t}(${r.cols})`),
      ...fks.map(
        (r) => `fk ${r.t}(${r.cols}) -> ${r.ft}(${r.fcols}) on delete ${ON_DELETE[r.del]}`,
      ),
    ].sort();
  } finally {
    await client.end();
  }
}

/**
 * Differences between schema.prisma and a migrated database: `+` only in the schema (a migration
 * is missing), `-` only in the database (a migration did something the schema does not say).
 */
export async function findDrift(
  schemaPath: string,
  connectionString: string,
  schema: string,
): Promise<string[]> {
  const expected = expectedShape(await readFile(schemaPath, 'utf8'));
  const actual = await actualShape(connectionString, schema);
  const actualSet = new Set(actual);
  const expectedSet = new Set(expected);
  return [
    ...expected.filter((l) => !actualSet.has(l)).map((l) => `+ ${l}`),
    ...actual.filter((l) => !expectedSet.has(l)).map((l) => `- ${l}`),
  ];
}
