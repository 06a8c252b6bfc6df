import { itWordsValidationMessages } from '@platform/testing';
import { createHarness, type Harness } from '../harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('validation messages of every route', () => {
  itWordsValidationMessages(
    () => ({ app: h.app, headers: { authorization: `Bearer ${h.token}` } }),
    10,
  );
});
