-- Clipboard policy (issue 39): a workspace allows clipboard text from the browser into the
-- desktop (up) and out of it (down), each true by default, and caps a text's size in bytes
-- (null: no limit). Groups may further refuse clipboard and file transfers: a member's right is
-- the workspace's AND no group of theirs refusing it (Kasm's group settings keep these names).

ALTER TABLE "image" ADD COLUMN "allow_clipboard_up" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN "allow_clipboard_down" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN "max_clipboard_bytes" INTEGER;
ALTER TABLE "image" ADD CONSTRAINT "image_max_clipboard_bytes_check" CHECK ("max_clipboard_bytes" > 0);

ALTER TABLE "group" ADD COLUMN "allow_clipboard_up" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN "allow_clipboard_down" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN "allow_uploads" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN "allow_downloads" BOOLEAN NOT NULL DEFAULT true;
