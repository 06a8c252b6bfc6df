import { Type, type Static } from '@sinclair/typebox';
import { CalendarDateSchema } from '@platform/schemas';
import { MAX_EVENT_ID } from './events.schemas';

export const DEFAULT_PAGE_SIZE = 100;

export const ListQuerySchema = Type.Object({
  type: Type.Optional(Type.String({ maxLength: 64 })),
  period: Type.Optional(Type.String({ maxLength: 32 })),
  start: Type.Optional(CalendarDateSchema),
  end: Type.Optional(CalendarDateSchema),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: DEFAULT_PAGE_SIZE }),
  after_id: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_EVENT_ID,
      description: 'The last id of the previous page',
    }),
  ),
  after_date: Type.Optional(
    Type.String({
      ...CalendarDateSchema,
      description:
        "With after_id: the date of the previous page's last event (a recurring one's occurrence)",
    }),
  ),
});
export type ListQuery = Static<typeof ListQuerySchema>;

export const RangeQuerySchema = Type.Object({
  start: CalendarDateSchema,
  end: CalendarDateSchema,
});
export type RangeQuery = Static<typeof RangeQuerySchema>;

export const NextDayQuerySchema = Type.Object({
  tz: Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'IANA time zone; CALENDAR_TIMEZONE when absent',
      examples: ['America/Los_Angeles'],
    }),
  ),
});

/** The Link header's rel="next" target: the same query, continued after `afterId`. */
export function nextPageLink(
  path: string,
  query: ListQuery,
  next: { afterId: number; afterDate?: string },
): string {
  const params = new URLSearchParams();
  for (const key of ['type', 'period', 'start', 'end'] as const) {
    const value = query[key];
    if (value !== undefined) params.set(key, value);
  }
  params.set('limit', String(query.limit));
  params.set('after_id', String(next.afterId));
  if (next.afterDate !== undefined) params.set('after_date', next.afterDate);
  return `<${path}?${params}>; rel="next"`;
}
