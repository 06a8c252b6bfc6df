import { createHarness, type Harness } from '../../test/harness';
import { ALL_USERS_GROUP_ID } from '../domain';
import { ALL_USERS_BATCH } from './users.service';

// More users than one batch of the every-user answer, and more than any page: a Kasm client that
// scans get_users for a name broke at 101.
const COUNT = ALL_USERS_BATCH * 2 + 345;

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await h.database.query(`
    WITH u AS (
      INSERT INTO workspace."user" (id, username, organization, locked, created_at, updated_at)
      SELECT gen_random_uuid(), 'bulk-' || lpad(i::text, 5, '0'), CASE WHEN i % 3 = 0 THEN 'acme' ELSE 'globex' END,
             i % 7 = 0, timestamptz '2026-01-01' + i * interval '1 second', now()
      FROM generate_series(1, ${COUNT}) i
      RETURNING id)
    INSERT INTO workspace.user_group (user_id, group_id) SELECT id, '${ALL_USERS_GROUP_ID}' FROM u`);
});
afterAll(() => h.close());

interface Listed {
  users: { user_id: string; username: string; groups: { name: string }[] }[];
  total: number;
  page: number;
  page_size: number;
  next_cursor: string | null;
}
const expected = (filter: (i: number) => boolean) =>
  Array.from({ length: COUNT }, (_, k) => k + 1)
    .filter(filter)
    .map((i) => `bulk-${String(i).padStart(5, '0')}`);

describe('get_users without paging fields', () => {
  it('answers every user, each once, oldest first, with their groups', async () => {
    const res = await h.call('get_users');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json<Listed>();
    expect(body.users.map((u) => u.username)).toEqual(expected(() => true));
    expect(new Set(body.users.map((u) => u.user_id)).size).toBe(COUNT);
    expect(body).toMatchObject({ total: COUNT, page: 0, page_size: COUNT, next_cursor: null });
    expect(body.users[COUNT - 1].groups).toEqual([expect.objectContaining({ name: 'All Users' })]);
  });

  it('applies filters and the sort to the whole list', async () => {
    const res = await h.call('get_users', {
      filters: [
        { id: 'organization', value: 'acme' },
        { id: 'locked', value: false },
      ],
      sort_by: 'username',
      sort_direction: 'desc',
    });
    const body = res.json<Listed>();
    const acme = expected((i) => i % 3 === 0 && i % 7 !== 0).reverse();
    expect(body.users.map((u) => u.username)).toEqual(acme);
    expect(body.total).toBe(acme.length);
  });

  it('answers an empty list when nothing matches', async () => {
    const res = await h.call('get_users', { filters: [{ id: 'username', value: 'nobody' }] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ users: [], total: 0, page: 0, page_size: 0, next_cursor: null });
  });

  it('still pages when a paging field is given', async () => {
    const res = await h.call('get_users', { page: 3, page_size: 10 });
    const body = res.json<Listed>();
    expect(body.users.map((u) => u.username)).toEqual(expected((i) => i > 30 && i <= 40));
    expect(body).toMatchObject({ total: COUNT, page: 3, page_size: 10 });
  });
});
