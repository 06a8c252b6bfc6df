import { createTestDatabase, type TestDatabase } from '@platform/db/testing';
import { testConfig } from '../../test/harness';
import { openDatabase, type Database } from '../db';
import type { ExtractedEvent } from '../extraction';
import { MIGRATIONS_DIR } from '../migrations';
import { createChatMessagesRepository } from './chat-messages.repository';
import { messageIdentity } from './message-identity';

let database: TestDatabase;
let db: Database;
let messages: ReturnType<typeof createChatMessagesRepository>;
beforeAll(async () => {
  database = await createTestDatabase({ schema: 'calendar', migrationsDir: MIGRATIONS_DIR });
  db = openDatabase(testConfig(database.url));
  messages = createChatMessagesRepository(db);
});
afterAll(async () => {
  await db.close();
  await database.drop();
});
beforeEach(() => database.truncate());

const WEEK = '2025-03-03';
const event = (date: string, title: string): ExtractedEvent => ({
  date,
  title,
  description: '',
  type: 'general',
  period: 'CSA',
});
const stored = (events: ExtractedEvent[], version: string | null = null) => ({
  weekStart: WEEK,
  events,
  version,
});
const identity = (text: string) =>
  messageIdentity({ channel: 'C123', messageId: '1.000100', weekStart: WEEK, text });

describe('the chat messages repository (ingest_chat_message)', () => {
  it.each([
    ['on the pool', false],
    ['inside a transaction', true],
  ])('stores a message once, %s, answering its events as event rows', async (_case, inTx) => {
    const events = [event('2025-03-05', 'Quiz'), event('2025-03-03', 'Intro')];
    const store = () =>
      inTx
        ? db.transaction((tx) => messages.store(tx, identity('v1'), stored(events)))
        : messages.store(null, identity('v1'), stored(events));
    const first = await store();
    if (typeof first === 'string') throw new Error(`stored nothing: ${first}`);
    expect(first.replaced).toBeNull();
    expect(first.created).toEqual([
      expect.objectContaining({ date: '2025-03-03', title: 'Intro', fromChat: true }),
      expect.objectContaining({ date: '2025-03-05', title: 'Quiz', sourceChannel: 'C123' }),
    ]);
    expect(first.created[0].createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(await store()).toBe('unchanged');
  });

  it('replaces the events of an edited message, and forgets a deleted one', async () => {
    const first = await messages.store(null, identity('v1'), stored([event('2025-03-04', 'Old')]));
    const edited = await messages.store(null, identity('v2'), stored([event('2025-03-06', 'New')]));
    if (typeof first === 'string' || typeof edited === 'string') throw new Error('stored nothing');
    expect(edited.replaced).toEqual(first.created);
    expect(edited.created.map((e) => e.title)).toEqual(['New']);
    const removed = await db.transaction((tx) => messages.remove(tx, 'C123', '1.000100'));
    expect(removed).toEqual(edited.created);
    expect(await db.transaction((tx) => messages.remove(tx, 'C123', '1.000100'))).toBeNull();
  });

  it('answers stale, and changes nothing, for a version older than the stored one', async () => {
    const store = (text: string, version: string | null) =>
      messages.store(null, identity(text), stored([event('2025-03-04', text)], version));
    expect(await store('v1', '1741000000.000100')).toMatchObject({ replaced: null });
    expect(await store('v3', '1741000120.000300')).toMatchObject({ replaced: [{ title: 'v1' }] });
    expect(await store('v2', '1741000060.000200')).toBe('stale');
    expect(await store('v1', '1741000000.000100')).toBe('stale');
    // The same text at a newer version moves the version on: an edit between is older still.
    expect(await store('v3', '1741000999.000900')).toBe('unchanged');
    expect(await store('v4', '1741000500.000500')).toBe('stale');
    // Without a version (POST /add), the text is stored as before.
    expect(await store('v5', null)).toMatchObject({ replaced: [{ title: 'v3' }] });
    expect((await db.prisma.calendarEvent.findMany()).map((e) => e.title)).toEqual(['v5']);
  });
});
