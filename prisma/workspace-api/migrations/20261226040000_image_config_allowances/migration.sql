-- An administrator's explicit exceptions to the rules a workspace's run_config and exec_config
-- are screened by (a registry never sets them): exec_config steps as root or privileged, and a
-- session server reached over plain HTTP, where the proxy sends the container's password in clear.
-- Existing workspaces get neither.

ALTER TABLE "image" ADD COLUMN "allow_root_exec" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "image" ADD COLUMN "allow_plain_http" BOOLEAN NOT NULL DEFAULT false;
