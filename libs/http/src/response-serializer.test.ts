import fastJson from 'fast-json-stringify';
import { Type, type Static } from '@sinclair/typebox';
import { createServiceApp } from './service-app';
import { nullableAsTypeList, serializerCompiler } from './response-serializer';

const Source = Type.Union([
  Type.Object({ channel: Type.Union([Type.String(), Type.Null()]) }),
  Type.Null(),
]);
const Event = Type.Object({
  id: Type.Integer(),
  at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When' }),
  source: Source,
  size: Type.Union([Type.Null(), Type.Integer()]),
  either: Type.Union([Type.Integer(), Type.Literal(''), Type.Null()]),
});
const events: Static<typeof Event>[] = [
  { id: 1, at: '2025-03-03T09:30:00.000Z', source: { channel: 'C1' }, size: 3, either: 2 },
  { id: 2, at: null, source: { channel: null }, size: null, either: '' },
  { id: 3, at: null, source: null, size: null, either: null },
];

describe('nullableAsTypeList', () => {
  it('writes a union of one type and null as a type list, keeping its keywords', () => {
    const schema = nullableAsTypeList(Event) as { properties: Record<string, unknown> };
    expect(schema.properties.at).toEqual({
      type: ['string', 'null'],
      format: 'date-time',
      description: 'When',
    });
    expect(schema.properties.size).toEqual({ type: ['integer', 'null'] });
    expect(schema.properties.source).toMatchObject({
      type: ['object', 'null'],
      properties: { channel: { type: ['string', 'null'] } },
    });
  });

  it('leaves a union of more than one type with null as it is', () => {
    const schema = nullableAsTypeList(Event) as { properties: Record<string, unknown> };
    expect(schema.properties.either).toEqual({
      anyOf: [{ type: 'integer' }, { const: '', type: 'string' }, { type: 'null' }],
    });
  });

  it('serializes every value exactly as the union does, and refuses the same wrong ones', () => {
    const asUnion = fastJson(Type.Array(Event));
    const asTypeList = fastJson(nullableAsTypeList(Type.Array(Event)) as object);
    expect(asTypeList(events)).toBe(asUnion(events));
    expect(JSON.parse(asTypeList(events))).toEqual(events);
    const wrong = [{ ...events[0], source: 7 }];
    expect(() => asUnion(wrong)).toThrow(TypeError);
    expect(() => asTypeList(wrong)).toThrow(TypeError);
  });
});

describe("a service's responses", () => {
  it('are serialized through the type lists while the OpenAPI document keeps the unions as nullable', async () => {
    const app = createServiceApp(
      {
        LOG_LEVEL: 'silent',
        BODY_LIMIT_BYTES: 1024,
        REQUEST_TIMEOUT_MS: 30_000,
        TRUST_PROXY: 'false',
      },
      {},
    );
    await app.register(import('@fastify/swagger'), { openapi: { openapi: '3.0.3' } });
    expect(app.serializerCompiler).toBe(serializerCompiler);
    app.get('/events', { schema: { response: { 200: Type.Array(Event) } } }, async () => events);
    const response = await app.inject('/events');
    expect(response.json()).toEqual(events);

    const document = app.swagger() as unknown as {
      paths: Record<string, { get: { responses: Record<string, unknown> } }>;
    };
    expect(document.paths['/events'].get.responses['200']).toMatchObject({
      content: {
        'application/json': {
          schema: {
            items: { properties: { source: { type: 'object', nullable: true } } },
          },
        },
      },
    });
    await app.close();
  });
});
