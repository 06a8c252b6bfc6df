-- When each phase of a session's launch (pull, create, start, ready) began and ended, as
-- [{"phase", "started_at", "ended_at"}]: get_kasm_status returns it and the user's page shows
-- the phase under way. Sessions launched before have none.

ALTER TABLE "kasm" ADD COLUMN "launch_timeline" JSONB NOT NULL DEFAULT '[]';
