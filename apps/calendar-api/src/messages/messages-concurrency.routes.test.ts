import { createHarness, type Harness } from '../../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

const version = (n: number) =>
  [
    'Week of 3/3/2025',
    `[Mon]: Version ${n} intro`,
    `[Tue - Thu]: Version ${n} lab`,
    `[Fri]: ** Version ${n} quiz`,
  ].join('\n');

describe('POST /add with concurrent edits of one message', () => {
  it('keeps the events of exactly one version, never a mix or a duplicate', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const messageId = `edited-${attempt}`;
      const results = await Promise.all(
        [1, 2, 3, 4, 5, 6].map((n) =>
          h.post('add', { text: version(n), channel: 'C9', message_id: messageId }),
        ),
      );
      expect(results.every((r) => r.statusCode === 201)).toBe(true);
      const message = await h.db.chatMessage.findUniqueOrThrow({
        where: { channel_messageKey: { channel: 'C9', messageKey: messageId } },
        include: { events: { orderBy: [{ date: 'asc' }, { id: 'asc' }] } },
      });
      const titles = message.events.map((e) => e.title);
      expect(titles).toHaveLength(5);
      const kept = titles[0].split(' ')[1];
      expect(titles).toEqual([
        `Version ${kept} intro`,
        ...Array(3).fill(`Version ${kept} lab`),
        `Version ${kept} quiz`,
      ]);
    }
    expect(await h.db.calendarEvent.count()).toBe(25);
  });
});
