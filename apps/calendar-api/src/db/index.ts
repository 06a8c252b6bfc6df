export { openDatabase, type Database, type Tx } from './client';
export { isUniqueViolation, toDatabaseError } from './database-errors';
export { qualified, runStatement, type Statement } from './statements';
