-- The audit trail (model AuditEvent): every write from the API, the console, the settings file
-- or the CLI, and every refused one. Rows are only ever inserted; the actor is copied, not a
-- foreign key, so that an event outlives the key or user that made it. Paging reads newest first
-- by (created_at, id); the filters are by actor, operation and target.

CREATE TABLE "audit_event" (
    "id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_kind" VARCHAR(16) NOT NULL,
    "actor_id" VARCHAR(64),
    "actor_name" VARCHAR(255),
    "channel" VARCHAR(16) NOT NULL,
    "operation" VARCHAR(64) NOT NULL,
    "target_type" VARCHAR(32),
    "target_id" VARCHAR(255),
    "client_ip" VARCHAR(64),
    "user_agent" VARCHAR(512),
    "result" VARCHAR(16) NOT NULL,
    "status" INTEGER,
    "error_code" VARCHAR(64),
    "before" JSONB,
    "after" JSONB,
    CONSTRAINT "audit_event_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "audit_event_created_at_id_idx" ON "audit_event"("created_at", "id");
CREATE INDEX "audit_event_actor_id_created_at_idx" ON "audit_event"("actor_id", "created_at");
CREATE INDEX "audit_event_operation_created_at_idx" ON "audit_event"("operation", "created_at");
CREATE INDEX "audit_event_target_type_target_id_created_at_idx" ON "audit_event"("target_type", "target_id", "created_at");
