import { bodiesToEveryRoute } from '@platform/testing';
import { createHarness, keyHeaders, type Harness } from '../harness';

// Over a real connection, to every route the app registered: what the schema-driven fuzzing
// (property.test.ts) cannot reach, the session proxy's wildcard, web pages and health routes.
let h: Harness;
let origin: string;
beforeAll(async () => {
  // A smaller body limit: "over the limit" costs 64 KiB a request, not 1 MiB, on busy CI cores.
  h = await createHarness({
    AUTH_FAILURE_LIMIT: '0',
    LOGIN_FAILURE_LIMIT: '0',
    BODY_LIMIT_BYTES: '65536',
  });
  origin = await h.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => h?.close());

describe('every route under every kind of body', () => {
  it.each([
    ['without credentials', {}],
    ['with a global_admin key', 'admin'],
  ])(
    'never answers 5xx and keeps serving, %s',
    async (_name, credentials) => {
      const headers = credentials === 'admin' ? keyHeaders(h.admin) : {};
      const report = await bodiesToEveryRoute(h.app, origin, {
        bodyLimitBytes: h.config.BODY_LIMIT_BYTES,
        headers,
      });
      process.stdout.write(`workspace-api: ${report.sent} bodies to ${report.routes} routes\n`);
      expect(report.failures).toEqual([]);
      expect(report.routes).toBeGreaterThan(60);
    },
    300_000,
  );
});
