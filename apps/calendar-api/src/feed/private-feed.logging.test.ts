import { PassThrough } from 'node:stream';
import { createHarness, type Harness } from '../../test/harness';

let h: Harness;
let logs = '';
beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  h = await createHarness({ CALENDAR_AUTH: 'all', LOG_LEVEL: 'trace' }, { logStream: stream });
});
afterAll(() => h.close());

it('never writes a secret feed address to the logs, at any level', async () => {
  const subscribe = (url: string) => {
    const { pathname, search } = new URL(url);
    return h.request({ method: 'GET', url: `${pathname}${search}`, token: null });
  };
  const issued = (await h.post('feeds', { name: 'Google' })).json();
  expect((await subscribe(issued.url)).statusCode).toBe(200);
  expect((await subscribe(`${issued.url}x`)).statusCode).toBe(404);
  const rotated = (await h.post(`feeds/${issued.feed.id}/rotate`, {})).json();
  expect((await subscribe(issued.url)).statusCode).toBe(404);
  expect((await subscribe(rotated.url)).statusCode).toBe(200);
  // pino writes in the background; the requests' lines are there once the last one is.
  await h.app.close();
  const secrets = [issued.url, rotated.url].map((url) => new URL(url).searchParams.get('token'));
  expect(logs).toContain('/api/calendar/private.ics?token=%5Bredacted%5D');
  for (const secret of secrets) expect(logs).not.toContain(secret);
  expect(logs).not.toContain('calfeed_');
});
