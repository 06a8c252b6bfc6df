-- A workspace's file transfer policy (issue 39, files in and out of a session's desktop):
-- whether its users may upload into ~/Uploads and download from ~/Downloads, and the largest
-- upload in bytes (null: no limit). Both are allowed by default, as Kasm's group settings are.

ALTER TABLE "image" ADD COLUMN "allow_uploads" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN "allow_downloads" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN "max_upload_bytes" BIGINT;
ALTER TABLE "image" ADD CONSTRAINT "image_max_upload_bytes_check" CHECK ("max_upload_bytes" > 0);
