import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createServiceApp } from '@platform/http';
import { problemDetailsPlugin } from '@platform/errors';
import { Type } from '@sinclair/typebox';
import { backgroundRounds } from './background-rounds';
import { bearerMatches } from './bearer';
import { parseExposition, sampleSum } from './exposition';
import { metricsEnvProblems, type MetricsConfig } from './metrics-env';
import { metrics } from './metrics.plugin';
import { createRegistry } from './registry';

const TOKEN = 'a-metrics-token-of-some-length-xx';
const httpConfig = {
  LOG_LEVEL: 'silent',
  BODY_LIMIT_BYTES: 1_000_000,
  REQUEST_TIMEOUT_MS: 10_000,
  TRUST_PROXY: 'false',
};

async function appWith(config: MetricsConfig) {
  const registry = createRegistry();
  const app = createServiceApp(httpConfig, {});
  await app.register(metrics, { registry, config });
  await app.register(problemDetailsPlugin, {});
  app.get('/items/:id', { schema: { params: Type.Object({ id: Type.String() }) } }, async () => ({
    ok: true,
  }));
  await app.ready();
  return { app, registry };
}

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});
async function built(config: MetricsConfig) {
  const made = await appWith(config);
  apps.push(made.app);
  return made;
}

/** A port free a moment ago (the listener under test takes it next). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const bearer = { authorization: `Bearer ${TOKEN}` };

describe('/metrics on the public port (METRICS_TOKEN without METRICS_PORT)', () => {
  it("answers the text format, whose every line Prometheus reads, with the registry's families", async () => {
    const { app, registry } = await built({ METRICS_TOKEN: TOKEN, METRICS_PORT: 0 });
    const response = await app.inject({ url: '/metrics', headers: bearer });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(registry.contentType);
    const parsed = parseExposition(response.body);
    const families = (await registry.getMetricsAsJSON()).map((m) => [m.name, m.type]);
    expect([...parsed.types.entries()].sort()).toEqual(families.sort());
    expect(parsed.types.get('process_cpu_seconds_total')).toBe('counter');
  });

  it('counts requests by route pattern, never by raw URL, and unmatched ones under one label', async () => {
    const { app } = await built({ METRICS_TOKEN: TOKEN, METRICS_PORT: 0 });
    await app.inject({ url: '/items/1' });
    await app.inject({ url: '/items/2' });
    await app.inject({ url: '/nothing/here' });
    await app.inject({ url: '/also/nothing' });
    const parsed = parseExposition((await app.inject({ url: '/metrics', headers: bearer })).body);
    const count = (labels: Record<string, string>) =>
      sampleSum(parsed, 'http_request_duration_seconds_count', labels);
    expect(count({ route: '/items/:id', method: 'GET', status_code: '200' })).toBe(2);
    expect(count({ route: 'unmatched', status_code: '404' })).toBe(2);
    const routes = new Set(parsed.samples.map((s) => s.labels.route).filter(Boolean));
    expect([...routes].some((route) => /\/items\/\d|nothing/.test(route))).toBe(false);
  });

  it.each([
    ['no Authorization header', {}],
    ['another token', { authorization: 'Bearer another-token' }],
    ['the token without Bearer', { authorization: TOKEN }],
  ])('answers 401 problem+json to %s', async (_, headers) => {
    const { app } = await built({ METRICS_TOKEN: TOKEN, METRICS_PORT: 0 });
    const response = await app.inject({ url: '/metrics', headers });
    expect(response.statusCode).toBe(401);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ code: 'METRICS_TOKEN_INVALID' });
    expect(response.body).not.toContain('process_cpu');
  });

  it('serves no /metrics at all when neither METRICS_TOKEN nor METRICS_PORT is set', async () => {
    const { app } = await built({ METRICS_TOKEN: '', METRICS_PORT: 0 });
    expect((await app.inject({ url: '/metrics' })).statusCode).toBe(404);
    expect(app.metricsAddress()).toBeNull();
  });
});

describe('/metrics on its own port (METRICS_PORT)', () => {
  it('serves the metrics there and not on the public port, and stops with the app', async () => {
    const port = await freePort();
    const { app } = await built({ METRICS_TOKEN: '', METRICS_PORT: port });
    expect(app.metricsAddress()?.port).toBe(port);
    expect((await app.inject({ url: '/metrics' })).statusCode).toBe(404);
    await app.inject({ url: '/items/7' });
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(response.status).toBe(200);
    const parsed = parseExposition(await response.text());
    expect(sampleSum(parsed, 'http_request_duration_seconds_count', { route: '/items/:id' })).toBe(
      1,
    );
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    await app.close();
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });

  it('asks for the token there too when METRICS_TOKEN is set', async () => {
    const port = await freePort();
    await built({ METRICS_TOKEN: TOKEN, METRICS_PORT: port });
    const url = `http://127.0.0.1:${port}/metrics`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await fetch(url, { headers: bearer })).status).toBe(200);
  });

  it('fails the start when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '0.0.0.0', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      await expect(appWith({ METRICS_TOKEN: '', METRICS_PORT: port })).rejects.toThrow(
        /EADDRINUSE/,
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('is refused by the configuration when it is the public port', () => {
    expect(metricsEnvProblems({ PORT: 3001, METRICS_PORT: 3001, METRICS_TOKEN: '' })).toHaveLength(
      1,
    );
    expect(metricsEnvProblems({ PORT: 3001, METRICS_PORT: 9464, METRICS_TOKEN: '' })).toEqual([]);
    expect(metricsEnvProblems({ PORT: 3001, METRICS_PORT: 0, METRICS_TOKEN: 'short' })).toEqual([
      expect.stringContaining('METRICS_TOKEN: must be at least 32 characters'),
    ]);
    expect(
      metricsEnvProblems({ PORT: 3001, METRICS_PORT: 0, METRICS_TOKEN: 'x'.repeat(32) }),
    ).toEqual([]);
    expect(metricsEnvProblems({ PORT: 3001, METRICS_PORT: 0, METRICS_TOKEN: '' })).toEqual([]);
  });
});

describe('bearerMatches', () => {
  it.each([
    [`Bearer ${TOKEN}`, true],
    [`bearer ${TOKEN}`, true],
    [`Bearer ${TOKEN}x`, false],
    [`Bearer ${TOKEN.slice(1)}`, false],
    ['Bearer ', false],
    [undefined, false],
    [`Basic ${TOKEN}`, false],
  ])('answers %s → %s', (header, expected) => {
    expect(bearerMatches(header, TOKEN)).toBe(expected);
  });
});

describe('backgroundRounds', () => {
  it('records each round of each loop: lateness (never negative) and duration', async () => {
    const registry = createRegistry();
    const rounds = backgroundRounds(registry);
    rounds('worker')({ lateMs: 1500, durationMs: 20 });
    rounds('worker')({ lateMs: -3, durationMs: 10 });
    rounds('other')({ lateMs: 0, durationMs: 0 });
    const parsed = parseExposition(await registry.metrics());
    const late = (labels: Record<string, string>) =>
      sampleSum(parsed, 'background_round_lateness_seconds_bucket', { loop: 'worker', ...labels });
    expect(sampleSum(parsed, 'background_round_lateness_seconds_count', { loop: 'worker' })).toBe(
      2,
    );
    expect(sampleSum(parsed, 'background_round_lateness_seconds_sum', { loop: 'worker' })).toBe(
      1.5,
    );
    expect(late({ le: '1' })).toBe(1);
    expect(late({ le: '2.5' })).toBe(2);
    expect(
      sampleSum(parsed, 'background_round_duration_seconds_sum', { loop: 'worker' }),
    ).toBeCloseTo(0.03);
  });
});

describe('parseExposition', () => {
  it.each([
    ['a sample of an undeclared family', 'foo 1\n'],
    ['a label value left unquoted', '# TYPE foo gauge\nfoo{a=b} 1\n'],
    ['a value that is no float', '# TYPE foo gauge\nfoo 1x\n'],
    ['a stray line', '# TYPE foo gauge\nfoo\n'],
    ['a bad escape', '# TYPE foo gauge\nfoo{a="\\t"} 1\n'],
  ])('refuses %s', (_, text) => {
    expect(() => parseExposition(text)).toThrow();
  });

  it('reads escaped label values, several labels, +Inf and timestamps', () => {
    const parsed = parseExposition(
      '# HELP foo x\n# TYPE foo histogram\nfoo_bucket{a="q\\"\\\\",le="+Inf"} 3 1700000000000\nfoo_count 3\n',
    );
    expect(parsed.samples[0]).toEqual({
      name: 'foo_bucket',
      labels: { a: 'q"\\', le: '+Inf' },
      value: 3,
    });
    expect(sampleSum(parsed, 'foo_count')).toBe(3);
  });
});
