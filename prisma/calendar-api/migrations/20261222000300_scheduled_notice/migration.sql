-- Digests and reminders: one claim per (kind, target, occurrence), taken in the transaction
-- that writes the notification to the outbox. The unique index makes the claim, so with several
-- replicas, and across restarts, each target gets each digest and reminder once.

CREATE TABLE "scheduled_notice" (
    "id" SERIAL NOT NULL,
    "kind" VARCHAR(16) NOT NULL,
    "target" VARCHAR(64) NOT NULL,
    "occurrence" VARCHAR(64) NOT NULL,
    "sent" BOOLEAN NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "scheduled_notice_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "scheduled_notice_kind_check" CHECK ("kind" IN ('digest', 'reminder'))
);
CREATE UNIQUE INDEX "scheduled_notice_kind_target_occurrence_key" ON "scheduled_notice"("kind", "target", "occurrence");
