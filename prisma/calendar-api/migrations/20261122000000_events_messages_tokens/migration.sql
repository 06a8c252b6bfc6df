-- Calendar events, the chat messages they came from, and bearer tokens for writes.
-- Runs with search_path set to the service's schema (see @platform/db migrate).

CREATE TABLE "chat_message" (
    "id" SERIAL NOT NULL,
    "channel" VARCHAR(255) NOT NULL DEFAULT '',
    "message_key" VARCHAR(255) NOT NULL,
    "message_id" VARCHAR(255),
    "content_hash" CHAR(64) NOT NULL,
    "week_start" DATE NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "chat_message_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "chat_message_channel_message_key_key" ON "chat_message"("channel", "message_key");

CREATE TABLE "calendar_event" (
    "id" SERIAL NOT NULL,
    "date" DATE NOT NULL,
    "title" VARCHAR(200) NOT NULL,
    "description" VARCHAR(5000) NOT NULL DEFAULT '',
    "type" VARCHAR(64) NOT NULL DEFAULT 'general',
    "period" VARCHAR(32),
    "source_channel" VARCHAR(255),
    "source_message_id" VARCHAR(255),
    "chat_message_id" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "calendar_event_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "calendar_event_date_id_idx" ON "calendar_event"("date", "id");
CREATE INDEX "calendar_event_type_idx" ON "calendar_event"("type");
CREATE INDEX "calendar_event_period_idx" ON "calendar_event"("period");
CREATE INDEX "calendar_event_title_idx" ON "calendar_event"("title");
CREATE INDEX "calendar_event_source_channel_source_message_id_idx" ON "calendar_event"("source_channel", "source_message_id");
CREATE INDEX "calendar_event_chat_message_id_idx" ON "calendar_event"("chat_message_id");
ALTER TABLE "calendar_event" ADD CONSTRAINT "calendar_event_chat_message_id_fkey" FOREIGN KEY ("chat_message_id") REFERENCES "chat_message"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "api_token" (
    "id" SERIAL NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "api_token_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "api_token_token_hash_key" ON "api_token"("token_hash");
