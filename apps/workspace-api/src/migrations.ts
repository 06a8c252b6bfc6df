import path from 'node:path';
import { migrate } from '@platform/db';
import type { Config } from './config';

/** `prisma/workspace-api/migrations`, found the same way from src/ (tests) and dist/ (builds). */
export const MIGRATIONS_DIR = path.resolve(__dirname, '../../../prisma/workspace-api/migrations');

export function migrateDatabase(config: Config) {
  return migrate({
    connectionString: config.DATABASE_URL,
    schema: config.DATABASE_SCHEMA,
    migrationsDir: MIGRATIONS_DIR,
  });
}
