-- Staging (Kasm's staging configs): per workspace and zone, how many sessions to keep started
-- and unassigned. A staged session is a kasm row with no user yet; a request_kasm for its
-- workspace takes it over. Deleting the config leaves its unassigned sessions for the staging
-- loop to destroy (SET NULL), and sessions already handed to users untouched.

CREATE TABLE "staging_config" (
    "id" UUID NOT NULL,
    "zone_id" UUID NOT NULL,
    "image_id" UUID NOT NULL,
    "num_sessions" INTEGER NOT NULL,
    "expiration_hours" DOUBLE PRECISION NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "staging_config_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "staging_config_zone_id_image_id_key" ON "staging_config"("zone_id", "image_id");
CREATE INDEX "staging_config_image_id_idx" ON "staging_config"("image_id");
ALTER TABLE "staging_config" ADD CONSTRAINT "staging_config_zone_id_fkey" FOREIGN KEY ("zone_id") REFERENCES "zone"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "staging_config" ADD CONSTRAINT "staging_config_image_id_fkey" FOREIGN KEY ("image_id") REFERENCES "image"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "kasm" ALTER COLUMN "user_id" DROP NOT NULL;
ALTER TABLE "kasm" ADD COLUMN "staging_config_id" UUID;
CREATE INDEX "kasm_staging_config_id_status_idx" ON "kasm"("staging_config_id", "status");
ALTER TABLE "kasm" ADD CONSTRAINT "kasm_staging_config_id_fkey" FOREIGN KEY ("staging_config_id") REFERENCES "staging_config"("id") ON DELETE SET NULL ON UPDATE CASCADE;
