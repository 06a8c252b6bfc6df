import { fuzzableRoutes, jargonMessages, type FuzzRequest } from '@platform/testing';
import { createHarness, type Harness } from '../harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('validation messages of every route', () => {
  it('say what is expected in words: no regex, no schema keyword, one line per expectation', async () => {
    const prepare = (request: FuzzRequest): FuzzRequest => ({
      ...request,
      headers: { authorization: `Bearer ${h.token}`, ...request.headers },
    });
    const { checked, jargon } = await jargonMessages(h.app, fuzzableRoutes(h.app), prepare);
    expect(jargon).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  }, 60_000);
});
