-- Stores a chat message's events in one round trip (apps/calendar-api/src/messages/messages.service.ts):
-- claims the message, deletes the events of its previous text when the text changed, inserts the
-- new events. The steps are separate statements, so each sees what concurrent posts of the same
-- message committed before it, as separate queries in a READ COMMITTED transaction would; the
-- unique (channel, message_key) index arbitrates concurrent claims. Returns one row for the claim
-- ('inserted' or 'updated', with the message id) and one per event ('replaced' or 'created');
-- nothing when this exact content is stored already.
CREATE FUNCTION "ingest_chat_message"(
    p_channel TEXT, p_message_key TEXT, p_message_id TEXT, p_content_hash TEXT, p_week_start DATE,
    p_dates DATE[], p_titles TEXT[], p_descriptions TEXT[], p_types TEXT[], p_periods TEXT[]
)
RETURNS TABLE (
    change TEXT, id INTEGER, date DATE, title VARCHAR, description VARCHAR, type VARCHAR, period VARCHAR,
    source_channel VARCHAR, source_message_id VARCHAR, chat_message_id INTEGER,
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
                  e.source_channel, e.source_message_id, e.chat_message_id, e.created_at, e.updated_at;

    RETURN QUERY
        INSERT INTO calendar_event AS e (date, title, description, type, period, source_channel,
                                         source_message_id, chat_message_id, updated_at)
        SELECT x.date, x.title, x.description, x.type, x.period, nullif(p_channel, ''), p_message_id, claimed, now()
        FROM unnest(p_dates, p_titles, p_descriptions, p_types, p_periods) WITH ORDINALITY
             AS x(date, title, description, type, period, n)
        ORDER BY x.n
        RETURNING 'created'::TEXT, e.id, e.date, e.title, e.description, e.type, e.period,
                  e.source_channel, e.source_message_id, e.chat_message_id, e.created_at, e.updated_at;
END
$$;
