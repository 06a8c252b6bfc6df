-- ingest_chat_message: claims a chat message and replaces its events in one round trip
-- (docs/decisions/0002-sql-ingest-function.md). This file is the function's one source: the
-- migration runner applies it after the migrations whenever its text changes (CREATE OR
-- REPLACE), so a change edits it here. A change of its arguments or result columns cannot be
-- replaced in place: DROP FUNCTION IF EXISTS the old signature first, in this file.

CREATE OR REPLACE FUNCTION "ingest_chat_message"(
    p_channel TEXT, p_message_key TEXT, p_message_id TEXT, p_content_hash TEXT, p_week_start DATE,
    p_dates DATE[], p_titles TEXT[], p_descriptions TEXT[], p_types TEXT[], p_periods TEXT[],
    p_version NUMERIC
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
    stored_hash TEXT;
    stored_version NUMERIC;
BEGIN
    INSERT INTO chat_message AS m (channel, message_key, message_id, content_hash, week_start, version, updated_at)
    VALUES (p_channel, p_message_key, p_message_id, p_content_hash, p_week_start, p_version, now())
    ON CONFLICT (channel, message_key) DO NOTHING
    RETURNING m.id INTO claimed;

    IF claimed IS NOT NULL THEN
        change := 'inserted';
    ELSE
        SELECT m.id, m.content_hash, m.version INTO claimed, stored_hash, stored_version
        FROM chat_message AS m
        WHERE m.channel = p_channel AND m.message_key = p_message_key
        FOR UPDATE;
        IF claimed IS NULL THEN
            RETURN;
        END IF;
        IF p_version < stored_version THEN
            change := 'stale';
            id := claimed;
            RETURN NEXT;
            RETURN;
        END IF;
        UPDATE chat_message AS m
        SET content_hash = p_content_hash, week_start = p_week_start,
            version = GREATEST(m.version, p_version), updated_at = now()
        WHERE m.id = claimed AND (m.content_hash <> p_content_hash OR m.version IS DISTINCT FROM GREATEST(m.version, p_version));
        IF stored_hash = p_content_hash THEN
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
