import { createTestDatabase, type TestDatabase } from '@platform/db/testing';
import { testConfig } from '../../test/harness';
import { openDatabase, type Database, type Tx } from '../db';
import { createEventsRepository, type EventsRepository } from '../events';
import type { ExtractedEvent } from '../extraction';
import { MIGRATIONS_DIR } from '../migrations';
import { createOutbox } from '../notifications';
import { messageIdentity } from './message-identity';
import { createMessagesService, type MessagesService } from './messages.service';

let database: TestDatabase;
let db: Database;
let events: EventsRepository;
let messages: MessagesService;
beforeAll(async () => {
  database = await createTestDatabase({ schema: 'calendar', migrationsDir: MIGRATIONS_DIR });
  const config = testConfig(database.url);
  db = openDatabase(config);
  events = createEventsRepository(db);
  const outbox = createOutbox({ db, targets: [] });
  messages = createMessagesService({ db, config, now: () => new Date(), outbox });
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
const identity = (text: string) =>
  messageIdentity({ channel: 'C123', messageId: '1.000100', weekStart: WEEK, text });
/** A message of that text and those events, stored through the events repository's ingest. */
const store = (
  tx: Tx | null,
  text: string,
  extracted: ExtractedEvent[],
  version: string | null = null,
) =>
  events.ingestChatMessage(tx, { ...identity(text), weekStart: WEEK, events: extracted, version });

describe('chat messages stored as events (ingest_chat_message) and forgotten', () => {
  it.each([
    ['on the pool', false],
    ['inside a transaction', true],
  ])('stores a message once, %s, answering its events as event rows', async (_case, inTx) => {
    const extracted = [event('2025-03-05', 'Quiz'), event('2025-03-03', 'Intro')];
    const storeV1 = () =>
      inTx ? db.transaction((tx) => store(tx, 'v1', extracted)) : store(null, 'v1', extracted);
    const first = await storeV1();
    if (typeof first === 'string') throw new Error(`stored nothing: ${first}`);
    expect(first.replaced).toBeNull();
    expect(first.created).toEqual([
      expect.objectContaining({ date: '2025-03-03', title: 'Intro', fromChat: true }),
      expect.objectContaining({ date: '2025-03-05', title: 'Quiz', sourceChannel: 'C123' }),
    ]);
    expect(first.created[0].createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(await storeV1()).toBe('unchanged');
  });

  it('replaces the events of an edited message, and forgets a deleted one', async () => {
    const first = await store(null, 'v1', [event('2025-03-04', 'Old')]);
    const edited = await store(null, 'v2', [event('2025-03-06', 'New')]);
    if (typeof first === 'string' || typeof edited === 'string') throw new Error('stored nothing');
    expect(edited.replaced).toEqual(first.created);
    expect(edited.created.map((e) => e.title)).toEqual(['New']);
    const remove = () => db.transaction((tx) => messages.removeWith(tx, 'C123', '1.000100'));
    expect(await remove()).toEqual(edited.created);
    expect(await db.prisma.chatMessage.count()).toBe(0);
    expect(await db.prisma.calendarEvent.count()).toBe(0);
    expect(await remove()).toEqual([]);
  });

  it('answers stale, and changes nothing, for a version older than the stored one', async () => {
    const storeAt = (text: string, version: string | null) =>
      store(null, text, [event('2025-03-04', text)], version);
    expect(await storeAt('v1', '1741000000.000100')).toMatchObject({ replaced: null });
    expect(await storeAt('v3', '1741000120.000300')).toMatchObject({ replaced: [{ title: 'v1' }] });
    expect(await storeAt('v2', '1741000060.000200')).toBe('stale');
    expect(await storeAt('v1', '1741000000.000100')).toBe('stale');
    // The same text at a newer version moves the version on: an edit between is older still.
    expect(await storeAt('v3', '1741000999.000900')).toBe('unchanged');
    expect(await storeAt('v4', '1741000500.000500')).toBe('stale');
    // Without a version (POST /add), the text is stored as before.
    expect(await storeAt('v5', null)).toMatchObject({ replaced: [{ title: 'v3' }] });
    expect((await db.prisma.calendarEvent.findMany()).map((e) => e.title)).toEqual(['v5']);
  });
});
