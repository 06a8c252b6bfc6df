import path from 'node:path';
import { migrateService } from '@platform/db';
import type { Config } from './config';

/** `prisma/workspace-api/migrations`, found the same way from src/ (tests) and dist/ (builds). */
export const MIGRATIONS_DIR = path.resolve(__dirname, '../../../prisma/workspace-api/migrations');

export const migrateDatabase = (config: Config) => migrateService(config, MIGRATIONS_DIR);
