-- The Slack events inbox and the notification outbox. Both are work queues claimed with
-- FOR UPDATE SKIP LOCKED; the status checks guard the values the code relies on.

CREATE TABLE "slack_inbox" (
    "id" SERIAL NOT NULL,
    "event_id" VARCHAR(255) NOT NULL,
    "channel" VARCHAR(255) NOT NULL,
    "message_ts" VARCHAR(255) NOT NULL,
    "payload" JSONB NOT NULL,
    "status" VARCHAR(16) NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_error" VARCHAR(1000),
    "processed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "slack_inbox_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "slack_inbox_status_check" CHECK ("status" IN ('pending', 'done', 'failed'))
);
CREATE UNIQUE INDEX "slack_inbox_event_id_key" ON "slack_inbox"("event_id");
CREATE INDEX "slack_inbox_status_id_idx" ON "slack_inbox"("status", "id");
CREATE INDEX "slack_inbox_channel_message_ts_id_idx" ON "slack_inbox"("channel", "message_ts", "id");

CREATE TABLE "notification" (
    "id" SERIAL NOT NULL,
    "target" VARCHAR(64) NOT NULL,
    "action" VARCHAR(16) NOT NULL,
    "content" JSONB NOT NULL,
    "status" VARCHAR(16) NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_status" INTEGER,
    "last_error" VARCHAR(1000),
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "notification_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "notification_status_check" CHECK ("status" IN ('pending', 'delivered', 'failed'))
);
CREATE INDEX "notification_status_next_attempt_at_idx" ON "notification"("status", "next_attempt_at");
CREATE INDEX "notification_status_id_idx" ON "notification"("status", "id");
