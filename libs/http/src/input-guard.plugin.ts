import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ValidationFailedError, withFieldErrors, type FieldProblem } from '@platform/errors';
import { badBasicCredentials, badTextFields, holdsBadText } from './input-guard';

const refusal = (problems: FieldProblem[]) =>
  withFieldErrors(new ValidationFailedError('The request holds invalid text'), problems);

/** Where a request's headers (and their Basic credentials), path and query string hold bad text. */
const arrivalProblems = (request: FastifyRequest, basic: FieldProblem | null): FieldProblem[] => [
  ...badTextFields(request.headers, 'headers'),
  ...(basic ? [basic] : []),
  ...badTextFields(request.params, 'params'),
  ...badTextFields(request.query, 'query'),
];

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
    // Callback hooks that only look: they run on every request, and an async one costs a
    // promise each time. Field names are worked out only for a request that is refused.
    app.addHook('onRequest', (request, _reply, done) => {
      const basic = badBasicCredentials(request.headers.authorization);
      const clean =
        !basic &&
        !holdsBadText(request.headers) &&
        !holdsBadText(request.params) &&
        !holdsBadText(request.query);
      done(clean ? undefined : refusal(arrivalProblems(request, basic)));
    });
    app.addHook('preValidation', (request, _reply, done) => {
      done(holdsBadText(request.body) ? refusal(badTextFields(request.body, '')) : undefined);
    });
  },
  { name: 'input-guard' },
);
