-- Session recording (issue 42; docs/recording.md). A workspace's policy: whether its sessions are
-- recorded, whether key events go into the recording, how many days a recording is kept (null:
-- for ever), and whether a session that cannot be recorded is refused. A group may require
-- recording of its members' sessions whatever the workspace says.

ALTER TABLE "image" ADD COLUMN "record_sessions" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "image" ADD COLUMN "record_keystrokes" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "image" ADD COLUMN "recording_retention_days" INTEGER;
ALTER TABLE "image" ADD COLUMN "refuse_unrecorded" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "group" ADD COLUMN "record_sessions" BOOLEAN NOT NULL DEFAULT false;

-- One recording of one session (a session the service recorded twice, after a restart, has two).
-- No foreign keys: a recording outlives its session, its user and its workspace.
CREATE TABLE "recording" (
    "id" UUID NOT NULL,
    "kasm_id" UUID NOT NULL,
    "user_id" UUID,
    "username" VARCHAR(255) NOT NULL DEFAULT '',
    "image_id" UUID,
    "image_name" VARCHAR(255) NOT NULL DEFAULT '',
    "path" VARCHAR(1024) NOT NULL,
    "status" VARCHAR(16) NOT NULL,
    "keystrokes" BOOLEAN NOT NULL,
    "bytes" BIGINT NOT NULL DEFAULT 0,
    "chunks" INTEGER NOT NULL DEFAULT 0,
    "digest" CHAR(64),
    "error" VARCHAR(2000),
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "recording_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "recording_kasm_id_idx" ON "recording"("kasm_id");
CREATE INDEX "recording_user_id_started_at_idx" ON "recording"("user_id", "started_at");
CREATE INDEX "recording_image_id_started_at_idx" ON "recording"("image_id", "started_at");
CREATE INDEX "recording_started_at_idx" ON "recording"("started_at");
CREATE INDEX "recording_expires_at_idx" ON "recording"("expires_at");

-- One recording under way per session: the replica whose insert wins records it.
CREATE UNIQUE INDEX "recording_one_under_way" ON "recording"("kasm_id") WHERE "status" = 'recording';
