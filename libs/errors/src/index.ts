export { createError, isUniqueViolation, withFieldErrors } from './define';
export type { FieldProblem } from './define';
export * from './common-errors';
export { toProblem } from './to-problem';
export { problemDetailsPlugin } from './problem-details.plugin';
