import Fastify, { type FastifyInstance } from 'fastify';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '@platform/testing';
import { inSpan, requestSpans, startTracing, tracesUrl, tracingEnv } from './index';

const log = { warn: () => undefined };
const config = (env: Partial<Record<keyof ReturnType<typeof tracingEnv>, string>>) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: '',
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '',
  OTEL_SERVICE_NAME: 'tracing-test',
  ...env,
});

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
/** OTLP numbers span kinds from 1 (the API from 0): SPAN_KIND_SERVER. */
const OTLP_SERVER = 2;

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.close());

async function tracedApp(endpoint: string): Promise<FastifyInstance> {
  const tracing = startTracing(config({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }), log);
  const app = Fastify();
  await app.register(requestSpans, { tracing });
  app.get('/things/:id', async () =>
    inSpan(tracing.tracer, 'load thing', async () => ({ ok: true }), {
      attributes: { thing: 'a' },
    }),
  );
  app.post('/things', async (request) =>
    inSpan(tracing.tracer, 'store thing', async () => request.body),
  );
  app.get('/broken', async () =>
    inSpan(tracing.tracer, 'fail', async () => {
      throw new Error('out of things');
    }),
  );
  app.get('/background', async () => {
    await inSpan(tracing.tracer, 'engine call', async () => undefined, { childOnly: true });
    return {};
  });
  return app;
}

const named = (spans: ReceivedSpan[], name: string) => {
  const found = spans.filter((span) => span.name === name);
  expect(found).toHaveLength(1);
  return found[0];
};

describe('tracesUrl', () => {
  it('appends /v1/traces to the base endpoint, and takes the traces endpoint as is', () => {
    expect(tracesUrl(config({}))).toBeNull();
    expect(tracesUrl(config({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' }))).toBe(
      'http://c:4318/v1/traces',
    );
    expect(
      tracesUrl(
        config({
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://d/traces',
        }),
      ),
    ).toBe('http://d/traces');
  });
});

describe('with an endpoint', () => {
  let spans: ReceivedSpan[];
  beforeAll(async () => {
    const app = await tracedApp(receiver.url);
    const traced = await app.inject({
      url: '/things/7',
      headers: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
    });
    expect(traced.statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'POST', url: '/things', payload: { a: 1 } })).json(),
    ).toEqual({ a: 1 });
    expect((await app.inject({ url: '/broken' })).statusCode).toBe(500);
    expect((await app.inject({ url: '/nowhere' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/background' })).statusCode).toBe(200);
    // Closing sends what the batch still holds.
    await app.close();
    spans = receiver.spans();
  });

  it("makes a server span per request named by its route, the caller's span its parent", () => {
    const server = named(spans, 'GET /things/:id');
    expect(server).toMatchObject({
      service: 'tracing-test',
      kind: OTLP_SERVER,
      traceId: TRACE_ID,
      parentSpanId: CALLER_SPAN,
      attributes: {
        'http.request.method': 'GET',
        'http.route': '/things/:id',
        'http.response.status_code': 200,
      },
    });
    expect(server.endNs).toBeGreaterThanOrEqual(server.startNs);
    const child = named(spans, 'load thing');
    expect(child).toMatchObject({
      traceId: TRACE_ID,
      parentSpanId: server.spanId,
      attributes: { thing: 'a' },
    });
  });

  it('keeps the request span active in a handler that read a body', () => {
    const server = named(spans, 'POST /things');
    expect(server.parentSpanId).toBe('');
    expect(named(spans, 'store thing')).toMatchObject({
      traceId: server.traceId,
      parentSpanId: server.spanId,
    });
  });

  it('marks a failed span and a 5xx request as errors', () => {
    expect(named(spans, 'fail').statusCode).toBe(2);
    expect(named(spans, 'GET /broken')).toMatchObject({
      statusCode: 2,
      attributes: { 'http.response.status_code': 500 },
    });
  });

  it('names an unmatched request by its method alone, without its path', () => {
    const unmatched = named(spans, 'GET');
    expect(unmatched.attributes['http.response.status_code']).toBe(404);
    expect(JSON.stringify(unmatched.attributes)).not.toContain('nowhere');
  });

  it('makes a child-only span only under a parent', () => {
    expect(named(spans, 'engine call').parentSpanId).toBe(named(spans, 'GET /background').spanId);
  });
});

describe('without an endpoint', () => {
  it('starts nothing and exports nothing, even with the SDK variables pointing at a receiver', async () => {
    const quiet = await startOtlpReceiver();
    const saved = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = quiet.url;
    try {
      const app = await tracedApp('');
      expect((await app.inject({ url: '/things/1' })).statusCode).toBe(200);
      const tracing = startTracing(config({}), log);
      expect(tracing.enabled).toBe(false);
      expect(await inSpan(tracing.tracer, 'x', async (span) => span.isRecording())).toBe(false);
      await app.close();
      expect(quiet.exports()).toBe(0);
    } finally {
      if (saved === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
      else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = saved;
      await quiet.close();
    }
  });
});

describe('a collector that refuses the spans', () => {
  it("loses them with a warning, and never fails the app's close", async () => {
    const warnings: string[] = [];
    const tracing = startTracing(
      config({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/not-a-receiver` }),
      { warn: (_fields, message) => warnings.push(message) },
    );
    const app = Fastify();
    await app.register(requestSpans, { tracing });
    app.get('/', async () => ({}));
    expect((await app.inject({ url: '/' })).statusCode).toBe(200);
    await expect(app.close()).resolves.toBeUndefined();
    expect(warnings).toContain('tracing: spans not sent at shutdown');
  });
});
