import { createHarness, type Harness } from '../../test/harness';
import { userInput } from '../../test/factories';
import { LIST_CONTENT_BUDGET_BYTES } from './file-mapping-pages';
import { MAX_CONTENT_BYTES } from './file-mappings.schemas';

interface Listed {
  file_mappings: { file_mapping_id: string; destination: string; size: number; content: string }[];
  next_cursor: string | null;
}

let h: Harness;
let userId: string;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.reset();
  userId = (await h.call('create_user', { target_user: userInput() })).json().user.user_id;
});

const create = async (destination: string, content = '') => {
  const res = await h.call('create_file_mapping', {
    target_file_mapping: { user_id: userId, name: 'F', destination, content },
  });
  expect(res.statusCode).toBe(200);
  return res.json().file_mapping.file_mapping_id as string;
};

async function list(body: object): Promise<Listed> {
  const res = await h.call('get_file_mappings', body);
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('get_file_mappings pages', () => {
  it('never carries more than 8 MiB of contents in one answer, and pages through all of them', async () => {
    const big = 'x'.repeat(MAX_CONTENT_BYTES);
    for (const destination of ['/a', '/b', '/c']) await create(destination, big);
    await create('/d', 'small');

    const seen: string[] = [];
    let cursor: string | undefined;
    let answers = 0;
    do {
      const page = await list(cursor ? { cursor } : {});
      const bytes = page.file_mappings.reduce((sum, m) => sum + m.size, 0);
      expect(bytes).toBeLessThanOrEqual(LIST_CONTENT_BUDGET_BYTES);
      seen.push(...page.file_mappings.map((m) => m.destination));
      cursor = page.next_cursor ?? undefined;
      answers += 1;
    } while (cursor && answers < 10);
    expect(seen).toEqual(['/a', '/b', '/c', '/d']);
    expect(answers).toBe(3);
  });

  it('pages by page_size within one target, the last page saying none remain', async () => {
    for (const d of ['/e', '/a', '/d', '/c', '/b']) await create(d);
    const first = await list({ target_file_mapping: { user_id: userId }, page_size: 2 });
    expect(first.file_mappings.map((m) => m.destination)).toEqual(['/a', '/b']);
    const second = await list({ page_size: 2, cursor: first.next_cursor });
    expect(second.file_mappings.map((m) => m.destination)).toEqual(['/c', '/d']);
    const third = await list({ page_size: 2, cursor: second.next_cursor });
    expect([third.file_mappings.map((m) => m.destination), third.next_cursor]).toEqual([
      ['/e'],
      null,
    ]);
  });

  it('answers 400 for an unreadable cursor or a page_size over 100, never 500', async () => {
    for (const body of [{ cursor: 'not-a-cursor' }, { cursor: 'WzFd' }, { page_size: 101 }]) {
      const res = await h.call('get_file_mappings', body);
      expect([JSON.stringify(body), res.statusCode]).toEqual([JSON.stringify(body), 400]);
    }
    expect((await h.call('get_file_mappings', { cursor: 'bm9wZQ' })).json().code).toBe(
      'INVALID_CURSOR',
    );
  });

  it("gives one mapping's content with get_file_mapping, and 404 for an unknown id", async () => {
    const id = await create('/etc/one.sh', 'echo one\n');
    const res = await h.call('get_file_mapping', { target_file_mapping: { file_mapping_id: id } });
    expect(res.json().file_mapping).toMatchObject({
      destination: '/etc/one.sh',
      content: 'echo one\n',
    });
    const unknown = await h.call('get_file_mapping', {
      target_file_mapping: { file_mapping_id: '11111111111111111111111111111111' },
    });
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'FILE_MAPPING_NOT_FOUND']);
  });
});
