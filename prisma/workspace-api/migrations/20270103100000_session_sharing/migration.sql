-- Sharing a session (issue 40): Kasm's share_id on a session, share links of our own per role,
-- and who holds a grant to a session besides its owner (joiners, an administrator's watch).

ALTER TABLE "kasm" ADD COLUMN "share_id" VARCHAR(32);
CREATE UNIQUE INDEX "kasm_share_id_key" ON "kasm"("share_id");

CREATE TABLE "session_share" (
    "id" UUID NOT NULL,
    "kasm_id" UUID NOT NULL,
    "role" VARCHAR(8) NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "allowed_user_ids" UUID[] DEFAULT ARRAY[]::UUID[],
    "allowed_group_ids" UUID[] DEFAULT ARRAY[]::UUID[],
    "joiner_id" UUID,
    "max_uses" INTEGER,
    "uses" INTEGER NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_by" VARCHAR(255) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "session_share_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "session_share_kasm_id_fkey" FOREIGN KEY ("kasm_id") REFERENCES "kasm"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "session_share_token_hash_key" ON "session_share"("token_hash");
CREATE INDEX "session_share_kasm_id_idx" ON "session_share"("kasm_id");

ALTER TABLE "kasm_grant" ADD COLUMN "role" VARCHAR(8) NOT NULL DEFAULT 'owner';
ALTER TABLE "kasm_grant" ADD COLUMN "share_id" UUID;
ALTER TABLE "kasm_grant" ADD COLUMN "joiner_id" UUID;
ALTER TABLE "kasm_grant" ADD COLUMN "joiner_name" VARCHAR(255) NOT NULL DEFAULT '';
ALTER TABLE "kasm_grant" ADD CONSTRAINT "kasm_grant_share_id_fkey" FOREIGN KEY ("share_id") REFERENCES "session_share"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "kasm_grant_share_id_idx" ON "kasm_grant"("share_id");

-- Kasm's group setting: joiners of its members' shared sessions control the desktop.
ALTER TABLE "group" ADD COLUMN "shared_session_full_control" BOOLEAN NOT NULL DEFAULT false;
-- Per workspace: joiners who are not signed in (join_kasm without user_id, links held by anyone).
ALTER TABLE "image" ADD COLUMN "allow_anonymous_join" BOOLEAN NOT NULL DEFAULT false;
