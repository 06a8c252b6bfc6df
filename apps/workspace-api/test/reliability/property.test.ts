import { itFuzzesEveryRoute } from '@platform/testing';
import { createHarness, keyHeaders, type Harness } from '../harness';

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

describe('every operation under bad input (property-based)', () => {
  // A refused write is recorded in the audit trail by design (audit/): every other table must
  // stay as it was.
  const unaudited = () => ({
    ...h,
    database: { snapshot: () => h.database.snapshot(['audit_event']) },
  });
  itFuzzesEveryRoute(unaudited, {
    // A global_admin key in the headers, so that the body stays the generator's.
    prepare: (_route, request) => ({
      ...request,
      headers: { ...keyHeaders(h.admin), ...request.headers },
    }),
    // As the app does: Kasm clients may send no body, or null, when credentials are in headers.
    normalizeBody: (body) => body ?? {},
    maxParamLength: 100,
    service: 'workspace-api',
    runsPerRoute: 60,
    atLeastRoutes: 40,
  });
});
