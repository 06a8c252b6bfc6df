import { createHarness, type Harness } from '../harness';
import { signedInWith, submit } from './admin-fixtures';

// The console's Watch (docs/sharing.md, "An administrator's watch"): its own permission, and a
// clear refusal for a session that is not live. The watch itself, on a real desktop, is
// test/workspace-images/session-sharing.browser.engine.test.ts.
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

const id = '11111111111111111111111111111111';

describe('the Sessions section’s Watch', () => {
  it('needs sessions.watch: sessions.view and sessions.modify do not reach it', async () => {
    const { client } = await signedInWith(h, ['sessions.view', 'sessions.modify']);
    const refused = await submit(client, '/admin/sessions', `/admin/sessions/${id}/watch`);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('sessions.watch');
  });

  it('answers 404 for a session that is not live', async () => {
    const { client } = await signedInWith(h, ['sessions.view', 'sessions.watch']);
    const res = await submit(client, '/admin/sessions', `/admin/sessions/${id}/watch`);
    expect(res.statusCode).toBe(404);
  });
});
