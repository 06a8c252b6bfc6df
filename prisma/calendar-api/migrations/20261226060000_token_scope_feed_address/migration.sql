-- Tokens get a scope and may expire. Every token issued before could write, so existing rows
-- become `write` (nothing that works today breaks); the default is then dropped, so every new
-- token states its scope.
ALTER TABLE "api_token"
    ADD COLUMN "scope" VARCHAR(8) NOT NULL DEFAULT 'write',
    ADD COLUMN "expires_at" TIMESTAMPTZ(3),
    ADD CONSTRAINT "api_token_scope_check" CHECK ("scope" IN ('read', 'write'));
ALTER TABLE "api_token" ALTER COLUMN "scope" DROP DEFAULT;

-- A secret address of the iCalendar feed, for calendar apps, which cannot send a bearer token.
-- One row per subscribable calendar (every event, or those of one type and/or period); only
-- the SHA-256 of its 256-bit secret is stored, and rotating replaces it in place.
CREATE TABLE "feed_address" (
    "id" SERIAL NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "secret_hash" CHAR(64) NOT NULL,
    "type" VARCHAR(64),
    "period" VARCHAR(32),
    "rotated_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "feed_address_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "feed_address_secret_hash_key" ON "feed_address"("secret_hash");
