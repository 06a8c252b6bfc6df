import type { CatalogRoute } from '@platform/http';
import { itFuzzesEveryRoute, type FuzzRequest } from '@platform/testing';
import { createHarness, type Harness } from '../harness';
import { messagePosted } from '../slack-payloads';
import { sendToSlackRoute, SIGNING_SECRET, slackSignature } from '../slack-signing';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ SLACK_SIGNING_SECRET: SIGNING_SECRET });
});
afterAll(() => h.close());

/** Every request carries a valid token; Slack's route also a valid signature of its bytes. */
function prepare(route: CatalogRoute, request: FuzzRequest): FuzzRequest {
  const headers: Record<string, string> = {
    authorization: `Bearer ${h.token}`,
    ...request.headers,
  };
  if (route.url.endsWith('/slack/events')) {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const raw = Buffer.from(request.payload ?? '', 'utf8');
    headers['x-slack-request-timestamp'] = timestamp;
    headers['x-slack-signature'] = slackSignature(SIGNING_SECRET, timestamp, raw);
  }
  return { ...request, headers };
}

describe('every endpoint under bad input (property-based)', () => {
  itFuzzesEveryRoute(() => h, {
    service: 'calendar-api',
    runsPerRoute: 100,
    atLeastRoutes: 15,
    maxParamLength: 1000,
    prepare,
  });

  it('refuses a signed Slack message holding a NUL character, storing nothing', async () => {
    const payload = messagePosted('C1', '1741000000.000100', 'Week of 3/3/2025\n[Mon]: Quiz\u0000');
    const res = await sendToSlackRoute(h.app, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_JSON' });
    expect(await h.db.slackInbox.count()).toBe(0);
  });
});
