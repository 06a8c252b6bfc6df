-- A recurring event's dates change with its rule and its exceptions too, so SEQUENCE is raised
-- whenever date, rrule or exdates change (calendar apps then take the new series over theirs).

DROP TRIGGER "calendar_event_date_changed" ON "calendar_event";

CREATE TRIGGER "calendar_event_dates_changed"
    BEFORE UPDATE OF "date", "rrule", "exdates" ON "calendar_event"
    FOR EACH ROW WHEN (
        OLD."date" IS DISTINCT FROM NEW."date"
        OR OLD."rrule" IS DISTINCT FROM NEW."rrule"
        OR OLD."exdates" IS DISTINCT FROM NEW."exdates"
    )
    EXECUTE FUNCTION "calendar_event_next_sequence"();
