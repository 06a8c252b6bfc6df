import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './repo';

const PRISMA_METHODS =
  'findMany|findUnique|findUniqueOrThrow|findFirst|findFirstOrThrow|create|createMany|' +
  'createManyAndReturn|update|updateMany|upsert|delete|deleteMany|count|groupBy|aggregate';
// `db.kasm.findMany(`, `tx.kasm.update(`, `(tx ?? prisma).stagingConfig.create(`.
const DELEGATE = new RegExp(
  `(?:\\b(?:db|tx|prisma|client)|\\))\\.(\\w+)\\.(?:${PRISMA_METHODS})\\(`,
  'g',
);
// `qualified(schema, 'kasm')`, `table('kasm')`: the raw statements' only way to name a table.
const QUALIFIED = /\b(?:qualified\([^,()]+,\s*|table\()'(\w+)'\)/g;

/** The service's Prisma models by delegate name (`kasmGrant`), as their tables (`kasm_grant`). */
export function tablesOfModels(service: string): Map<string, string> {
  const schema = readFileSync(path.join(ROOT, 'prisma', service, 'schema.prisma'), 'utf8');
  const tables = new Map<string, string>();
  for (const [, model, body] of schema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)) {
    const mapped = /@@map\("(\w+)"\)/.exec(body)?.[1] ?? model;
    tables.set(model[0].toLowerCase() + model.slice(1), mapped);
  }
  return tables;
}

/** Every table a repository's source reaches: through Prisma's delegates or a raw statement. */
export function tablesUsedBy(source: string, models: Map<string, string>): string[] {
  const used = new Set<string>();
  for (const [, delegate] of source.matchAll(DELEGATE))
    used.add(models.get(delegate) ?? `unknown model ${delegate}`);
  for (const [, table] of source.matchAll(QUALIFIED)) used.add(table);
  return [...used].sort();
}
