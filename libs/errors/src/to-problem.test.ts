import { ConflictError, UnavailableError, ValidationFailedError } from './common-errors';
import { createError, withFieldErrors } from './define';
import { toProblem } from './to-problem';

const UserNotFound = createError('USER_NOT_FOUND', 'No user %s', 404);

interface Issue {
  instancePath: string;
  params: object;
  message?: string;
}

const issue = (
  instancePath: string,
  message?: string,
  params: object = {},
  keyword = 'unknown',
): Issue => ({ instancePath, params, message, keyword, schemaPath: '#' }) as Issue;

function validationError(validation: Issue[], validationContext = 'body') {
  return Object.assign(new Error('body/name must be string'), {
    code: 'FST_ERR_VALIDATION',
    statusCode: 400,
    validation: validation.map((v) => ({ keyword: 'type', schemaPath: '#', ...v })),
    validationContext,
  });
}

function fastifyError(code: string, statusCode: number, message: string) {
  return Object.assign(new Error(message), { name: 'FastifyError', code, statusCode });
}

function prismaError(code: string, meta: object = {}) {
  return Object.assign(new Error(`Invalid prisma.user.create() invocation: ${code}`), {
    name: 'PrismaClientKnownRequestError',
    code,
    meta,
  });
}

describe('toProblem', () => {
  describe('validation errors', () => {
    it('lists every problem with its field path', () => {
      const body = toProblem(
        validationError([
          issue('', "must have required property 'name'", { missingProperty: 'name' }, 'required'),
          issue('/age', 'must be integer', { type: 'integer' }, 'type'),
          issue(
            '/address',
            "must have required property 'city'",
            { missingProperty: 'city' },
            'required',
          ),
          issue('/tags/1', 'must be string', { type: 'string' }, 'type'),
        ]),
      );
      expect(body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', title: 'Bad Request' });
      expect(body.errors).toEqual([
        { field: 'name', message: 'is required' },
        { field: 'age', message: 'must be a whole number' },
        { field: 'address.city', message: 'is required' },
        { field: 'tags.1', message: 'must be text' },
      ]);
    });

    it('names the request part when the problem is the whole part', () => {
      const body = toProblem(
        validationError([issue('', 'must be object', { type: 'object' }, 'type')], 'querystring'),
      );
      expect(body.errors).toEqual([{ field: 'querystring', message: 'must be an object' }]);
    });

    it('gives a problem without a message a generic one', () => {
      const body = toProblem(validationError([issue('/email')]));
      expect(body.errors).toEqual([{ field: 'email', message: 'is invalid' }]);
    });
  });

  describe("Fastify's request errors", () => {
    it.each([
      ['FST_ERR_CTP_INVALID_CONTENT_LENGTH', 400, 'INVALID_REQUEST', 'Bad Request'],
      ['FST_ERR_CTP_EMPTY_JSON_BODY', 400, 'INVALID_JSON', 'Bad Request'],
      ['FST_ERR_CTP_INVALID_JSON_BODY', 400, 'INVALID_JSON', 'Bad Request'],
      ['FST_ERR_CTP_BODY_TOO_LARGE', 413, 'PAYLOAD_TOO_LARGE', 'Content Too Large'],
      ['FST_ERR_MAX_PARAM_LENGTH', 414, 'URI_TOO_LONG', 'URI Too Long'],
      ['FST_ERR_BAD_URL', 400, 'INVALID_URL', 'Bad Request'],
    ])('maps %s to %i %s', (fstCode, status, code, title) => {
      const body = toProblem(fastifyError(fstCode, status, 'Fastify says no'));
      expect(body).toMatchObject({ status, code, title, detail: 'Fastify says no' });
    });

    it('maps FST_ERR_CTP_INVALID_MEDIA_TYPE to 415 saying to send content-type: application/json', () => {
      const body = toProblem(
        fastifyError('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415, 'Fastify says no'),
      );
      expect(body).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
      expect(body.detail).toContain('content-type: application/json');
    });

    it('renames any other 4xx Fastify code to INVALID_REQUEST', () => {
      const body = toProblem(fastifyError('FST_ERR_SOMETHING_NEW', 400, 'Something new'));
      expect(body).toMatchObject({ status: 400, code: 'INVALID_REQUEST', detail: 'Something new' });
    });

    it('hides a 5xx Fastify error behind a generic 500', () => {
      const body = toProblem(
        fastifyError('FST_ERR_REP_INVALID_PAYLOAD_TYPE', 500, 'internal detail'),
      );
      expect(body).toMatchObject({ status: 500, code: 'INTERNAL' });
      expect(JSON.stringify(body)).not.toContain('internal detail');
    });
  });

  describe('Prisma errors', () => {
    it.each([
      ['a unique violation (P2002)', 'P2002', 409, 'CONFLICT'],
      ['a missing record (P2025)', 'P2025', 404, 'NOT_FOUND'],
      ['a foreign key violation (P2003)', 'P2003', 409, 'CONFLICT'],
    ])('maps %s to %i %s', (_label, prismaCode, status, code) => {
      expect(toProblem(prismaError(prismaCode))).toMatchObject({ status, code });
    });

    it('treats other known request errors as unknown', () => {
      expect(toProblem(prismaError('P2000'))).toMatchObject({ status: 500, code: 'INTERNAL' });
    });

    it('never sends the Prisma message, which names tables and queries', () => {
      for (const code of ['P2002', 'P2025', 'P2003', 'P2000']) {
        expect(JSON.stringify(toProblem(prismaError(code)))).not.toContain('prisma.user');
      }
    });

    it('only trusts the Prisma codes on Prisma errors', () => {
      const other = Object.assign(new Error('x'), { code: 'P2002' });
      expect(toProblem(other)).toMatchObject({ status: 500, code: 'INTERNAL' });
    });
  });

  describe('connection errors', () => {
    it.each([
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      'ENOTFOUND',
      'EPIPE',
      '57P01',
      '08006',
      'P2028',
    ])('maps a %s error to 503 UNAVAILABLE', (code) => {
      const body = toProblem(Object.assign(new Error(`connect ${code} 10.0.0.7:5432`), { code }));
      expect(body).toMatchObject({
        status: 503,
        code: 'UNAVAILABLE',
        title: 'Service Unavailable',
      });
      expect(body.detail).not.toContain('10.0.0.7');
    });

    it.each([
      'Connection terminated unexpectedly',
      'timeout exceeded when trying to connect',
      'Query read timeout',
    ])('maps pg\'s "%s" (no code) to 503', (message) => {
      expect(toProblem(new Error(message))).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
    });

    it('maps a Prisma initialization error to 503', () => {
      const error = Object.assign(new Error("Can't reach database server"), {
        name: 'PrismaClientInitializationError',
      });
      expect(toProblem(error)).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
    });

    it.each(['57P01', '57P03', '08006'])(
      'maps a driver adapter error carrying PostgreSQL code %s to 503',
      (code) => {
        const error = prismaError('P2039', {
          driverAdapterError: { cause: { kind: 'postgres', originalCode: code, code } },
        });
        expect(toProblem(error)).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
      },
    );

    it("maps a driver adapter error thrown bare (the server ended a transaction's connection) to 503", () => {
      // As Prisma's driver adapter throws it from a transaction when PostgreSQL stops under it.
      const error = Object.assign(
        new Error('terminating connection due to administrator command'),
        {
          name: 'DriverAdapterError',
          cause: { kind: 'postgres', originalCode: '57P01', code: '57P01', severity: 'FATAL' },
        },
      );
      expect(toProblem(error)).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
    });

    it('maps a serialization failure or deadlock to 409, the request may be repeated', () => {
      expect(toProblem(prismaError('P2034'))).toMatchObject({ status: 409, code: 'CONFLICT' });
      const deadlock = prismaError('P2010', {
        driverAdapterError: { cause: { kind: 'TransactionWriteConflict' } },
      });
      expect(toProblem(deadlock)).toMatchObject({ status: 409, code: 'CONFLICT' });
    });

    it.each(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections'])(
      'maps a driver adapter %s error to 503',
      (kind) => {
        const error = prismaError('P1001', { driverAdapterError: { cause: { kind } } });
        expect(toProblem(error)).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
      },
    );
  });

  describe('errors defined with createError', () => {
    it('keeps their code, status and message', () => {
      const body = toProblem(new UserNotFound('42'));
      expect(body).toEqual({
        type: 'urn:problem:user-not-found',
        title: 'Not Found',
        status: 404,
        detail: 'No user 42',
        code: 'USER_NOT_FOUND',
        error_message: 'No user 42',
      });
    });

    it('lists the field problems attached with withFieldErrors', () => {
      const errors = [
        { field: 'password', message: 'is too short' },
        { field: 'email', message: 'is taken' },
      ];
      const body = toProblem(
        withFieldErrors(new ValidationFailedError('The user is invalid'), errors),
      );
      expect(body).toMatchObject({
        status: 400,
        code: 'VALIDATION_FAILED',
        detail: 'The user is invalid',
        errors,
      });
    });

    it('leaves out an empty list of field problems', () => {
      const body = toProblem(withFieldErrors(new ConflictError('Name taken'), []));
      expect(body).toMatchObject({ status: 409, code: 'CONFLICT' });
      expect(body).not.toHaveProperty('errors');
    });

    it('keeps the shared UnavailableError as a 503 with its message', () => {
      const body = toProblem(new UnavailableError());
      expect(body).toMatchObject({
        status: 503,
        code: 'UNAVAILABLE',
        detail: new UnavailableError().message,
      });
    });

    it('keeps the status and code of a server error the service defined', () => {
      const RegistryUnreachable = createError(
        'REGISTRY_UNREACHABLE',
        'The registry %s did not answer',
        502,
      );
      const body = toProblem(new RegistryUnreachable('hub'));
      expect(body).toMatchObject({
        status: 502,
        code: 'REGISTRY_UNREACHABLE',
        detail: 'The registry hub did not answer',
      });
    });
  });

  describe('unknown errors', () => {
    it.each([
      ['a plain Error', new Error('password authentication failed for user "app"')],
      ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'id')")],
      [
        'a Node error with a code',
        Object.assign(new Error('EACCES: /etc/secret'), { code: 'EACCES' }),
      ],
      [
        "a library's 5xx error with a code",
        Object.assign(new Error('upstream said: db password wrong'), {
          statusCode: 502,
          code: 'UND_ERR',
        }),
      ],
    ])('renders %s as a generic 500 without its message', (_label, error) => {
      const body = toProblem(error);
      expect(body).toEqual({
        type: 'urn:problem:internal',
        title: 'Internal Server Error',
        status: 500,
        detail: 'An unexpected error occurred',
        code: 'INTERNAL',
        error_message: 'An unexpected error occurred',
      });
      expect(JSON.stringify(body)).not.toContain(error.message);
    });

    it.each([null, undefined, 'a string', 42])('renders a thrown %p as a generic 500', (thrown) => {
      expect(toProblem(thrown)).toMatchObject({ status: 500, code: 'INTERNAL' });
    });
  });

  it('always sets error_message to the detail', () => {
    for (const error of [new UserNotFound('1'), prismaError('P2002'), new Error('x')]) {
      const body = toProblem(error);
      expect(body.error_message).toBe(body.detail);
    }
  });
});
