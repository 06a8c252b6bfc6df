export {
  createError,
  isForeignKeyViolation,
  isRecordNotFound,
  isUniqueViolation,
  withFieldErrors,
  withRetryAfter,
} from './define';
export type { FieldProblem } from './define';
export * from './common-errors';
export { toProblem } from './to-problem';
export { mapDatabaseError } from './database-errors';
export type { DatabaseErrorMapping } from './database-errors';
export type { ProblemBody } from './to-problem';
export { problemDetailsPlugin, sendProblem } from './problem-details.plugin';
export { describeIssue, describeIssues } from './validation-messages';
export type { SchemaIssue } from './validation-messages';
