-- Sessions: agents become Docker engines with a heartbeat, and a session ("kasm") is a container
-- started from a workspace on an agent. Runs with search_path set to the service's schema.

ALTER TABLE "group" ADD COLUMN "max_kasms_per_user" INTEGER,
    ADD CONSTRAINT "group_max_kasms_per_user_check" CHECK ("max_kasms_per_user" >= 0);

ALTER TABLE "agent" ADD COLUMN "docker_url" VARCHAR(2048) NOT NULL DEFAULT '',
    ADD COLUMN "tls_ca_path" VARCHAR(1024) NOT NULL DEFAULT '',
    ADD COLUMN "tls_cert_path" VARCHAR(1024) NOT NULL DEFAULT '',
    ADD COLUMN "tls_key_path" VARCHAR(1024) NOT NULL DEFAULT '',
    ADD COLUMN "status" VARCHAR(16) NOT NULL DEFAULT 'unknown',
    ADD COLUMN "status_reason" VARCHAR(2000) NOT NULL DEFAULT '',
    ADD COLUMN "heartbeat_at" TIMESTAMPTZ(3),
    ADD CONSTRAINT "agent_status_check" CHECK ("status" IN ('unknown', 'online', 'offline'));
CREATE INDEX "agent_heartbeat_at_idx" ON "agent"("heartbeat_at");

CREATE TABLE "kasm" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "image_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "status" VARCHAR(16) NOT NULL,
    "status_message" VARCHAR(2000) NOT NULL DEFAULT '',
    "cores" DOUBLE PRECISION NOT NULL,
    "memory" BIGINT NOT NULL,
    "plan" JSONB NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "container_secret" VARCHAR(64) NOT NULL,
    "container_id" VARCHAR(128),
    "host_port" INTEGER,
    "lease_owner" VARCHAR(64),
    "lease_until" TIMESTAMPTZ(3),
    "started_at" TIMESTAMPTZ(3),
    "keepalive_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "hard_expires_at" TIMESTAMPTZ(3) NOT NULL,
    "stopped_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "kasm_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "kasm_status_check" CHECK (
        "status" IN ('requested', 'provisioning', 'starting', 'running', 'stopping', 'stopped', 'error')
    ),
    CONSTRAINT "kasm_resources_check" CHECK ("cores" >= 0 AND "memory" >= 0)
);
CREATE INDEX "kasm_user_id_status_idx" ON "kasm"("user_id", "status");
CREATE INDEX "kasm_agent_id_status_idx" ON "kasm"("agent_id", "status");
CREATE INDEX "kasm_image_id_idx" ON "kasm"("image_id");
CREATE INDEX "kasm_status_expires_at_idx" ON "kasm"("status", "expires_at");
CREATE INDEX "kasm_status_lease_until_idx" ON "kasm"("status", "lease_until");
ALTER TABLE "kasm" ADD CONSTRAINT "kasm_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "kasm" ADD CONSTRAINT "kasm_image_id_fkey" FOREIGN KEY ("image_id") REFERENCES "image"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "kasm" ADD CONSTRAINT "kasm_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "kasm_grant" (
    "id" UUID NOT NULL,
    "kasm_id" UUID NOT NULL,
    "secret_hash" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "kasm_grant_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "kasm_grant_kasm_id_idx" ON "kasm_grant"("kasm_id");
ALTER TABLE "kasm_grant" ADD CONSTRAINT "kasm_grant_kasm_id_fkey" FOREIGN KEY ("kasm_id") REFERENCES "kasm"("id") ON DELETE CASCADE ON UPDATE CASCADE;
