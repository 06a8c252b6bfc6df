// The data layer's public face: the client and pool, the transaction type, prepared statements
// and the one mapping of database errors.
export { openDatabase, type Database, type Tx } from './client';
export { toDatabaseError } from './database-errors';
export { qualified, runStatement, type Statement } from './statements';
