-- An administrator's watch of a session (issue 40, docs/sharing.md): sessions.watch is a new
-- permission, given to none (no key or group changes here). A workspace may turn off the notice
-- its sessions' owners see while an administrator watches.

ALTER TABLE "image" ADD COLUMN "watch_notice" BOOLEAN NOT NULL DEFAULT true;
