-- The iCalendar SEQUENCE of an event: its revision, raised by one whenever its date changes
-- (RFC 5545 3.8.7.4), so calendar apps take the moved event over the copy they hold. A trigger
-- keeps it, so no write path can forget it. ingest_chat_message returns the column too (its
-- result has the columns of an event), so it is created again with it.

ALTER TABLE "calendar_event" ADD COLUMN "sequence" INTEGER NOT NULL DEFAULT 0;

CREATE FUNCTION "calendar_event_next_sequence"() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    NEW.sequence := OLD.sequence + 1;
    RETURN NEW;
END
$$;

CREATE TRIGGER "calendar_event_date_changed"
    BEFORE UPDATE OF "date" ON "calendar_event"
    FOR EACH ROW WHEN (OLD."date" IS DISTINCT FROM NEW."date")
    EXECUTE FUNCTION "calendar_event_next_sequence"();

DROP FUNCTION "ingest_chat_message"(TEXT, TEXT, TEXT, TEXT, DATE, DATE[], TEXT[], TEXT[], TEXT[], TEXT[]);

CREATE FUNCTION "ingest_chat_message"(
    p_channel TEXT, p_message_key TEXT, p_message_id TEXT, p_content_hash TEXT, p_week_start DATE,
    p_dates DATE[], p_titles TEXT[], p_descriptions TEXT[], p_types TEXT[], p_periods TEXT[]
)
RETURNS TABLE (
    change TEXT, id INTEGER, date DATE, title VARCHAR, description VARCHAR, type VARCHAR, period VARCHAR,
    source_channel VARCHAR, source_message_id VARCHAR, chat_message_id INTEGER, sequence INTEGER,
    created_at TIMESTAMPTZ, updated_at TIMESTAMPTZ
)
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
#variable_conflict use_column
DECLARE
    claimed INTEGER;
BEGIN
    INSERT INTO chat_message AS m (channel, message_key, message_id, content_hash, week_start, updated_at)
    VALUES (p_channel, p_message_key, p_message_id, p_content_hash, p_week_start, now())
    ON CONFLICT (channel, message_key) DO NOTHING
    RETURNING m.id INTO claimed;

    IF claimed IS NOT NULL THEN
        change := 'inserted';
    ELSE
        UPDATE chat_message AS m
        SET content_hash = p_content_hash, week_start = p_week_start, updated_at = now()
        WHERE m.channel = p_channel AND m.message_key = p_message_key AND m.content_hash <> p_content_hash
        RETURNING m.id INTO claimed;
        IF claimed IS NULL THEN
            RETURN;
        END IF;
        change := 'updated';
    END IF;
    id := claimed;
    RETURN NEXT;

    RETURN QUERY
        DELETE FROM calendar_event AS e WHERE e.chat_message_id = claimed
        RETURNING 'replaced'::TEXT, e.id, e.date, e.title, e.description, e.type, e.period,
                  e.source_channel, e.source_message_id, e.chat_message_id, e.sequence, e.created_at, e.updated_at;

    RETURN QUERY
        INSERT INTO calendar_event AS e (date, title, description, type, period, source_channel,
                                         source_message_id, chat_message_id, updated_at)
        SELECT x.date, x.title, x.description, x.type, x.period, nullif(p_channel, ''), p_message_id, claimed, now()
        FROM unnest(p_dates, p_titles, p_descriptions, p_types, p_periods) WITH ORDINALITY
             AS x(date, title, description, type, period, n)
        ORDER BY x.n
        RETURNING 'created'::TEXT, e.id, e.date, e.title, e.description, e.type, e.period,
                  e.source_channel, e.source_message_id, e.chat_message_id, e.sequence, e.created_at, e.updated_at;
END
$$;
