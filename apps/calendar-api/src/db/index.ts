export { openDatabase, type Database, type Tx } from './client';
export { toDatabaseError } from './database-errors';
export { qualified, runStatement, type Statement } from './statements';
