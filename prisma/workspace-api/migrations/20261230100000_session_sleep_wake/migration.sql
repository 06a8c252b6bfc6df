-- Sleep and wake (Kasm's stop_kasm, pause_kasm, resume_kasm). "stopped" now means what Kasm
-- means by it: the container and its disk are kept and resume_kasm starts it again. A session
-- that ended (destroyed, expired, or stopped before this change: its container is gone) is
-- "destroyed".
ALTER TABLE "kasm" DROP CONSTRAINT "kasm_status_check";
UPDATE "kasm" SET "status" = 'destroyed' WHERE "status" = 'stopped';
ALTER TABLE "kasm" ADD CONSTRAINT "kasm_status_check" CHECK (
    "status" IN ('requested', 'provisioning', 'starting', 'running', 'paused', 'stopped',
                 'stopping', 'destroyed', 'error')
);

-- When the session's stream last carried input from its user (recorded at most every few
-- seconds); the idle limit counts from it, or from the start when there was none.
ALTER TABLE "kasm" ADD COLUMN "last_input_at" TIMESTAMPTZ(3);

-- A workspace's idle limit: running sessions with no input for that long are stopped or
-- destroyed. NULL: no limit.
ALTER TABLE "image" ADD COLUMN "idle_limit_seconds" INTEGER;
ALTER TABLE "image" ADD COLUMN "idle_action" VARCHAR(16) NOT NULL DEFAULT 'stop'
    CONSTRAINT "image_idle_action_check" CHECK ("idle_action" IN ('stop', 'destroy'));
ALTER TABLE "image" ADD CONSTRAINT "image_idle_limit_check" CHECK ("idle_limit_seconds" > 0);
