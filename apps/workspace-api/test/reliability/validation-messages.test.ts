import { itWordsValidationMessages } from '@platform/testing';
import { createHarness, keyHeaders, type Harness } from '../harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('validation messages of every route', () => {
  itWordsValidationMessages(() => ({ app: h.app, headers: keyHeaders(h.admin) }), 50);

  it('name the allowed values of an enum once, and ids, blanks and dates in words', async () => {
    const res = await h.call('get_users', { sort_by: 'age' });
    expect(res.json().errors).toEqual([
      {
        field: 'sort_by',
        message: expect.stringMatching(/^must be one of: username, .*created/),
      },
    ]);
    const bad = await h.call('get_user', { target_user: { user_id: 'abc' } });
    expect(bad.json().errors).toEqual([
      { field: 'target_user.user_id', message: 'must be a 32-character hex id (dashes allowed)' },
    ]);
    const blank = await h.call('create_group', { target_group: { name: '   ' } });
    expect(blank.json().errors).toEqual([
      { field: 'target_group.name', message: 'must not be blank' },
    ]);
  });
});
