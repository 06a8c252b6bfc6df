-- Every change to an API key is announced, so that the servers' key caches drop it before the
-- next request (apps/workspace-api/src/api-keys/api-key-cache.ts). The payload is the key (or *
-- after a truncate) and the transaction id, which the caches echo back to whoever waits for them.
CREATE FUNCTION "api_key_notify_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    changed TEXT := '*';
BEGIN
    IF TG_OP <> 'TRUNCATE' THEN
        changed := OLD."key";
    END IF;
    PERFORM pg_notify(TG_TABLE_SCHEMA || '.api_key_changed', changed || ' ' || pg_current_xact_id()::text);
    RETURN NULL;
END
$$;

CREATE TRIGGER "api_key_changed" AFTER UPDATE OR DELETE ON "api_key"
    FOR EACH ROW EXECUTE FUNCTION "api_key_notify_change"();
CREATE TRIGGER "api_key_truncated" AFTER TRUNCATE ON "api_key"
    FOR EACH STATEMENT EXECUTE FUNCTION "api_key_notify_change"();
