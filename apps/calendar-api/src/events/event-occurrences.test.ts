import { withOccurrences } from './event-occurrences';
import type { EventRow } from './event-row';

const row = (id: number, date: string, rrule: string | null = null, exdates: string[] = []) =>
  ({
    id,
    date,
    title: `Event ${id}`,
    description: '',
    type: 'general',
    period: null,
    sourceChannel: null,
    sourceMessageId: null,
    fromChat: false,
    sequence: 0,
    rrule,
    exdates,
    createdAt: '2025-03-01T10:00:00.000Z',
    updatedAt: '2025-03-01T10:00:00.000Z',
  }) satisfies EventRow;

const shown = (rows: EventRow[]) => rows.map((e) => `${e.date}#${e.id}`);

describe('withOccurrences', () => {
  it('keeps single events in the order they came when no series is among them', () => {
    const singles = [row(2, '2025-03-03'), row(1, '2025-03-04')];
    expect(withOccurrences(singles)).toEqual(singles);
  });

  it('merges the occurrences in the window with the single events, by date then id', () => {
    const rows = [
      row(2, '2025-03-03'),
      row(9, '2025-03-10'),
      row(5, '2025-03-03', 'FREQ=WEEKLY;COUNT=4', ['2025-03-17']),
    ];
    expect(shown(withOccurrences(rows, { from: '2025-03-01', to: '2025-03-20' }))).toEqual([
      '2025-03-03#2',
      '2025-03-03#5',
      '2025-03-10#5',
      '2025-03-10#9',
    ]);
  });

  it('orders single events that came out of order', () => {
    const rows = [
      row(3, '2025-03-05'),
      row(1, '2025-03-04'),
      row(7, '2025-03-02', 'FREQ=DAILY;COUNT=2'),
    ];
    expect(shown(withOccurrences(rows))).toEqual([
      '2025-03-02#7',
      '2025-03-03#7',
      '2025-03-04#1',
      '2025-03-05#3',
    ]);
  });

  it('expands each version of a series by its own exceptions', () => {
    const before = [row(4, '2025-03-03', 'FREQ=DAILY;COUNT=3')];
    const after = [row(4, '2025-03-03', 'FREQ=DAILY;COUNT=3', ['2025-03-04'])];
    expect(shown(withOccurrences(before))).toHaveLength(3);
    expect(shown(withOccurrences(after))).toEqual(['2025-03-03#4', '2025-03-05#4']);
    expect(shown(withOccurrences(before))).toHaveLength(3);
  });
});
