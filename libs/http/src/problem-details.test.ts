import { PassThrough } from 'node:stream';
import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import {
  createError,
  problemDetailsPlugin,
  UnavailableError,
  withRetryAfter,
} from '@platform/errors';
import { fastifyOptions, validatorCompiler, type HttpOptions } from './fastify-options';
import { inputGuardPlugin } from './input-guard.plugin';

const SECRET = 'password authentication failed for user "app" at 10.0.0.7';
const UserNotFound = createError('USER_NOT_FOUND', 'No user %s', 404);

const UserBody = Type.Object({
  name: Type.String({ minLength: 1 }),
  age: Type.Integer({ minimum: 0 }),
  admin: Type.Boolean(),
});

async function buildTestApp(options: Partial<HttpOptions> = {}): Promise<FastifyInstance> {
  // Built as the services build theirs (see apps/*/src/app.ts).
  const app = Fastify(fastifyOptions({ logLevel: 'silent', bodyLimitBytes: 1024, ...options }));
  app.setValidatorCompiler(validatorCompiler);
  await app.register(problemDetailsPlugin);
  await app.register(inputGuardPlugin);
  app.post('/users', { schema: { body: UserBody } }, async (request) => ({
    received: request.body,
  }));
  app.get(
    '/users',
    { schema: { querystring: Type.Object({ limit: Type.Integer({ minimum: 1 }) }) } },
    async (request) => {
      const { limit } = request.query as { limit: unknown };
      return { limit, type: typeof limit };
    },
  );
  app.get('/users/:id', async (request) => {
    throw new UserNotFound((request.params as { id: string }).id);
  });
  app.get('/boom', async () => {
    throw new Error(SECRET);
  });
  app.get('/db-down', async () => {
    throw Object.assign(new Error(`connect ECONNREFUSED ${SECRET}`), { code: 'ECONNREFUSED' });
  });
  app.get('/throttled', async () => {
    throw withRetryAfter(new (createError('TOO_MANY_REQUESTS', 'Slow down', 429))(), 42.2);
  });
  app.get('/maintenance', async () => {
    throw new UnavailableError();
  });
  await app.ready();
  return app;
}

function expectProblem(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = response.json();
  expect(body).toMatchObject({ status, code, type: expect.stringMatching(/^urn:problem:/) });
  expect(typeof body.title).toBe('string');
  expect(body.error_message).toBe(body.detail);
  return body;
}

const validUser = { name: 'Ada', age: 36, admin: false };

describe('problemDetailsPlugin', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await buildTestApp();
  });

  afterAll(async () => {
    await app.close();
  });

  it('accepts a valid body, so the failures below are about the request', async () => {
    const response = await app.inject({ method: 'POST', url: '/users', payload: validUser });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: validUser });
  });

  it('answers malformed JSON with 400 INVALID_JSON', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/users',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "Ada",',
    });
    expectProblem(response, 400, 'INVALID_JSON');
  });

  it('answers an empty JSON body with 400 INVALID_JSON', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/users',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expectProblem(response, 400, 'INVALID_JSON');
  });

  it('answers a content type it cannot parse with 415', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/users',
      headers: { 'content-type': 'application/xml' },
      payload: '<user/>',
    });
    expectProblem(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers a text/plain body with 415, saying to send content-type: application/json', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/users',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify(validUser),
    });
    const body = expectProblem(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(body.detail).toContain('content-type: application/json');
  });

  it('answers a known path asked with another method with 405 and the methods it allows', async () => {
    const put = await app.inject({ method: 'PUT', url: '/users?x=1' });
    expectProblem(put, 405, 'METHOD_NOT_ALLOWED');
    expect(put.headers.allow).toBe('GET, POST');
    const getOnly = await app.inject({ method: 'POST', url: '/users/42' });
    expectProblem(getOnly, 405, 'METHOD_NOT_ALLOWED');
    expect(getOnly.headers.allow).toBe('GET');
  });

  it('answers a body over the limit with 413', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/users',
      payload: { ...validUser, name: 'x'.repeat(2048) },
    });
    expectProblem(response, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('answers a schema violation with 400 VALIDATION_FAILED listing every problem', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/users',
      payload: { name: '', age: -1 },
    });
    const body = expectProblem(response, 400, 'VALIDATION_FAILED');
    const fields = (body.errors as { field: string; message: string }[]).map((e) => e.field);
    expect(fields.sort()).toEqual(['admin', 'age', 'name']);
    for (const problem of body.errors) expect(problem.message).toEqual(expect.any(String));
  });

  it('does not coerce a string where the body wants a boolean', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/users',
      payload: { ...validUser, admin: 'true' },
    });
    const body = expectProblem(response, 400, 'VALIDATION_FAILED');
    expect(body.errors).toEqual([{ field: 'admin', message: 'must be true or false' }]);
  });

  it('does not coerce a string where the body wants a number', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/users',
      payload: { ...validUser, age: '36' },
    });
    const body = expectProblem(response, 400, 'VALIDATION_FAILED');
    expect(body.errors).toEqual([{ field: 'age', message: 'must be a whole number' }]);
  });

  it('coerces a numeric query string to a number', async () => {
    const response = await app.inject({ method: 'GET', url: '/users?limit=5' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ limit: 5, type: 'number' });
  });

  it('answers a query string that is not a number with 400 naming the parameter', async () => {
    const response = await app.inject({ method: 'GET', url: '/users?limit=five' });
    const body = expectProblem(response, 400, 'VALIDATION_FAILED');
    expect(body.errors).toEqual([{ field: 'limit', message: 'must be a whole number' }]);
  });

  it('answers an unknown route with a 404 problem naming the route without its query', async () => {
    const response = await app.inject({ method: 'DELETE', url: '/nowhere?token=abc' });
    const body = expectProblem(response, 404, 'ROUTE_NOT_FOUND');
    expect(body.detail).toBe('No route DELETE /nowhere');
  });

  it('renders an error defined with createError with its own code and status', async () => {
    const response = await app.inject({ method: 'GET', url: '/users/42' });
    const body = expectProblem(response, 404, 'USER_NOT_FOUND');
    expect(body.detail).toBe('No user 42');
  });

  it('answers a thrown unknown error with a 500 that does not contain its message', async () => {
    const response = await app.inject({ method: 'GET', url: '/boom' });
    const body = expectProblem(response, 500, 'INTERNAL');
    expect(response.body).not.toContain('password');
    expect(response.body).not.toContain('10.0.0.7');
    expect(body.detail).toBe('An unexpected error occurred');
  });

  it('answers an unreachable database with 503 and a retry-after header', async () => {
    const response = await app.inject({ method: 'GET', url: '/db-down' });
    expectProblem(response, 503, 'UNAVAILABLE');
    expect(response.headers['retry-after']).toBe('5');
    expect(response.body).not.toContain('10.0.0.7');
  });

  it('sends the retry-after an error carries, rounded up to whole seconds', async () => {
    const response = await app.inject({ method: 'GET', url: '/throttled' });
    expectProblem(response, 429, 'TOO_MANY_REQUESTS');
    expect(response.headers['retry-after']).toBe('43');
  });

  it('sends retry-after with the shared UnavailableError too', async () => {
    const response = await app.inject({ method: 'GET', url: '/maintenance' });
    expectProblem(response, 503, 'UNAVAILABLE');
    expect(response.headers['retry-after']).toBe('5');
  });

  it('logs the full unknown error that it does not send', async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    stream.on('data', (chunk: Buffer) =>
      lines.push(...chunk.toString().split('\n').filter(Boolean)),
    );
    const logged = await buildTestApp({ logLevel: 'error', logStream: stream });
    try {
      await logged.inject({ method: 'GET', url: '/boom' });
    } finally {
      await logged.close();
    }
    const entries = lines.map((line) => JSON.parse(line));
    expect(entries).toContainEqual(
      expect.objectContaining({
        msg: 'request failed',
        err: expect.objectContaining({ message: SECRET }),
      }),
    );
  });
});
