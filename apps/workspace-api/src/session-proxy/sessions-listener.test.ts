import type { AddressInfo } from 'node:net';
import { type Harness, useHarness } from '../../test/harness';

let h: Harness;
let consoleBase: string;
let sessionsBase: string;
// Setup's names are not needed: any id shape reaches the proxy's own checks.
const KASM = '0123456789abcdef0123456789abcdef';

useHarness((ready) => (h = ready), { SESSION_PORT: '3003' });

beforeAll(async () => {
  consoleBase = await h.app.listen({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((done) => h.app.sessionsServer.listen(0, '127.0.0.1', done));
  sessionsBase = `http://127.0.0.1:${(h.app.sessionsServer.address() as AddressInfo).port}`;
});

const get = (url: string) => fetch(url, { redirect: 'manual' });

describe('the sessions listener (SESSION_PORT)', () => {
  it.each(['/', '/sign-in', '/admin', '/admin/users', '/docs', '/api/public/get_users'])(
    'answers %s with 404: no console, sign-in or API there',
    async (path) => {
      const res = await get(`${sessionsBase}${path}`);
      expect(res.status).toBe(404);
      // The web page's routes say it as a page, the API as problem+json.
      const body = await res.text();
      expect(body).toMatch(/ORIGIN_SERVES_SESSIONS|serves sessions only/);
      expect(body).not.toContain('name="password"');
    },
  );

  it('takes /kasm/… to the session proxy', async () => {
    const res = await get(`${sessionsBase}/kasm/${KASM}/`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('SESSION_CREDENTIALS_MISSING');
  });

  it('answers health probes on both listeners', async () => {
    expect((await get(`${sessionsBase}/health/live`)).status).toBe(200);
    expect((await get(`${consoleBase}/health/live`)).status).toBe(200);
  });
});

describe('the console’s listener (PORT)', () => {
  it('serves no session: /kasm/… answers 404 ORIGIN_SERVES_CONSOLE, with or without a link', async () => {
    for (const path of [
      `/kasm/${KASM}/`,
      `/kasm/${KASM}/?kasm_token=abc`,
      `/%6Basm/${KASM}/`,
      `/kasm/${KASM}`,
    ]) {
      const res = await get(`${consoleBase}${path}`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe('ORIGIN_SERVES_CONSOLE');
    }
  });

  it('serves the sign-in page', async () => {
    const res = await get(`${consoleBase}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('name="password"');
  });
});
