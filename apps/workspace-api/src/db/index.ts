// The data layer's public face: the client and pool, the transaction type, prepared statements
// and the one mapping of database errors.
export { openDatabase, type Database, type Db, type TransactionOptions, type Tx } from './client';
export {
  isForeignKeyViolation,
  isUniqueViolation,
  orNullWhenMissing,
  toDatabaseError,
} from './database-errors';
export {
  EVENT_PARAMS,
  NO_EVENT,
  recordedChange,
  recordedRemoval,
  recordedUpdate,
  runRecorded,
  type AuditedTransaction,
  type AuditRecorder,
  type AuditSnapshots,
  type EventInsertSql,
} from './audit-recorder';
export { savepoint } from './savepoint';
export { qualified, runStatement, type Statement } from './statements';
export type { ListenConnection } from '@platform/db';
