export { migrate, migrateService, MigrationError } from './migrate';
export type { MigrateOptions, MigrateResult } from './migrate';
export { compileWasmCompactly } from './compact-wasm';
export { databasePlugin } from './database.plugin';
export type { DatabasePluginOptions } from './database.plugin';
export type {
  Notification,
  NotificationSession,
  NotificationSessionOptions,
} from './notification-session';
export { openServiceDatabase } from './service-database';
export type { DatabaseEnv, ServiceDatabase } from './service-database';
export { qualified, runStatement } from './statements';
export type { Statement } from './statements';
