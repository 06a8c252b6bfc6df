-- Recurring events: a master row holds its RFC 5545 rule (RRULE value, always bounded by UNTIL
-- or COUNT) and its exception dates; `date` is its first day (DTSTART) and `series_end` its last
-- occurrence, computed when written, so a range read finds the series that can intersect it with
-- an index on series_end. Single events keep rrule and series_end null.
ALTER TABLE "calendar_event" ADD COLUMN "rrule" VARCHAR(500),
ADD COLUMN "exdates" DATE[] DEFAULT ARRAY[]::DATE[],
ADD COLUMN "series_end" DATE;

CREATE INDEX "calendar_event_series_end_date_idx" ON "calendar_event"("series_end", "date");
