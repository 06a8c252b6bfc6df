import { type ExtractInput, extractEvents, MessageRejectedError } from './extract';

function extract(text: string, overrides: Partial<ExtractInput> = {}) {
  return extractEvents({ text, referenceDate: '2025-02-27', period: 'CSA', ...overrides });
}

const datesAndTitles = (text: string, overrides: Partial<ExtractInput> = {}) =>
  extract(text, overrides).events.map((e) => `${e.date} ${e.title}`);

describe('extractEvents: the week', () => {
  it.each([
    ['Week of 3/3/2025', '2025-03-03', 'a Monday anchors its own week'],
    ['Week of 3/5/2025', '2025-03-03', 'a midweek anchor means the Monday of its week'],
    ['Week of 3/2/2025', '2025-03-03', 'a Sunday anchor means the following week'],
    ['Week of 3/8/2025', '2025-03-10', 'a Saturday anchor means the following week'],
    ['Week of 2025-03-03', '2025-03-03', 'ISO dates are anchors'],
    ['week of the 3rd', '2025-03-03', '"the Nth" takes the nearest month with that day'],
  ])('puts [Mon] of %j on %s: %s', (anchor, monday) => {
    expect(extract(`${anchor}\n[Mon]: Intro`)).toMatchObject({
      weekStart: monday,
      events: [{ date: monday, title: 'Intro' }],
    });
  });

  it('reads "Week of 1/5" posted on 2025-12-30 as January 2026', () => {
    const result = extract('Week of 1/5\n[Fri]: Quiz', { referenceDate: '2025-12-30' });
    expect(result.weekStart).toBe('2026-01-05');
    expect(result.events.map((e) => e.date)).toEqual(['2026-01-09']);
  });

  it('uses the week of the reference date when there is no anchor', () => {
    expect(datesAndTitles('[Mon]: Intro\n[Fri]: Quiz')).toEqual([
      '2025-02-24 Intro',
      '2025-02-28 Quiz',
    ]);
  });

  it('uses the following week when the message is posted on a weekend without an anchor', () => {
    expect(extract('[Mon]: Intro', { referenceDate: '2025-03-02' }).weekStart).toBe('2025-03-03');
  });

  it('lets the weekStart argument override a "Week of" line, and reports that line', () => {
    const result = extract('Week of 3/10/2025\n[Mon]: Intro', { weekStart: '2025-03-03' });
    expect(result.weekStart).toBe('2025-03-03');
    expect(result.events.map((e) => e.date)).toEqual(['2025-03-03']);
    expect(result.ignoredLines).toEqual([
      { line: 'Week of 3/10/2025', reason: 'week_start in the request takes precedence' },
    ]);
  });

  it('treats a weekend weekStart argument like a weekend anchor', () => {
    expect(extract('[Mon]: Intro', { weekStart: '2025-03-09' }).events[0].date).toBe('2025-03-10');
  });

  it('applies a second "Week of" line to the day lines after it', () => {
    const text = 'Week of 3/3/2025\n[Fri]: Quiz\nWeek of 3/10/2025\n[Mon]: Review';
    expect(extract(text).weekStart).toBe('2025-03-03');
    expect(datesAndTitles(text)).toEqual(['2025-03-07 Quiz', '2025-03-10 Review']);
  });

  it('anchors day lines written before the "Week of" line too', () => {
    expect(datesAndTitles('[Mon]: Intro\nWeek of 3/3/2025')).toEqual(['2025-03-03 Intro']);
  });

  it.each([
    ['Week of 2/30/2025\n[Mon]: Intro', 'Week of 2/30/2025'],
    ['Week of 3/3/2025\n[Mon]: Intro\nWeek of 2/30\n[Tue]: Lab', 'Week of 2/30'],
  ])(
    'rejects %j: a "Week of" date that does not exist is never replaced by a guess',
    (text, line) => {
      const rejection = (() => {
        try {
          extract(text);
        } catch (error) {
          return error;
        }
        return null;
      })();
      expect(rejection).toBeInstanceOf(MessageRejectedError);
      expect(rejection).toMatchObject({
        line,
        reason: '"Week of" names a date that does not exist',
      });
    },
  );

  it('reads a message with an impossible "Week of" date when week_start is given', () => {
    const result = extract('Week of 2/30/2025\n[Mon]: Intro', { weekStart: '2025-03-03' });
    expect(result.events.map((e) => e.date)).toEqual(['2025-03-03']);
    expect(result.ignoredLines).toEqual([
      { line: 'Week of 2/30/2025', reason: '"Week of" names a date that does not exist' },
    ]);
  });

  it('reports a "Week of" line naming no date it can read, and keeps the week', () => {
    const result = extract('Week of 3/3/2025\n[Mon]: Intro\nWeek of fun\n[Tue]: Lab');
    expect(result.events.map((e) => e.date)).toEqual(['2025-03-03', '2025-03-04']);
    expect(result.ignoredLines).toEqual([
      { line: 'Week of fun', reason: 'unrecognised date after "Week of"' },
    ]);
  });
});
