import path from 'node:path';
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: path.join(__dirname, 'schema.prisma'),
  migrations: { path: path.join(__dirname, 'migrations') },
  // Only `prisma generate` runs here; migrations are applied by @platform/db's runner.
  datasource: { url: process.env.DATABASE_URL ?? '' },
});
