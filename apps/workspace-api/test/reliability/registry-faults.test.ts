import { formatCounts } from '@platform/testing';
import { createHarness, type Harness } from '../harness';
import { registryFiles, startRegistryServer, type RegistryServer } from '../registry-server';
import { registryList, STANDARD_WORKSPACES } from '../registry-fixtures';

// Long enough that a request blocked behind a hanging registry would show in the p99 even on a
// loaded machine, where ordinary requests are slow too.
const TIMEOUT_MS = 3000;

let h: Harness;
let server: RegistryServer;
beforeAll(async () => {
  [h, server] = await Promise.all([
    createHarness({ REGISTRY_FETCH_TIMEOUT_MS: String(TIMEOUT_MS) }),
    startRegistryServer(),
  ]);
  const files = registryFiles('1.0', { '1.0': registryList(STANDARD_WORKSPACES) });
  server.serve('/hang', { 'versions.txt': () => undefined });
  server.serve('/reset', { 'versions.txt': (req) => req.socket.destroy() });
  server.serve('/reset-mid-body', {
    ...files,
    '1.0/list.json': (req, res) => {
      res.writeHead(200, { 'content-length': '100000' });
      res.write('{"name": "half a list", "workspaces": [');
      setTimeout(() => req.socket.destroy(), 50);
    },
  });
  // Warm up (the first queries of a fresh app compile), so that the timings below are the faults'.
  await h.call('get_users');
  await h.call('get_registries');
  server.serve('/slow', {
    ...files,
    'versions.txt': (_req, res) => setTimeout(() => res.end('1.0\n'), TIMEOUT_MS / 3),
  });
});
afterAll(async () => {
  await server.close();
  await h.close();
});

const add = (prefix: string) =>
  h.call('add_registry', { registry_url: `${server.origin}${prefix}` });

describe('registries that hang, reset connections or answer slowly', () => {
  it('never hold up other requests, and each add_registry ends within its timeout', async () => {
    const started = Date.now();
    const outcomes = Promise.all(
      ['/hang', '/reset', '/reset-mid-body', '/slow'].map(async (prefix) => {
        const res = await add(prefix);
        return {
          prefix,
          status: res.statusCode,
          code: res.json().code as string | undefined,
          ms: Date.now() - started,
        };
      }),
    );
    // Meanwhile the API answers as usual.
    const latencies: number[] = [];
    const statuses: Record<string, number> = {};
    while (Date.now() - started < TIMEOUT_MS) {
      const t0 = performance.now();
      const res = await h.call('get_users');
      latencies.push(performance.now() - t0);
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    }
    const results = await outcomes;
    latencies.sort((a, b) => a - b);
    const p99 = Math.round(latencies[Math.floor(latencies.length * 0.99)]);
    process.stdout.write(
      `workspace-api registry faults: ${results.map((r) => `${r.prefix} → ${r.status} ${r.code ?? ''} in ${r.ms} ms`).join('; ')}; ` +
        `${latencies.length} other requests meanwhile: ${formatCounts(statuses)}, p99 ${p99} ms\n`,
    );
    expect(results).toEqual([
      expect.objectContaining({ prefix: '/hang', status: 400, code: 'REGISTRY_TIMEOUT' }),
      expect.objectContaining({ prefix: '/reset', status: 400, code: 'REGISTRY_UNREACHABLE' }),
      expect.objectContaining({
        prefix: '/reset-mid-body',
        status: 400,
        code: 'REGISTRY_UNREACHABLE',
      }),
      expect.objectContaining({ prefix: '/slow', status: 200 }),
    ]);
    for (const r of results) expect(r.ms).toBeLessThan(TIMEOUT_MS + 10_000);
    expect(Object.keys(statuses)).toEqual(['200']);
    expect(p99).toBeLessThan(TIMEOUT_MS);
    expect(await h.db.registry.count()).toBe(1);
  });
});
