import { createHarness, type Harness } from '../harness';

type Schema = {
  type?: string | string[];
  examples?: unknown[];
  example?: unknown;
  default?: unknown;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  required?: string[];
};
type Operation = {
  responses: Record<string, { description?: string }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
};

/** The sample body a reader of /docs is offered, built as Swagger UI builds it. */
function sample(schema: Schema): unknown {
  if (schema.example !== undefined) return schema.example;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.anyOf?.length) return sample(schema.anyOf[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object' || schema.properties)
    return Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sample(v)]),
    );
  if (type === 'array') return [sample(schema.items ?? {})];
  if (type === 'boolean') return true;
  if (type === 'integer' || type === 'number') return 0;
  return 'string';
}

let h: Harness;
let paths: Record<string, Record<string, Operation>>;
beforeAll(async () => {
  h = await createHarness();
  paths = (await h.inject({ url: '/docs/json' })).json().paths;
});
afterAll(() => h.close());

describe('the OpenAPI document at /docs', () => {
  it('describes every documented response', () => {
    const undescribed = Object.entries(paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, op]) =>
        Object.entries(op.responses)
          .filter(([, r]) => !r.description || r.description === 'Default Response')
          .map(([status]) => `${method} ${path} ${status}`),
      ),
    );
    expect(undescribed).toEqual([]);
  });

  it('offers a create_user sample that is a valid request: a password that passes the rules, locked false', async () => {
    const schema = paths['/api/public/create_user'].post.requestBody?.content['application/json']
      .schema as Schema;
    const body = sample(schema) as { target_user: Record<string, unknown> };
    expect(body.target_user).toMatchObject({ locked: false, disabled: false });
    const res = await h.call('create_user', body);
    expect(res.json()).toMatchObject({ user: { username: 'string', locked: false } });
    expect(res.statusCode).toBe(200);
  });
});
