import { badTextCases, badTextFailures, fuzzableRoutes, type FuzzRequest } from '@platform/testing';
import { createHarness, type Harness } from '../harness';
import { SIGNING_SECRET, slackSignature } from '../slack-signing';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ AUTH_FAILURE_LIMIT: '0', SLACK_SIGNING_SECRET: SIGNING_SECRET });
});
afterAll(() => h.close());

describe('bad text through every source of every route', () => {
  it('answers NUL and unpaired surrogates in body, headers, Bearer and Basic credentials, query and path with a 4xx, never a 5xx', async () => {
    const cases = fuzzableRoutes(h.app).flatMap((route) => badTextCases(route, ['if-none-match']));
    // A valid token wherever the case does not set authorization, and Slack's signature of the
    // bytes sent, so that bad text elsewhere is met past authentication too.
    const prepare = (request: FuzzRequest): FuzzRequest => {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const raw = Buffer.from(request.payload ?? '', 'utf8');
      return {
        ...request,
        headers: {
          authorization: `Bearer ${h.token}`,
          'x-slack-request-timestamp': timestamp,
          'x-slack-signature': slackSignature(SIGNING_SECRET, timestamp, raw),
          ...request.headers,
        },
      };
    };
    expect(cases.length).toBeGreaterThan(100);
    expect(await badTextFailures(h.app, cases, prepare)).toEqual([]);
  }, 120_000);
});
