-- This installation's identity (docs/sessions.md#containers-on-a-shared-engine): the label on the
-- containers and networks it creates, so that its session worker removes only its own orphans on
-- an engine another installation (or another test run) also uses. One row, made here; a restored
-- backup keeps it.

CREATE TABLE "installation" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "installation_pkey" PRIMARY KEY ("id")
);

INSERT INTO "installation" DEFAULT VALUES;
