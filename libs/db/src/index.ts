export { migrate, MigrationError } from './migrate';
export type { MigrateOptions, MigrateResult } from './migrate';
export { compileWasmCompactly } from './compact-wasm';
export { databasePlugin } from './database.plugin';
export type { DatabasePluginOptions } from './database.plugin';
export { openServicePool } from './service-pool';
export type { ServicePoolSettings } from './service-pool';
export { statementNames } from './statement-names';
export type { PoolSettings } from './pool-config';
