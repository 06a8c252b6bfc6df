-- Users, system groups, login sessions and API keys.
-- Runs with search_path set to the service's schema (see @platform/db migrate).

CREATE TABLE "user" (
    "id" UUID NOT NULL,
    "username" VARCHAR(255) NOT NULL,
    "first_name" VARCHAR(64) NOT NULL DEFAULT '',
    "last_name" VARCHAR(64) NOT NULL DEFAULT '',
    "phone" VARCHAR(64) NOT NULL DEFAULT '',
    "organization" VARCHAR(64) NOT NULL DEFAULT '',
    "notes" VARCHAR(2000) NOT NULL DEFAULT '',
    "locked" BOOLEAN NOT NULL DEFAULT false,
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "realm" VARCHAR(32) NOT NULL DEFAULT 'local',
    "password_hash" VARCHAR(100),
    "password_set_date" TIMESTAMPTZ(3),
    "failed_login_count" INTEGER NOT NULL DEFAULT 0,
    "last_session" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "user_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "user_username_key" ON "user"("username");
CREATE INDEX "user_organization_idx" ON "user"("organization");
CREATE INDEX "user_created_at_id_idx" ON "user"("created_at", "id");

CREATE TABLE "group" (
    "id" UUID NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "description" VARCHAR(2000) NOT NULL DEFAULT '',
    "priority" INTEGER NOT NULL DEFAULT 100,
    "is_system" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "group_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "group_name_key" ON "group"("name");

CREATE TABLE "user_group" (
    "user_id" UUID NOT NULL,
    "group_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "user_group_pkey" PRIMARY KEY ("user_id", "group_id")
);
CREATE INDEX "user_group_group_id_idx" ON "user_group"("group_id");
ALTER TABLE "user_group" ADD CONSTRAINT "user_group_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "user_group" ADD CONSTRAINT "user_group_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "group"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "session" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "session_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "session_token_hash_key" ON "session"("token_hash");
CREATE INDEX "session_user_id_idx" ON "session"("user_id");
ALTER TABLE "session" ADD CONSTRAINT "session_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "api_key" (
    "id" UUID NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "key" VARCHAR(64) NOT NULL,
    "secret_hash" CHAR(64) NOT NULL,
    "permissions" TEXT[],
    "read_only" BOOLEAN NOT NULL DEFAULT false,
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "api_key_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "api_key_key_key" ON "api_key"("key");

-- The system groups, with the fixed ids Kasm clients know.
INSERT INTO "group" ("id", "name", "description", "priority", "is_system", "updated_at") VALUES
    ('68d557ac-4cac-42cc-a9f3-1c7c853de0f3', 'All Users', 'Every user is a member', 4095, true, CURRENT_TIMESTAMP),
    ('b578d8e3-4b3f-4a4b-8a4f-2d2a4c6bb1a1', 'Administrators', 'Platform administrators', 1, true, CURRENT_TIMESTAMP);
