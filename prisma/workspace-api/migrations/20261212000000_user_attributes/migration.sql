-- User attributes (Kasm's get_attributes / update_user_attributes): preferences, and the default
-- workspace that request_kasm launches when it names none. A user without a row has the defaults.

CREATE TABLE "user_attributes" (
    "user_id" UUID NOT NULL,
    "default_image_id" UUID,
    "show_tips" BOOLEAN NOT NULL DEFAULT true,
    "auto_login_kasm" BOOLEAN NOT NULL DEFAULT false,
    "toggle_control_panel" BOOLEAN NOT NULL DEFAULT true,
    "theme" VARCHAR(32) NOT NULL DEFAULT 'Light',
    "chat_sfx" BOOLEAN NOT NULL DEFAULT true,
    "ssh_public_key" VARCHAR(16384) NOT NULL DEFAULT '',
    "preferred_language" VARCHAR(64) NOT NULL DEFAULT '',
    "preferred_timezone" VARCHAR(64) NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "user_attributes_pkey" PRIMARY KEY ("user_id")
);
CREATE INDEX "user_attributes_default_image_id_idx" ON "user_attributes"("default_image_id");
ALTER TABLE "user_attributes" ADD CONSTRAINT "user_attributes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- Deleting the workspace clears the default rather than the user's preferences.
ALTER TABLE "user_attributes" ADD CONSTRAINT "user_attributes_default_image_id_fkey" FOREIGN KEY ("default_image_id") REFERENCES "image"("id") ON DELETE SET NULL ON UPDATE CASCADE;
