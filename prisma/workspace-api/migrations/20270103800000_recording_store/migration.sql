-- Recordings moved to an S3-compatible store once they end (issue 42; docs/recording.md#storage):
-- where each one is, the SHA-256 of its bytes (checked against the object read back), and the
-- failed uploads that keep it in RECORDINGS_DIR until the next try.

ALTER TABLE "recording" ADD COLUMN "store_bucket" VARCHAR(255);
ALTER TABLE "recording" ADD COLUMN "store_key" VARCHAR(1024);
ALTER TABLE "recording" ADD COLUMN "sha256" CHAR(64);
ALTER TABLE "recording" ADD COLUMN "uploaded_at" TIMESTAMPTZ(3);
ALTER TABLE "recording" ADD COLUMN "upload_attempts" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "recording" ADD COLUMN "upload_error" VARCHAR(2000);
ALTER TABLE "recording" ADD COLUMN "upload_after" TIMESTAMPTZ(3);

CREATE INDEX "recording_uploaded_at_upload_after_idx" ON "recording"("uploaded_at", "upload_after");
