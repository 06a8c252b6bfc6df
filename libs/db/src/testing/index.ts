export { createTestDatabase } from './test-database';
export type { TestDatabase } from './test-database';
export { findDrift } from './drift';
