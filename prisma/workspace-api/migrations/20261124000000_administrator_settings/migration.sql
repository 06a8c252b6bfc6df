-- Administrator settings: zones, agents and file mappings. Persistent profile paths already live
-- on "image". Runs with search_path set to the service's schema. The CHECK constraints repeat
-- the API's rules so that no writer (settings apply, a hand-written fix) can break them.

CREATE TABLE "zone" (
    "id" UUID NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "proxy_hostname" VARCHAR(255) NOT NULL,
    "proxy_path" VARCHAR(1024) NOT NULL DEFAULT '/',
    "proxy_port" INTEGER NOT NULL DEFAULT 443,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "zone_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "zone_proxy_port_check" CHECK ("proxy_port" BETWEEN 0 AND 65535)
);
CREATE UNIQUE INDEX "zone_name_key" ON "zone"("name");

CREATE TABLE "agent" (
    "id" UUID NOT NULL,
    "hostname" VARCHAR(255) NOT NULL,
    "zone_id" UUID NOT NULL,
    "cores" INTEGER NOT NULL,
    "memory" BIGINT NOT NULL,
    "cores_override" INTEGER NOT NULL DEFAULT 0,
    "memory_override" BIGINT NOT NULL DEFAULT 0,
    "allocated_cores" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "allocated_memory" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "agent_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "agent_resources_check" CHECK (
        "cores" >= 0 AND "memory" >= 0 AND "cores_override" >= 0 AND "memory_override" >= 0
        AND "allocated_cores" >= 0 AND "allocated_memory" >= 0
    )
);
CREATE UNIQUE INDEX "agent_hostname_key" ON "agent"("hostname");
CREATE INDEX "agent_zone_id_idx" ON "agent"("zone_id");
-- A zone with agents cannot be deleted: the agents would lose where their sessions are reached.
ALTER TABLE "agent" ADD CONSTRAINT "agent_zone_id_fkey" FOREIGN KEY ("zone_id") REFERENCES "zone"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE TABLE "file_mapping" (
    "id" UUID NOT NULL,
    "image_id" UUID,
    "group_id" UUID,
    "user_id" UUID,
    "name" VARCHAR(255) NOT NULL,
    "description" VARCHAR(2000) NOT NULL DEFAULT '',
    "destination" VARCHAR(1024) NOT NULL,
    "executable" BOOLEAN NOT NULL DEFAULT false,
    "content" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "file_mapping_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "file_mapping_one_target_check" CHECK (num_nonnulls("image_id", "group_id", "user_id") = 1)
);
-- One mapping per destination and target; each index also serves its foreign key (its column leads).
CREATE UNIQUE INDEX "file_mapping_image_id_destination_key" ON "file_mapping"("image_id", "destination");
CREATE UNIQUE INDEX "file_mapping_group_id_destination_key" ON "file_mapping"("group_id", "destination");
CREATE UNIQUE INDEX "file_mapping_user_id_destination_key" ON "file_mapping"("user_id", "destination");
ALTER TABLE "file_mapping" ADD CONSTRAINT "file_mapping_image_id_fkey" FOREIGN KEY ("image_id") REFERENCES "image"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "file_mapping" ADD CONSTRAINT "file_mapping_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "group"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "file_mapping" ADD CONSTRAINT "file_mapping_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
