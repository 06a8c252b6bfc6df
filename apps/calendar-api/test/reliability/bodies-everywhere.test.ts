import { bodiesToEveryRoute } from '@platform/testing';
import { createHarness, type Harness } from '../harness';

// Over a real connection, to every route the app registered: what the schema-driven fuzzing
// (property.test.ts) cannot reach, web pages, the feed and health routes included.
let h: Harness;
let origin: string;
beforeAll(async () => {
  // A smaller body limit: "over the limit" costs 64 KiB a request, not 1 MiB, on busy CI cores.
  h = await createHarness({ AUTH_FAILURE_LIMIT: '0', BODY_LIMIT_BYTES: '65536' });
  origin = await h.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => h?.close());

describe('every route under every kind of body', () => {
  it.each([
    ['without credentials', false],
    ['with a valid token', true],
  ])(
    'never answers 5xx and keeps serving, %s',
    async (_name, withToken) => {
      const report = await bodiesToEveryRoute(h.app, origin, {
        bodyLimitBytes: h.config.BODY_LIMIT_BYTES,
        headers: withToken ? { authorization: `Bearer ${h.token}` } : {},
      });
      process.stdout.write(`calendar-api: ${report.sent} bodies to ${report.routes} routes\n`);
      expect(report.failures).toEqual([]);
      expect(report.routes).toBeGreaterThan(15);
    },
    300_000,
  );
});
