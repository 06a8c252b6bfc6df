import { formatDay, parseIsoDay } from '../domain';
import { parseFreeTextDate } from './free-text-date';

const WEEK = parseIsoDay('2025-03-03') as number;

const read = (line: string, week = WEEK) => {
  const result = parseFreeTextDate(line, week);
  return result.kind === 'dated' ? [formatDay(result.date), result.title] : result.reason;
};

describe('parseFreeTextDate', () => {
  it.each([
    ['Field trip on March 14', '2025-03-14', 'Field trip'],
    ['Quiz Friday', '2025-03-07', 'Quiz'],
    ['Quiz on Friday', '2025-03-07', 'Quiz'],
    ['Sunday: study group', '2025-03-09', 'study group'],
    ['Monday - no school', '2025-03-03', 'no school'],
    ['Quiz next Friday', '2025-03-14', 'Quiz'],
    ['Project due 3/14', '2025-03-14', 'Project due'],
    ['Assembly on 2025-03-12 in the gym', '2025-03-12', 'Assembly in the gym'],
    ['Quiz Friday at 3pm', '2025-03-07', 'Quiz'],
    ['*Field trip on March 14!*', '2025-03-14', 'Field trip'],
    ['Exam Feb 28', '2025-02-28', 'Exam'],
  ])('reads %j in the week of 2025-03-03 as %s %j', (line, date, title) => {
    expect(read(line)).toEqual([date, title]);
  });

  it('reads a month and day without a year as the nearest one to the week', () => {
    expect(read('Field trip on Jan 9', parseIsoDay('2025-12-29') as number)).toEqual([
      '2026-01-09',
      'Field trip',
    ]);
  });

  it.each([
    'Have a great week!',
    'Remember to bring laptops tomorrow',
    'Office hours at 3pm',
    'Spring break next week',
    'Chapter 5 is long',
  ])('finds no explicit date in %j', (line) => {
    expect(read(line)).toBe('not a day line, a description or a dated line');
  });

  it('reports a line that is only a date', () => {
    expect(read('*Friday 3/7*')).toBe('a date with no title');
  });
});
