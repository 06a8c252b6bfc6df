import type { CatalogRoute } from '@platform/http';
import {
  formatReports,
  fuzzableRoutes,
  fuzzRoutes,
  fuzzSettings,
  unboundedRouteInputs,
  type FuzzRequest,
} from '@platform/testing';
import { slackSignature } from '../../src/chat/slack-signature';
import { createHarness, type Harness } from '../harness';
import { messagePosted } from '../slack-payloads';
import { sendToSlackRoute, SIGNING_SECRET } from '../slack-signing';

const MAX_PARAM_LENGTH = 1000;
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
  it('answers with a 4xx problem, never a 5xx or a hang, and a refused request changes nothing', async () => {
    const settings = fuzzSettings(100);
    const reports = await fuzzRoutes(fuzzableRoutes(h.app), {
      app: h.app,
      prepare,
      snapshot: () => h.database.snapshot(),
      bodyLimitBytes: h.config.BODY_LIMIT_BYTES,
      maxParamLength: MAX_PARAM_LENGTH,
      ...settings,
    });
    process.stdout.write(`calendar-api ${formatReports(reports, settings)}\n`);
    expect(reports.length).toBeGreaterThanOrEqual(15);
  }, 180_000);

  it('refuses a signed Slack message holding a NUL character, storing nothing', async () => {
    const payload = messagePosted('C1', '1741000000.000100', 'Week of 3/3/2025\n[Mon]: Quiz\u0000');
    const res = await sendToSlackRoute(h.app, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_JSON' });
    expect(await h.db.slackInbox.count()).toBe(0);
  });

  it('bounds every string and array a request may carry', () => {
    expect(unboundedRouteInputs(h.app)).toEqual([]);
  });
});
