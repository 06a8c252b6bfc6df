-- Users in a browser: one-time sign-in links (get_login) and the icons of installed workspaces,
-- fetched from their registry so that the page loads nothing from elsewhere.

CREATE TABLE "login_link" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "login_link_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "login_link_token_hash_key" ON "login_link"("token_hash");
CREATE INDEX "login_link_user_id_idx" ON "login_link"("user_id");
ALTER TABLE "login_link" ADD CONSTRAINT "login_link_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "image_icon" (
    "image_id" UUID NOT NULL,
    "source_url" VARCHAR(4096) NOT NULL,
    "content_type" VARCHAR(64) NOT NULL DEFAULT '',
    "data" BYTEA,
    "problem" VARCHAR(2000) NOT NULL DEFAULT '',
    "fetched_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "image_icon_pkey" PRIMARY KEY ("image_id")
);
ALTER TABLE "image_icon" ADD CONSTRAINT "image_icon_image_id_fkey" FOREIGN KEY ("image_id") REFERENCES "image"("id") ON DELETE CASCADE ON UPDATE CASCADE;
