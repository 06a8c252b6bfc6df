import { formatDay, parseIsoDay } from '../domain';
import { parseWeekAnchor } from './week-anchor';

const anchorDate = (line: string, reference: string) => {
  const anchor = parseWeekAnchor(line, parseIsoDay(reference) as number);
  return anchor?.kind === 'anchor' ? formatDay(anchor.date) : anchor;
};

describe('parseWeekAnchor', () => {
  it.each([
    ['Week of 3/3/2025', '2025-02-20', '2025-03-03'],
    ['week of 3/3/25', '2025-02-20', '2025-03-03'],
    ['WEEK OF 2025-03-03', '2024-06-01', '2025-03-03'],
    ['Week of 3/3', '2025-02-20', '2025-03-03'],
    ['Week of 1/5', '2025-12-30', '2026-01-05'],
    ['Week of 12/29', '2026-01-02', '2025-12-29'],
    ['Week of the 3rd', '2025-02-27', '2025-03-03'],
    ['Week of the 3rd', '2025-03-10', '2025-03-03'],
    ['Week of the 28th', '2025-03-02', '2025-02-28'],
    ['Week of the 31st', '2025-04-20', '2025-03-31'],
    ['Week of 3rd', '2025-03-01', '2025-03-03'],
    ['Week of March 3rd, 2025', '2024-01-01', '2025-03-03'],
    ['Week of Mar 3', '2025-02-20', '2025-03-03'],
    ['*Week of 3/3/2025*', '2025-02-20', '2025-03-03'],
    ['Week of 3/3/2025 (CSA plan)', '2025-02-20', '2025-03-03'],
    [':spiral_calendar_pad: *Week of 3/3*', '2025-02-20', '2025-03-03'],
  ])('reads %j posted on %s as %s', (line, reference, expected) => {
    expect(anchorDate(line, reference)).toBe(expected);
  });

  it('takes the only year with 29 February when no year is given', () => {
    expect(anchorDate('Week of 2/29', '2027-06-01')).toBe('2028-02-29');
  });

  it.each([
    ['Week of 2/30/2025', 'impossible', 'does not exist'],
    ['Week of 13/1', 'impossible', 'does not exist'],
    ['Week of 2025-02-29', 'impossible', 'does not exist'],
    ['Week of the 32nd', 'impossible', 'does not exist'],
    ['Week of spring break', 'invalid', 'unrecognised date'],
    ['Week of 3/3/202', 'invalid', 'unrecognised date'],
  ])('reports %j as an %s anchor (%s)', (line, kind, reason) => {
    const anchor = parseWeekAnchor(line, parseIsoDay('2025-03-01') as number);
    expect(anchor).toEqual({ kind, reason: expect.stringContaining(reason) });
  });

  it.each(['[Mon]: Week of review', 'The week of 3/3 is busy', 'Weekly quiz 3/3'])(
    'does not treat %j as an anchor',
    (line) => {
      expect(parseWeekAnchor(line, parseIsoDay('2025-03-01') as number)).toBeNull();
    },
  );
});
