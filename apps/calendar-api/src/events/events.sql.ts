import { qualified, type Statement } from '../db';
import { eventColumns } from './event-row';

// The events repository's statements whose text depends on the request's shape.

/** Which events a read wants; every condition given must hold. */
export interface EventFilter {
  date?: string;
  /** Inclusive bounds. */
  start?: string;
  end?: string;
  type?: string;
  period?: string;
  /** Keyset paging: only events after this one in (date, id) order. */
  after?: { date: string; id: number };
  limit?: number;
}

/**
 * The read of events matching `filter` in one round trip: the single events, by date, then id
 * (the `(date, id)` index; `limit` applies to them), then the recurring events whose series can
 * have an occurrence matching it, found from their first and last days (`(series_end, date)`
 * index) and expanded by the caller. Its text depends only on which conditions are present, so
 * each shape is one named statement, prepared once per connection.
 */
export function selectEventsStatement(schema: string, filter: EventFilter): Statement {
  const values: unknown[] = [];
  const shape: string[] = [];
  const singles = ['e.rrule IS NULL'];
  const series = ['e.rrule IS NOT NULL'];
  const add = (key: string, given: unknown[], single: string | null, recurring: string | null) => {
    const at = given.map((value) => `$${values.push(value)}`);
    const fill = (sql: string) => sql.replace(/\$(\d)/g, (_, n: string) => at[Number(n)]);
    if (single !== null) singles.push(fill(single));
    if (recurring !== null) series.push(fill(recurring));
    shape.push(key);
  };
  const { date, start, end, type, period, after } = filter;
  if (date !== undefined) {
    add('date', [date], 'e.date = $0::date', 'e.series_end >= $0::date AND e.date <= $0::date');
  }
  if (start !== undefined) add('start', [start], 'e.date >= $0::date', 'e.series_end >= $0::date');
  if (end !== undefined) add('end', [end], 'e.date <= $0::date', 'e.date <= $0::date');
  if (type !== undefined) add('type', [type], 'e.type = $0', 'e.type = $0');
  if (period !== undefined) add('period', [period], 'e.period = $0', 'e.period = $0');
  if (after !== undefined) {
    add('after', [after.date, after.id], '(e.date, e.id) > ($0::date, $1::integer)', null);
    series.push(`e.series_end >= $${values.length - 1}::date`);
  }
  const table = qualified(schema, 'calendar_event');
  // Ordered by the table's columns, not the text ones of the same names: the index then does it.
  let first = `SELECT ${eventColumns('e', true)} FROM ${table} e
    WHERE ${singles.join(' AND ')} ORDER BY e.date, e.id`;
  if (filter.limit !== undefined) {
    first += ` LIMIT $${values.push(filter.limit)}::integer`;
    shape.push('limit');
  }
  const text = `(${first}) UNION ALL (SELECT ${eventColumns('e')} FROM ${table} e
    WHERE ${series.join(' AND ')})`;
  return { name: `calendar_events_${shape.join('_') || 'all'}`, text, values };
}

/** The events an edit is about, locked until its transaction ends: by id, or by title (and date). */
export function lockStatement(schema: string, target: LockTarget): Statement {
  const from = `SELECT ${eventColumns('e')} FROM ${qualified(schema, 'calendar_event')} e`;
  if ('id' in target) {
    const text = `${from} WHERE e.id = $1 FOR UPDATE`;
    return { name: 'calendar_event_lock_id', text, values: [target.id] };
  }
  const onDate = target.date === undefined ? '' : ' AND e.date = $2::date';
  return {
    name: `calendar_event_lock_title${onDate === '' ? '' : '_date'}`,
    text: `${from} WHERE e.title = $1${onDate} ORDER BY e.date, e.id FOR UPDATE`,
    values: target.date === undefined ? [target.title] : [target.title, target.date],
  };
}
export type LockTarget = { id: number } | { title: string; date: string | undefined };
