import type { CatalogRoute } from '@platform/http';
import {
  formatReports,
  fuzzableRoutes,
  fuzzRoutes,
  fuzzSettings,
  unboundedRouteInputs,
  type FuzzRequest,
} from '@platform/testing';
import { createHarness, type Harness } from '../harness';

let h: Harness;
beforeAll(async () => {
  // No registry fetch may wander off: no local paths, a short timeout, public addresses only.
  h = await createHarness({
    REGISTRY_ALLOW_LOCAL_PATHS: 'false',
    REGISTRY_FETCH_TIMEOUT_MS: '300',
    OUTBOUND_ALLOWLIST: '',
    LOGIN_FAILURE_LIMIT: '0',
    AUTH_FAILURE_LIMIT: '0',
  });
});
afterAll(() => h.close());

/** Every request carries a global_admin key in the headers, so the body stays the generator's. */
function prepare(_route: CatalogRoute, request: FuzzRequest): FuzzRequest {
  return {
    ...request,
    headers: {
      'api-key': h.admin.api_key,
      'api-key-secret': h.admin.api_key_secret,
      ...request.headers,
    },
  };
}

describe('every operation under bad input (property-based)', () => {
  it('answers with a 4xx problem, never a 5xx or a hang, and a refused request changes nothing', async () => {
    const settings = fuzzSettings(60);
    const reports = await fuzzRoutes(fuzzableRoutes(h.app), {
      app: h.app,
      prepare,
      snapshot: () => h.database.snapshot(),
      bodyLimitBytes: h.config.BODY_LIMIT_BYTES,
      maxParamLength: 100,
      // As the app does: Kasm clients may send no body, or null, when credentials are in headers.
      normalizeBody: (body) => body ?? {},
      ...settings,
    });
    process.stdout.write(`workspace-api ${formatReports(reports, settings)}\n`);
    expect(reports.length).toBeGreaterThanOrEqual(40);
  }, 300_000);

  it('bounds every string and array a request may carry', () => {
    expect(unboundedRouteInputs(h.app)).toEqual([]);
  });
});
