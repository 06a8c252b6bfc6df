-- A launch waiting its turn past LAUNCH_QUEUE_ANSWER_MS (issue 38): request_kasm answers its
-- kasm_id at once, and get_kasm_status on any replica answers its place in the queue from here
-- until the session row (same id) replaces it.

CREATE TABLE "launch_wait" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "image_id" UUID NOT NULL,
    "owner" VARCHAR(64) NOT NULL,
    "turn" BIGINT NOT NULL,
    "status" VARCHAR(16) NOT NULL,
    "status_message" VARCHAR(2000) NOT NULL DEFAULT '',
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "launch_wait_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "launch_wait_owner_turn_idx" ON "launch_wait"("owner", "turn");
CREATE INDEX "launch_wait_user_id_idx" ON "launch_wait"("user_id");
CREATE INDEX "launch_wait_image_id_idx" ON "launch_wait"("image_id");
CREATE INDEX "launch_wait_expires_at_idx" ON "launch_wait"("expires_at");
ALTER TABLE "launch_wait" ADD CONSTRAINT "launch_wait_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "launch_wait" ADD CONSTRAINT "launch_wait_image_id_fkey" FOREIGN KEY ("image_id") REFERENCES "image"("id") ON DELETE CASCADE ON UPDATE CASCADE;
