-- Proxy grants get a lifetime (SESSION_GRANT_TTL_SECONDS, never past the session's time limit).
-- Grants issued before this migration keep 12 hours from their creation, the default lifetime.
ALTER TABLE "kasm_grant" ADD COLUMN "expires_at" TIMESTAMPTZ(3);
UPDATE "kasm_grant" SET "expires_at" = "created_at" + INTERVAL '12 hours';
ALTER TABLE "kasm_grant" ALTER COLUMN "expires_at" SET NOT NULL;
CREATE INDEX "kasm_grant_expires_at_idx" ON "kasm_grant"("expires_at");
