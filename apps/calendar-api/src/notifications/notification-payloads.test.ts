import type { NotificationContent, NotifiedEvent } from './notification-content';
import {
  discordPayload,
  eventLines,
  headline,
  payloadFor,
  slackPayload,
  truncate,
} from './notification-payloads';

const event = (overrides: Partial<NotifiedEvent> = {}): NotifiedEvent => ({
  id: 1,
  date: '2025-03-07',
  title: 'Unit 5 quiz',
  type: 'grade',
  period: 'CSA',
  ...overrides,
});
const content = (overrides: Partial<NotificationContent> = {}): NotificationContent => ({
  action: 'created',
  source: { channel: 'C123', message_id: '1741000000.000100' },
  total: 1,
  events: [event()],
  ...overrides,
});

describe('truncate', () => {
  it('leaves text within the limit alone', () => {
    expect(truncate('abc', 3)).toBe('abc');
  });

  it('cuts to the limit, ellipsis included', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
  });

  it('never splits a surrogate pair', () => {
    const cut = truncate('ab🎉🎉🎉', 5);
    expect(cut).toBe('ab🎉…');
    expect(cut.length).toBeLessThanOrEqual(5);
  });

  it('never splits an emoji sequence or a combining mark', () => {
    const family = '👨‍👩‍👧';
    expect(truncate(`a${family}b`, 6)).toBe('a…');
    expect(truncate('e\u0301bc', 3)).toBe('e\u0301…');
  });
});

describe('headline and eventLines', () => {
  it.each([
    ['created', 2, '📅 2 events added'],
    ['replaced', 5, '✏️ Plan message edited: 5 events now'],
    ['updated', 1, '✏️ 1 event changed'],
    ['deleted', 3, '🗑️ 3 events removed'],
    ['digest', 2, '🗓️ Tomorrow, Fri 2025-03-07: 2 events'],
    ['reminder', 1, '⏰ Reminder: 1 event coming up'],
  ] as const)('words a %s notification of %i', (action, total, expected) => {
    expect(headline(content({ action, total }))).toBe(expected);
  });

  it('lists each event with its weekday, type (unless general) and period', () => {
    expect(
      eventLines(
        content({ total: 2, events: [event(), event({ type: 'general', period: null })] }),
      ),
    ).toEqual(['• Fri 2025-03-07: Unit 5 quiz (grade, CSA)', '• Fri 2025-03-07: Unit 5 quiz']);
  });

  it('shows under an edited event what changed, was → now', () => {
    const edited = event({
      title: 'Unit 5 test',
      changes: [
        { field: 'title', was: 'Unit 5 quiz', now: 'Unit 5 test' },
        { field: 'date', was: '2025-03-06', now: '2025-03-07' },
        { field: 'description', was: '', now: 'Ch. 5\nand 6' },
      ],
    });
    expect(eventLines(content({ action: 'updated', events: [edited] }))).toEqual([
      '• Fri 2025-03-07: Unit 5 test (grade, CSA)',
      '    title: "Unit 5 quiz" → "Unit 5 test"',
      '    date: Thu 2025-03-06 → Fri 2025-03-07',
      '    description: (none) → "Ch. 5 and 6"',
    ]);
  });

  it('counts the events it does not list', () => {
    expect(eventLines(content({ total: 30 })).at(-1)).toBe('…and 29 more');
  });
});

describe('slackPayload', () => {
  it('is {text, blocks} with a mrkdwn section', () => {
    const payload = slackPayload(content());
    expect(payload).toEqual({
      text: '📅 1 event added\n• Fri 2025-03-07: Unit 5 quiz (grade, CSA)',
      blocks: [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: '*📅 1 event added*\n• Fri 2025-03-07: Unit 5 quiz (grade, CSA)',
          },
        },
      ],
    });
  });

  it('keeps quotes, newlines and emoji, and escapes what Slack reads as markup', () => {
    const title = 'Say "cheese" 📸\nthen <!channel> & 🎉';
    const { text } = slackPayload(content({ events: [event({ title })] }));
    expect(text).toContain('Say "cheese" 📸\nthen &lt;!channel&gt; &amp; 🎉');
    expect(
      JSON.parse(JSON.stringify(slackPayload(content({ events: [event({ title })] })))),
    ).toEqual(slackPayload(content({ events: [event({ title })] })));
  });

  it('keeps the section within 3000 characters', () => {
    const events = Array.from({ length: 25 }, (_, i) => event({ id: i, title: 'x'.repeat(200) }));
    const payload = slackPayload(content({ total: 25, events }));
    expect(payload.blocks[0].text.text.length).toBeLessThanOrEqual(3000);
    expect(payload.text.length).toBeLessThanOrEqual(3000);
  });
});

describe('discordPayload', () => {
  it('is {content} and pings nobody', () => {
    expect(discordPayload(content())).toEqual({
      content: '**📅 1 event added**\n• Fri 2025-03-07: Unit 5 quiz (grade, CSA)',
      allowed_mentions: { parse: [] },
    });
  });

  it('keeps titles as written', () => {
    const title = 'Say "cheese" 📸\nthen <b> & @everyone';
    expect(discordPayload(content({ events: [event({ title })] })).content).toContain(title);
  });

  it('stays within 2000 characters, cut between code points with an ellipsis', () => {
    const events = Array.from({ length: 25 }, (_, i) =>
      event({ id: i, title: `${'🎉'.repeat(99)}a` }),
    );
    const { content: text } = discordPayload(content({ total: 40, events }));
    expect(text.length).toBeLessThanOrEqual(2000);
    expect([...text].length).toBeLessThanOrEqual(2000);
    expect(text.endsWith('…')).toBe(true);
    expect(text).not.toMatch(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
    );
  });
});

describe('payloadFor', () => {
  it('picks the builder of the format', () => {
    expect(payloadFor('slack', content())).toHaveProperty('blocks');
    expect(payloadFor('discord', content())).toHaveProperty('content');
  });
});
