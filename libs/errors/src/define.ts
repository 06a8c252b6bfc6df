import createFastifyError from '@fastify/error';

export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * Defines an error once, with its stable code, message (printf-style `%s` arguments) and
 * status: `const UserNotFound = createError('USER_NOT_FOUND', 'No user %s', 404)`.
 */
export function createError(code: string, message: string, statusCode: number) {
  return createFastifyError(code, message, statusCode);
}

/** Attaches the per-field problems that the error handler renders in `errors`. */
export function withFieldErrors<E extends Error>(error: E, errors: FieldProblem[]): E {
  return Object.assign(error, { errors });
}

/** Attaches the number of seconds after which the client may try again (`Retry-After`). */
export function withRetryAfter<E extends Error>(error: E, seconds: number): E {
  return Object.assign(error, { retryAfterSeconds: seconds });
}

/** True when the database refused a write because a unique constraint already holds the value. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { name?: string; code?: string } | null;
  return e?.name === 'PrismaClientKnownRequestError' && e.code === 'P2002';
}
