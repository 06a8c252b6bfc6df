import fc from 'fast-check';
import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { problemDetailsPlugin } from '@platform/errors';
import { docsPlugin, fastifyOptions, validatorCompiler, type CatalogRoute } from '@platform/http';
import { unboundedInputs, type JsonSchema } from './json-schema';
import { applyMutation, serialize } from './mutations';
import { caseArbitrary, fixedCases } from './fuzz-cases';
import { formatReports, fuzzableRoutes, fuzzRoutes, responseProblem } from './route-fuzz';
import { valueOf } from './schema-arbitrary';

const ItemBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 20, pattern: '^[a-z]+$' }),
  count: Type.Integer({ minimum: 1, maximum: 10 }),
  day: Type.Optional(Type.String({ format: 'date' })),
  tags: Type.Array(Type.String({ maxLength: 5 }), { maxItems: 3 }),
  kind: Type.Union([Type.Literal('a'), Type.Literal('b')]),
});

async function buildApp(
  handler: (body: unknown) => unknown = () => ({ ok: true }),
): Promise<FastifyInstance> {
  const app = Fastify(fastifyOptions({ logLevel: 'silent', bodyLimitBytes: 4096 }));
  app.setValidatorCompiler(validatorCompiler);
  await app.register(problemDetailsPlugin);
  await app.register(docsPlugin, { title: 't', description: 'd', version: '1' });
  app.post(
    '/items/:id',
    { schema: { body: ItemBody, params: Type.Object({ id: Type.Integer() }) } },
    async (r) => handler(r.body),
  );
  app.get(
    '/items',
    { schema: { querystring: Type.Object({ limit: Type.Integer({ maximum: 5 }) }) } },
    async () => [],
  );
  await app.ready();
  return app;
}

const compileBody = (schema: object) => validatorCompiler({ schema, httpPart: 'body' } as never);

describe('valueOf', () => {
  it('produces values the schema accepts, nearly always', () => {
    const validate = compileBody(ItemBody);
    const values = fc.sample(valueOf(ItemBody as unknown as JsonSchema), { seed: 1, numRuns: 200 });
    const accepted = values.filter((v) => validate(JSON.parse(JSON.stringify(v))) === true);
    expect(accepted.length).toBeGreaterThan(190);
  });
});

describe('mutations', () => {
  it('changes one place of a value, leaving the original alone', () => {
    const value = { a: { b: 1 }, c: [1, 2] };
    const mutated = applyMutation(value, { kind: 'null', at: 2, value: null });
    expect(value).toEqual({ a: { b: 1 }, c: [1, 2] });
    expect(mutated).toEqual({ a: { b: null }, c: [1, 2] });
    expect(applyMutation(value, { kind: 'missing', at: 0, value: undefined })).toEqual({
      c: [1, 2],
    });
  });

  it('writes __proto__ keys and deep nesting as raw JSON', () => {
    const proto = applyMutation({ a: 1 }, { kind: 'proto-key', at: 0, value: { admin: true } });
    expect(serialize(proto)).toBe('{"a":1,"__proto__":{"admin":true}}');
    const deep = serialize(
      applyMutation({ a: 1 }, { kind: 'deep-nesting', at: 1, value: '\u0001deep' }),
    );
    expect(deep.startsWith('{"a":{"a":{"a":')).toBe(true);
    expect(deep.length).toBeGreaterThan(25_000);
  });
});

describe('caseArbitrary and fixedCases', () => {
  let app: FastifyInstance;
  let route: CatalogRoute;
  beforeAll(async () => {
    app = await buildApp();
    route = fuzzableRoutes(app).find((r) => r.method === 'POST') as CatalogRoute;
  });
  afterAll(() => app.close());

  it('generates plenty of certainly-wrong cases and plenty of plausible ones', () => {
    const cases = fc.sample(caseArbitrary(route), { seed: 7, numRuns: 300 });
    expect(cases.filter((c) => c.mustReject).length).toBeGreaterThan(100);
    expect(cases.filter((c) => !c.mustReject).length).toBeGreaterThan(30);
    const wrongType = cases.find(
      (c) => c.kind === 'body wrong-type' && c.request.payload?.includes('"count":"x"'),
    );
    if (wrongType) expect(wrongType.mustReject).toBe(true);
  });

  it('covers oversized bodies, malformed JSON, prototype keys, content types and odd path parameters', () => {
    const kinds = fixedCases(route, { bodyLimitBytes: 4096, maxParamLength: 100 }).map(
      (c) => c.kind,
    );
    expect(kinds).toEqual(
      expect.arrayContaining([
        'oversized-body',
        'malformed-json 0',
        'json-with-proto',
        'json-with-constructor',
        'deep-nesting',
        'content-type application/xml',
        'odd-path-param 2',
        'query junk',
      ]),
    );
  });
});

describe('responseProblem', () => {
  const response = (statusCode: number, body: object, type = 'application/problem+json') =>
    ({
      statusCode,
      headers: { 'content-type': type },
      body: JSON.stringify(body),
      json: () => body,
    }) as never;
  const fuzzCase = (mustReject: boolean) => ({
    kind: 'k',
    mustReject,
    request: { method: 'GET', url: '/', headers: {} },
  });
  const problem = {
    type: 't',
    title: 'x',
    status: 400,
    detail: 'd',
    code: 'C',
    error_message: 'd',
  };

  it('accepts a problem for a wrong request and anything below 500 for a plausible one', () => {
    expect(responseProblem(fuzzCase(true), response(400, problem))).toBeNull();
    expect(responseProblem(fuzzCase(false), response(200, {}, 'application/json'))).toBeNull();
  });

  it('refuses a 5xx, an accepted wrong request and a 4xx that is not a problem', () => {
    expect(responseProblem(fuzzCase(false), response(500, problem))).toMatch(/^answered 500/);
    expect(responseProblem(fuzzCase(true), response(200, {}))).toMatch(
      /accepted a request that is wrong/,
    );
    expect(
      responseProblem(fuzzCase(true), response(400, { error: 'x' }, 'application/json')),
    ).toMatch(/not problem\+json/);
    expect(responseProblem(fuzzCase(true), response(400, { error: 'x' }))).toMatch(
      /malformed problem/,
    );
  });
});

describe('fuzzRoutes', () => {
  it('passes a sound app and reports what it tried', async () => {
    const app = await buildApp();
    try {
      const reports = await fuzzRoutes(fuzzableRoutes(app), {
        app,
        prepare: (_route, request) => request,
        snapshot: async () => 'unchanged',
        bodyLimitBytes: 4096,
        maxParamLength: 100,
        seed: 3,
        runsPerRoute: 30,
      });
      expect(reports.map((r) => r.route)).toEqual(['POST /items/:id', 'GET /items']);
      expect(reports[0].cases).toBeGreaterThan(30);
      expect(formatReports(reports, { seed: 3, runsPerRoute: 30 })).toMatch(
        /total: \d+ requests on 2 endpoints/,
      );
    } finally {
      await app.close();
    }
  });

  it('finds a handler that fails on input its schema lets through', async () => {
    const app = await buildApp((body) => {
      if ((body as { kind: string }).kind === 'b') throw new Error('b is not handled');
      return { ok: true };
    });
    try {
      const run = fuzzRoutes(fuzzableRoutes(app), {
        app,
        prepare: (_route, request) => request,
        snapshot: async () => 'unchanged',
        bodyLimitBytes: 4096,
        maxParamLength: 100,
        seed: 3,
        runsPerRoute: 50,
      });
      await expect(run).rejects.toThrow(/answered 500/);
    } finally {
      await app.close();
    }
  });

  it('finds a refused request that changed the database', async () => {
    let rows = 0;
    const app = await buildApp();
    try {
      const run = fuzzRoutes(fuzzableRoutes(app), {
        app,
        prepare: (_route, request) => {
          rows += 1;
          return request;
        },
        snapshot: async () => rows,
        bodyLimitBytes: 4096,
        maxParamLength: 100,
        seed: 3,
        runsPerRoute: 5,
      });
      await expect(run).rejects.toThrow(/changed the database/);
    } finally {
      await app.close();
    }
  });
});

describe('unboundedInputs', () => {
  it('lists strings without maxLength and arrays without maxItems', () => {
    const schema = Type.Object({
      ok: Type.String({ maxLength: 3 }),
      id: Type.String({ pattern: '^[0-9a-f]{32}$' }),
      day: Type.String({ format: 'date' }),
      free: Type.String(),
      loose: Type.String({ pattern: '^a+$' }),
      list: Type.Array(Type.String()),
      nested: Type.Object({ deep: Type.Optional(Type.Union([Type.String(), Type.Null()])) }),
      mode: Type.Union([Type.Literal('a'), Type.Literal('b')]),
    });
    expect(unboundedInputs(schema as unknown as JsonSchema, 'body')).toEqual([
      'body.free: string without maxLength',
      'body.loose: string without maxLength',
      'body.list: array without maxItems',
      'body.list[]: string without maxLength',
      'body.nested.deep: string without maxLength',
    ]);
  });
});
