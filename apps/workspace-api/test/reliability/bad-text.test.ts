import { badTextCases, badTextFailures, fuzzableRoutes, type FuzzRequest } from '@platform/testing';
import { createHarness, type Harness } from '../harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ AUTH_FAILURE_LIMIT: '0' });
});
afterAll(() => h.close());

describe('bad text through every source of every route', () => {
  it('answers NUL and unpaired surrogates in body, headers, Basic credentials, query and path with a 4xx, never a 5xx', async () => {
    const cases = fuzzableRoutes(h.app)
      .flatMap((route) => badTextCases(route, ['api-key', 'api-key-secret']))
      // The session proxy passes request bodies to the workspace unread: they are its data.
      .filter((c) => !(c.source === 'body' && c.request.url.startsWith('/kasm/')));
    // Valid credentials in the headers wherever the case does not put its own, so that bad text
    // elsewhere is met past authentication too.
    const prepare = (request: FuzzRequest): FuzzRequest => ({
      ...request,
      headers:
        'api-key' in request.headers ||
        'api-key-secret' in request.headers ||
        'authorization' in request.headers
          ? request.headers
          : {
              'api-key': h.admin.api_key,
              'api-key-secret': h.admin.api_key_secret,
              ...request.headers,
            },
    });
    expect(cases.length).toBeGreaterThan(500);
    expect(await badTextFailures(h.app, cases, prepare)).toEqual([]);
  }, 120_000);
});
