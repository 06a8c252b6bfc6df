import { WORKED_EXAMPLE } from '../../test/factories';
import { type ExtractInput, type ExtractedEvent, extractEvents } from './extract';

const REFERENCE = '2025-02-27';

function extract(text: string, overrides: Partial<ExtractInput> = {}) {
  return extractEvents({ text, referenceDate: REFERENCE, period: 'CSA', ...overrides });
}

function event(
  date: string,
  title: string,
  overrides: Partial<ExtractedEvent> = {},
): ExtractedEvent {
  return { date, title, description: '', type: 'general', period: 'CSA', ...overrides };
}

const datesAndTitles = (text: string, overrides: Partial<ExtractInput> = {}) =>
  extract(text, overrides).events.map((e) => `${e.date} ${e.title}`);

describe('extractEvents', () => {
  it('extracts the worked example of the spec exactly', () => {
    const text = WORKED_EXAMPLE;
    const lab = { description: 'Pair programming', type: 'check-in' } as const;

    expect(extract(text)).toEqual({
      weekStart: '2025-03-03',
      events: [
        event('2025-03-03', 'Unit 5 intro', { description: 'Read ch. 5, Slides posted' }),
        event('2025-03-04', 'Lab 3 check-in', lab),
        event('2025-03-05', 'Lab 3 check-in', lab),
        event('2025-03-06', 'Lab 3 check-in', lab),
        event('2025-03-07', 'Unit 5 quiz', { type: 'grade' }),
      ],
      ignoredLines: [],
    });
  });

  it('returns no events and nothing ignored for an empty message', () => {
    expect(extract('')).toEqual({ weekStart: '2025-02-24', events: [], ignoredLines: [] });
    expect(extract('\n  \n\t\n').ignoredLines).toEqual([]);
  });

  describe('day lines', () => {
    it.each([
      ['[monday]: Intro', ['2025-03-03 Intro']],
      ['[MON] : Intro', ['2025-03-03 Intro']],
      ['[Tue-Thu]: Lab', ['2025-03-04 Lab', '2025-03-05 Lab', '2025-03-06 Lab']],
      ['[Tue – Thu]: Lab', ['2025-03-04 Lab', '2025-03-05 Lab', '2025-03-06 Lab']],
      ['[thu to sat]: Lab', ['2025-03-06 Lab', '2025-03-07 Lab', '2025-03-08 Lab']],
      ['[Sun]: Study', ['2025-03-09 Study']],
    ])('reads %j', (line, expected) => {
      expect(datesAndTitles(`Week of 3/3/2025\n${line}`)).toEqual(expected);
    });

    it.each([
      ['[Fri]: * Exit ticket', 'check-in', 'Exit ticket'],
      ['[Fri]: ** Unit quiz', 'grade', 'Unit quiz'],
      ['[Fri]: *Quiz*', 'check-in', 'Quiz'],
      ['[Fri]: **Quiz**', 'grade', 'Quiz'],
      ['[Fri]: *Quiz* on loops', 'check-in', 'Quiz on loops'],
      ['[Fri]: ** *Unit quiz*', 'grade', 'Unit quiz'],
      ['[Fri]: Review *chapter 5* today', 'general', 'Review chapter 5 today'],
      ['[Fri]: Quiz', 'general', 'Quiz'],
    ] as const)('reads %j as a %s titled %j', (line, type, title) => {
      expect(extract(line).events).toEqual([event('2025-02-28', title, { type })]);
    });

    it('reports a backwards range and the bullets under it', () => {
      const result = extract('[Thu - Tue]: Lab\n• Pair programming\n[Fri]: Quiz');
      expect(result.events).toEqual([event('2025-02-28', 'Quiz')]);
      expect(result.ignoredLines).toEqual([
        { line: '[Thu - Tue]: Lab', reason: expect.stringContaining('backwards day range') },
        { line: '• Pair programming', reason: 'describes a line that was ignored' },
      ]);
    });

    it('reports a day line without a title', () => {
      expect(extract('[Mon]:').ignoredLines).toEqual([{ line: '[Mon]:', reason: 'no title' }]);
    });

    it('accepts a 200-character title and reports a 201-character one', () => {
      const result = extract(`[Mon]: ${'a'.repeat(200)}\n[Tue]: ${'b'.repeat(201)}`);
      expect(result.events.map((e) => e.title.length)).toEqual([200]);
      expect(result.ignoredLines).toEqual([
        { line: `[Tue]: ${'b'.repeat(201)}`, reason: 'title longer than 200 characters' },
      ]);
    });
  });

  describe('description bullets', () => {
    it('appends "-" and "•" bullets to every day of a range, joined with ", "', () => {
      const { events } = extract('[Mon - Tue]: Lab\n- Goggles\n  •   Apron  ');
      expect(events.map((e) => e.description)).toEqual(['Goggles, Apron', 'Goggles, Apron']);
    });

    it.each([
      ['** • Graded', 'grade'],
      ['*- Checked', 'check-in'],
    ])('lets the marker of %j make every event of the day line a %s', (bullet, type) => {
      const { events } = extract(`[Mon - Tue]: Lab\n${bullet}`);
      expect(events.map((e) => e.type)).toEqual([type, type]);
    });

    it('reports a bullet before any day line', () => {
      const result = extract('• Bring a pencil\n[Mon]: Intro');
      expect(result.events).toEqual([event('2025-02-24', 'Intro')]);
      expect(result.ignoredLines).toEqual([
        { line: '• Bring a pencil', reason: 'bullet before any day line' },
      ]);
    });

    it('keeps describing the last day line across a chatty line', () => {
      const result = extract('[Mon]: Intro\nDo not forget!\n• Read ch. 5');
      expect(result.events[0].description).toBe('Read ch. 5');
      expect(result.ignoredLines.map((i) => i.line)).toEqual(['Do not forget!']);
    });

    it('reports an empty bullet', () => {
      expect(extract('[Mon]: Intro\n•').ignoredLines).toEqual([
        { line: '•', reason: 'empty bullet' },
      ]);
    });

    it('reports a bullet that would take the description past 5000 characters', () => {
      const result = extract(`[Mon]: Intro\n• ${'x'.repeat(4997)}\n• yz\n• z`);
      expect(result.events[0].description).toBe(`${'x'.repeat(4997)}, z`);
      expect(result.events[0].description).toHaveLength(5000);
      expect(result.ignoredLines).toEqual([
        { line: '• yz', reason: 'description would be longer than 5000 characters' },
      ]);
    });

    it('does not read a "---" divider as a bullet', () => {
      expect(extract('[Mon]: Intro\n---').events[0].description).toBe('');
    });
  });

  describe('other lines', () => {
    it.each([
      ['Field trip on March 14', '2025-03-14', 'Field trip'],
      ['Quiz Friday', '2025-03-07', 'Quiz'],
    ])('makes a general event of the dated line %j, relative to the week', (line, date, title) => {
      expect(extract(`Week of 3/3/2025\n${line}`).events).toEqual([event(date, title)]);
    });

    it('lets bullets describe a dated line', () => {
      const { events } = extract('[Mon]: Intro\nField trip on March 14\n• Bring lunch');
      expect(events.map((e) => [e.title, e.description])).toEqual([
        ['Intro', ''],
        ['Field trip', 'Bring lunch'],
      ]);
    });

    it('reports a chatty line that names no date', () => {
      expect(extract('Have a great week, everyone!')).toEqual({
        weekStart: '2025-02-24',
        events: [],
        ignoredLines: [
          {
            line: 'Have a great week, everyone!',
            reason: 'not a day line, a description or a dated line',
          },
        ],
      });
    });

    it('reports brackets that hold no day name', () => {
      expect(extract('[Note]: bring pencils').ignoredLines).toEqual([
        {
          line: '[Note]: bring pencils',
          reason: 'no day name in the brackets and no date in the line',
        },
      ]);
    });
  });

  describe('Slack text', () => {
    it('decodes entities and links before reading lines', () => {
      const text =
        '[Mon]: Q&amp;A\n• <https://example.com/slides|Slides> &amp; <https://example.com/lab>';
      expect(extract(text).events).toEqual([
        event('2025-02-24', 'Q&A', { description: 'Slides & https://example.com/lab' }),
      ]);
    });

    it('reads Windows line endings', () => {
      expect(datesAndTitles('[Mon]: Intro\r\n[Tue]: Lab')).toEqual([
        '2025-02-24 Intro',
        '2025-02-25 Lab',
      ]);
    });
  });

  it('orders events by date, then by line order', () => {
    const text = '[Fri]: Quiz\n[Mon - Fri]: Warm-up\nWednesday: assembly';
    expect(datesAndTitles(text)).toEqual([
      '2025-02-24 Warm-up',
      '2025-02-25 Warm-up',
      '2025-02-26 Warm-up',
      '2025-02-26 assembly',
      '2025-02-27 Warm-up',
      '2025-02-28 Quiz',
      '2025-02-28 Warm-up',
    ]);
  });

  it('gives every event the period passed in, including null', () => {
    expect(extract('[Mon]: Intro', { period: null }).events[0].period).toBeNull();
  });

  it.each([
    [{ referenceDate: '2025-02-30' }, 'referenceDate'],
    [{ weekStart: '03/03/2025' }, 'weekStart'],
  ])('throws a RangeError naming the bad argument in %j', (overrides, name) => {
    expect(() => extract('[Mon]: Intro', overrides)).toThrow(new RegExp(name));
    expect(() => extract('[Mon]: Intro', overrides)).toThrow(RangeError);
  });
});
