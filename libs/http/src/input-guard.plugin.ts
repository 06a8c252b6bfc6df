import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ValidationFailedError, withFieldErrors, type FieldProblem } from '@platform/errors';
import { badBasicCredentials, badTextFields } from './input-guard';

function headerProblems(request: FastifyRequest): FieldProblem[] {
  const basic = badBasicCredentials(
    typeof request.headers.authorization === 'string' ? request.headers.authorization : undefined,
  );
  return [...badTextFields(request.headers, 'headers'), ...(basic ? [basic] : [])];
}

const refusal = (problems: FieldProblem[]) =>
  problems.length === 0
    ? undefined
    : withFieldErrors(new ValidationFailedError('The request holds invalid text'), problems);

/**
 * Refuses bad text (see `isBadText`) in every part of every request before any hook reads it:
 * headers (Basic credentials decoded), path parameters and query string as the request arrives,
 * and the body once parsed, before authentication takes credentials out of it. A 400 at the
 * edge, never a database error (500) further in. Also leaves JSON as the only body format
 * (a text/plain body is a 415). Register it before authentication.
 */
export const inputGuardPlugin = fp(
  async (app: FastifyInstance) => {
    // Operations read JSON only: a text/plain body is refused with 415, not validated as a string.
    app.removeContentTypeParser('text/plain');
    // Callback hooks: they run on every request, and an async one costs a promise each time.
    app.addHook('onRequest', (request, _reply, done) => {
      done(
        refusal([
          ...headerProblems(request),
          ...badTextFields(request.params, 'params'),
          ...badTextFields(request.query, 'query'),
        ]),
      );
    });
    app.addHook('preValidation', (request, _reply, done) => {
      done(refusal(badTextFields(request.body, '')));
    });
  },
  { name: 'input-guard' },
);
