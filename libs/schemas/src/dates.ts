import { Type } from '@sinclair/typebox';

/** A real calendar date, `YYYY-MM-DD` (ajv's `date` format rejects 2025-02-30). */
export const CalendarDateSchema = Type.String({ format: 'date', examples: ['2025-03-03'] });

/** ISO 8601 UTC timestamp, or null when unset. */
export const TimestampSchema = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export function toTimestamp(date: Date | null | undefined): string | null {
  return date ? date.toISOString() : null;
}
