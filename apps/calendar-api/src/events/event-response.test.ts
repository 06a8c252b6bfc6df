import { etagOf, ifMatchAllows, toEventResponse } from './event-response';
import type { EventRow } from './event-row';

/** The fields a row and its response share, by the same names. */
const SAME = {
  id: 7,
  date: '2025-03-03',
  title: 'Unit 5 intro',
  description: 'Read ch. 5',
  type: 'general',
  period: 'CSA',
};

function row(overrides: Partial<EventRow> = {}): EventRow {
  return {
    ...SAME,
    sourceChannel: 'C123',
    sourceMessageId: '1740000000.000100',
    fromChat: true,
    sequence: 0,
    rrule: null,
    exdates: [],
    createdAt: '2025-03-01T10:00:00.000Z',
    updatedAt: '2025-03-02T10:00:00.000Z',
    ...overrides,
  };
}

describe('toEventResponse', () => {
  it('renders the contract shape with a calendar date and UTC timestamps', () => {
    expect(toEventResponse(row())).toEqual({
      ...SAME,
      created_at: '2025-03-01T10:00:00.000Z',
      updated_at: '2025-03-02T10:00:00.000Z',
      source: { channel: 'C123', message_id: '1740000000.000100' },
      recurrence: null,
    });
  });

  it('gives a recurring event its rule and exceptions', () => {
    const weekly = row({ rrule: 'FREQ=WEEKLY;COUNT=3', exdates: ['2025-03-10'] });
    expect(toEventResponse(weekly).recurrence).toEqual({
      rrule: 'FREQ=WEEKLY;COUNT=3',
      exdates: ['2025-03-10'],
    });
  });

  it('gives an event added directly a null source', () => {
    const direct = row({ fromChat: false, sourceChannel: null, sourceMessageId: null });
    expect(toEventResponse(direct).source).toBeNull();
  });
});

describe('etagOf', () => {
  it('is a quoted strong tag that stays the same for the same representation', () => {
    expect(etagOf(row())).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(etagOf(row())).toBe(etagOf(row()));
  });

  it('changes when any field of the representation changes', () => {
    const base = etagOf(row());
    expect(etagOf(row({ title: 'Unit 6 intro' }))).not.toBe(base);
    expect(etagOf(row({ updatedAt: '2025-03-02T10:00:00.001Z' }))).not.toBe(base);
  });
});

describe('ifMatchAllows', () => {
  const etag = '"abc"';

  it.each([
    [undefined, true],
    ['*', true],
    ['"abc"', true],
    ['"x", "abc"', true],
    ['"x"', false],
    ['W/"abc"', false],
    ['abc', false],
    ['', false],
  ])('answers %j with %s', (header, expected) => {
    expect(ifMatchAllows(header, etag)).toBe(expected);
  });
});
