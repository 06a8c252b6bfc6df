import { createHarness, type Harness } from '../../test/harness';
import { userInput } from '../../test/factories';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  for (const [i, organization] of ['acme', 'acme', 'globex', 'initech', 'acme'].entries()) {
    const res = await h.call('create_user', {
      target_user: userInput({
        username: `user-${i}`,
        organization,
        locked: i === 3,
        last_name: `L${4 - i}`,
        password: undefined,
      }),
    });
    expect(res.statusCode).toBe(200);
  }
});
afterAll(() => h.close());

const usernames = (body: { users: { username: string }[] }) => body.users.map((u) => u.username);

describe('get_users', () => {
  it('lists every user without paging fields, oldest first', async () => {
    const res = await h.call('get_users');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 5, page: 0, page_size: 5, next_cursor: null });
    expect(usernames(res.json())).toEqual(['user-0', 'user-1', 'user-2', 'user-3', 'user-4']);
  });

  it('pages with the defaults page 0 and page_size 100 once one paging field is given', async () => {
    for (const paging of [{ page: 0 }, { page_size: 100 }]) {
      const res = await h.call('get_users', paging);
      expect(res.json()).toMatchObject({ total: 5, page: 0, page_size: 100, next_cursor: null });
      expect(usernames(res.json())).toHaveLength(5);
    }
    const next = await h.call('get_users', { page_size: 2 });
    expect(next.json()).toMatchObject({ total: 5, page: 0, page_size: 2 });
    expect(next.json().next_cursor).toEqual(expect.any(String));
  });

  it('pages with page and page_size', async () => {
    const res = await h.call('get_users', { page: 1, page_size: 2, sort_by: 'username' });
    expect(usernames(res.json())).toEqual(['user-2', 'user-3']);
    expect(res.json().total).toBe(5);
  });

  it('sorts by a field in either direction', async () => {
    const res = await h.call('get_users', { sort_by: 'last_name', sort_direction: 'desc' });
    expect(usernames(res.json())).toEqual(['user-0', 'user-1', 'user-2', 'user-3', 'user-4']);
    const asc = await h.call('get_users', { sort_by: 'last_name', sort_direction: 'asc' });
    expect(usernames(asc.json())).toEqual(['user-4', 'user-3', 'user-2', 'user-1', 'user-0']);
  });

  it('filters by organization, username and locked, combining filters', async () => {
    const res = await h.call('get_users', {
      filters: [
        { id: 'organization', value: 'ACME' },
        { id: 'locked', value: false },
      ],
    });
    expect(usernames(res.json())).toEqual(['user-0', 'user-1', 'user-4']);
    const locked = await h.call('get_users', { filters: [{ id: 'locked', value: 'true' }] });
    expect(usernames(locked.json())).toEqual(['user-3']);
    const byName = await h.call('get_users', { filters: [{ id: 'username', value: 'ER-2' }] });
    expect(usernames(byName.json())).toEqual(['user-2']);
  });

  it('walks every user exactly once with keyset cursors', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await h.call('get_users', {
        page_size: 2,
        sort_by: 'username',
        sort_direction: 'desc',
        cursor,
      });
      expect(res.statusCode).toBe(200);
      seen.push(...usernames(res.json()));
      cursor = res.json().next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(['user-4', 'user-3', 'user-2', 'user-1', 'user-0']);
  });

  it('answers 400 for a cursor from another sort or a garbled one', async () => {
    const first = await h.call('get_users', { page_size: 2, sort_by: 'username' });
    const other = await h.call('get_users', {
      sort_by: 'created',
      cursor: first.json().next_cursor,
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().code).toBe('INVALID_CURSOR');
    expect((await h.call('get_users', { cursor: '%%%' })).statusCode).toBe(400);
  });

  it.each([
    [{ page_size: 1001 }, 'page_size'],
    [{ page: -1 }, 'page'],
    [{ filters: [{ id: 'password', value: 'x' }] }, 'filters.0.id'],
    [{ sort_by: 'password_hash' }, 'sort_by'],
  ])('answers 400 for %j', async (body, field) => {
    const res = await h.call('get_users', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
  });
});
