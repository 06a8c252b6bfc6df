import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate } from '../migrate';
import { findDrift } from './drift';
import { createTestDatabase, type TestDatabase } from './test-database';

// Covers enums, scalar lists and native types with and without a precision, as Prisma writes them.
const SCHEMA_PRISMA = `
datasource db {
  provider = "postgresql"
}

enum Role {
  OWNER
  MEMBER
}

model Team {
  id        String   @id @default(uuid()) @db.Uuid
  name      String   @unique @db.VarChar(100)
  createdAt DateTime @default(now()) @map("created_at") @db.Timestamptz(3)
  members   Member[]

  @@map("team")
}

model Member {
  id       Int       @id @default(autoincrement())
  teamId   String    @map("team_id") @db.Uuid
  email    String
  nickname String?
  role     Role      @default(MEMBER)
  roles    Role[]
  seenAt   DateTime? @map("seen_at") @db.Timestamptz
  fee      Decimal?  @db.Decimal(10, 2)
  team     Team      @relation(fields: [teamId], references: [id], onDelete: Cascade)

  @@unique([teamId, email])
  @@index([teamId])
  @@map("member")
}
`;

// What `prisma migrate diff --from-empty` writes for SCHEMA_PRISMA.
const MIGRATION_SQL = `CREATE TYPE "Role" AS ENUM ('OWNER', 'MEMBER');

CREATE TABLE "team" (
    "id" UUID NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "team_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "member" (
    "id" SERIAL NOT NULL,
    "team_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "nickname" TEXT,
    "role" "Role" NOT NULL DEFAULT 'MEMBER',
    "roles" "Role"[],
    "seen_at" TIMESTAMPTZ,
    "fee" DECIMAL(10,2),
    CONSTRAINT "member_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "team_name_key" ON "team"("name");
CREATE INDEX "member_team_id_idx" ON "member"("team_id");
CREATE UNIQUE INDEX "member_team_id_email_key" ON "member"("team_id", "email");
ALTER TABLE "member" ADD CONSTRAINT "member_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;
`;

let workDir: string;
let schemaPath: string;
let db: TestDatabase;
let variants = 0;

async function migrationsWith(sql: string): Promise<string> {
  const dir = await mkdtemp(path.join(workDir, 'migrations-'));
  await mkdir(path.join(dir, '20250101000000_init'));
  await writeFile(path.join(dir, '20250101000000_init', 'migration.sql'), sql);
  return dir;
}

/** Drift of a schema migrated with MIGRATION_SQL where `from` is replaced by `to`. */
async function driftWhen(from: string, to: string): Promise<string[]> {
  expect(MIGRATION_SQL).toContain(from);
  const schema = `variant_${++variants}`;
  const migrationsDir = await migrationsWith(MIGRATION_SQL.replace(from, to));
  await migrate({ connectionString: db.url, schema, migrationsDir });
  return findDrift(schemaPath, db.url, schema);
}

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'drift-'));
  schemaPath = path.join(workDir, 'schema.prisma');
  await writeFile(schemaPath, SCHEMA_PRISMA);
  db = await createTestDatabase({
    schema: 'app',
    migrationsDir: await migrationsWith(MIGRATION_SQL),
  });
});

afterAll(async () => {
  await db?.drop();
  await rm(workDir, { recursive: true, force: true });
});

describe('findDrift', () => {
  it('finds no drift when the migrations build what schema.prisma describes', async () => {
    expect(await findDrift(schemaPath, db.url, 'app')).toEqual([]);
  });

  it('reports a column the migrations never added', async () => {
    expect(await driftWhen('"nickname" TEXT,', '')).toEqual(['+ column member.nickname text null']);
  });

  it('reports a column whose type differs, from both sides', async () => {
    expect(await driftWhen('"email" TEXT NOT NULL', '"email" VARCHAR(255) NOT NULL')).toEqual([
      '+ column member.email text not null',
      '- column member.email character varying(255) not null',
    ]);
  });

  it('reports an enum column migrated as another type', async () => {
    expect(
      await driftWhen(
        `"role" "Role" NOT NULL DEFAULT 'MEMBER'`,
        `"role" TEXT NOT NULL DEFAULT 'MEMBER'`,
      ),
    ).toEqual([
      '+ column member.role Role not null default',
      '- column member.role text not null default',
    ]);
  });

  it('reports a precision that differs from the schema', async () => {
    expect(await driftWhen('"seen_at" TIMESTAMPTZ,', '"seen_at" TIMESTAMPTZ(3),')).toEqual([
      '+ column member.seen_at timestamp with time zone null',
      '- column member.seen_at timestamp(3) with time zone null',
    ]);
  });

  it('reports a column whose nullability or default differs', async () => {
    expect(await driftWhen(`"role" "Role" NOT NULL DEFAULT 'MEMBER'`, '"role" "Role"')).toEqual([
      '+ column member.role Role not null default',
      '- column member.role Role null',
    ]);
  });

  it('reports an index the migrations never created', async () => {
    expect(
      await driftWhen('CREATE INDEX "member_team_id_idx" ON "member"("team_id");', ''),
    ).toEqual(['+ index member(team_id)']);
  });

  it('reports a unique index that is not unique in the database', async () => {
    expect(
      await driftWhen('CREATE UNIQUE INDEX "team_name_key"', 'CREATE INDEX "team_name_key"'),
    ).toEqual(['+ unique team(name)', '- index team(name)']);
  });

  it('reports a foreign key with a different on-delete rule', async () => {
    expect(await driftWhen('ON DELETE CASCADE ON UPDATE', 'ON DELETE RESTRICT ON UPDATE')).toEqual([
      '+ fk member(team_id) -> team(id) on delete cascade',
      '- fk member(team_id) -> team(id) on delete restrict',
    ]);
  });

  it('reports a table the database has and the schema does not', async () => {
    const extra = 'CREATE TABLE "audit" ("id" SERIAL PRIMARY KEY, "note" TEXT);\n';
    expect(
      await driftWhen(
        'CREATE UNIQUE INDEX "team_name_key"',
        `${extra}CREATE UNIQUE INDEX "team_name_key"`,
      ),
    ).toEqual([
      '- column audit.id integer not null default',
      '- column audit.note text null',
      '- primary audit(id)',
      '- table audit',
    ]);
  });

  it('ignores the migration history table and tables of other schemas', async () => {
    await db.query('CREATE TABLE public.unrelated (id INT PRIMARY KEY)');
    const history = await db.query<{ n: string }>(
      'SELECT count(*) AS n FROM app._prisma_migrations',
    );
    expect(history).toEqual([{ n: '1' }]);
    expect(await findDrift(schemaPath, db.url, 'app')).toEqual([]);
  });
});
