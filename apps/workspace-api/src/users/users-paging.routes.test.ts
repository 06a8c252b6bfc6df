import { Client } from 'pg';
import { createHarness, type Harness } from '../../test/harness';
import { userInput } from '../../test/factories';
import { listUsersStatement, pageQuery, type UsersPageQuery } from './users-list.sql';

// Nine users; organizations and last names repeat, so that sorts have ties that id must break.
const ORGS = ['acme', 'globex', 'acme', 'initech', 'globex', 'acme', 'umbrella', 'acme', 'globex'];
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  for (const [i, organization] of ORGS.entries()) {
    const res = await h.call('create_user', {
      target_user: userInput({
        username: `pager-${i}`,
        organization,
        last_name: `L${i % 3}`,
        password: undefined,
      }),
    });
    expect(res.statusCode).toBe(200);
  }
});
afterAll(() => h.close());

const usernames = (body: { users: { username: string }[] }) => body.users.map((u) => u.username);

async function everyPage(body: object, pageSize: number): Promise<string[]> {
  const seen: string[] = [];
  for (let page = 0; page * pageSize < ORGS.length; page++) {
    const res = await h.call('get_users', { ...body, page, page_size: pageSize });
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(ORGS.length);
    seen.push(...usernames(res.json()));
  }
  return seen;
}

describe('get_users paging', () => {
  it.each(
    ['created', 'username', 'organization', 'last_name'].flatMap((sort) => [
      [sort, 'asc'],
      [sort, 'desc'],
    ]),
  )(
    'pages by %s %s from both ends of the order to the same list as one page',
    async (sortBy, direction) => {
      const body = { sort_by: sortBy, sort_direction: direction };
      const all = usernames((await h.call('get_users', body)).json());
      expect(all).toHaveLength(ORGS.length);
      expect(await everyPage(body, 2)).toEqual(all);
      expect(await everyPage(body, 4)).toEqual(all);
    },
  );

  it('walks a sort with ties with cursors, each user once, in the order of pages', async () => {
    const body = { sort_by: 'organization', sort_direction: 'desc' };
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await h.call('get_users', { ...body, page_size: 2, cursor });
      seen.push(...usernames(res.json()));
      cursor = res.json().next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(usernames((await h.call('get_users', body)).json()));
  });

  it('answers an empty page past the end with the total', async () => {
    const res = await h.call('get_users', { page: 50, page_size: 2 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ users: [], total: ORGS.length, next_cursor: null });
  });

  it('matches % and _ in a filter as themselves', async () => {
    const wild = await h.call('get_users', { filters: [{ id: 'username', value: 'pager-%' }] });
    expect(usernames(wild.json())).toEqual([]);
    const one = await h.call('get_users', { filters: [{ id: 'username', value: 'r_1' }] });
    expect(usernames(one.json())).toEqual([]);
    expect(
      usernames(
        (await h.call('get_users', { filters: [{ id: 'username', value: 'r-1' }] })).json(),
      ),
    ).toEqual(['pager-1']);
  });
});

describe('get_users query plans', () => {
  // With so few rows the planner would rather scan; disabling that shows which index serves the query.
  async function executedNodes(body: Partial<UsersPageQuery>): Promise<string> {
    const client = new Client({ connectionString: h.config.DATABASE_URL });
    await client.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const sql = listUsersStatement('workspace', pageQuery(body));
      const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql.text}`, sql.values);
      const nodes: string[] = [];
      const walk = (plan: Record<string, unknown>) => {
        if ((plan['Actual Loops'] as number) > 0) {
          nodes.push(
            `${plan['Node Type']} ${plan['Scan Direction'] ?? ''} ${plan['Index Name'] ?? ''}`.trim(),
          );
        }
        for (const child of (plan.Plans as Record<string, unknown>[] | undefined) ?? [])
          walk(child);
      };
      walk(rows[0]['QUERY PLAN'][0].Plan);
      return nodes.join('\n');
    } finally {
      await client.end();
    }
  }

  it('reads the first page forwards and the last page backwards through (created_at, id), without sorting it', async () => {
    const first = await executedNodes({ page: 0, page_size: 2 });
    expect(first).toMatch(/Index Only Scan Forward user_created_at_id_idx/);
    const last = await executedNodes({ page: 4, page_size: 2 });
    expect(last).toMatch(/Index Only Scan Backward user_created_at_id_idx/);
    expect(last).not.toMatch(/Index Only Scan Forward user_created_at_id_idx/);
  });

  it('pages by organization through (organization, id)', async () => {
    expect(await executedNodes({ page: 1, page_size: 2, sort_by: 'organization' })).toMatch(
      /user_organization_id_idx/,
    );
  });
});
