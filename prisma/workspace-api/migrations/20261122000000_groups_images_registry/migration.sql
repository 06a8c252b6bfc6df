-- Workspace registries and their entries, installed workspaces (images), and the
-- Allowed Workspaces of each group. Runs with search_path set to the service's schema.

CREATE TABLE "registry" (
    "id" UUID NOT NULL,
    "url" VARCHAR(2048) NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "icon" VARCHAR(2048) NOT NULL DEFAULT '',
    "list_url" VARCHAR(2048) NOT NULL DEFAULT '',
    "contact_url" VARCHAR(2048) NOT NULL DEFAULT '',
    "schema_version" VARCHAR(16) NOT NULL,
    "invalid_entries" JSONB NOT NULL DEFAULT '[]',
    "fetched_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "registry_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "registry_url_key" ON "registry"("url");

CREATE TABLE "registry_entry" (
    "id" UUID NOT NULL,
    "registry_id" UUID NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "registry_entry_pkey" PRIMARY KEY ("id")
);
-- Also serves as the index on the foreign key (registry_id leads).
CREATE UNIQUE INDEX "registry_entry_registry_id_name_key" ON "registry_entry"("registry_id", "name");
ALTER TABLE "registry_entry" ADD CONSTRAINT "registry_entry_registry_id_fkey" FOREIGN KEY ("registry_id") REFERENCES "registry"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "image" (
    "id" UUID NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "friendly_name" VARCHAR(255) NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "cores" DOUBLE PRECISION NOT NULL DEFAULT 2,
    "memory" BIGINT NOT NULL DEFAULT 2768000000,
    "gpu_count" INTEGER NOT NULL DEFAULT 0,
    "cpu_allocation_method" VARCHAR(32) NOT NULL DEFAULT 'Inherit',
    "image_src" VARCHAR(2048) NOT NULL DEFAULT '',
    "docker_registry" VARCHAR(2048) NOT NULL DEFAULT '',
    "run_config" JSONB NOT NULL DEFAULT '{}',
    "exec_config" JSONB NOT NULL DEFAULT '{}',
    "volume_mappings" JSONB NOT NULL DEFAULT '{}',
    "architecture" TEXT[],
    "categories" TEXT[],
    "uncompressed_size_mb" INTEGER,
    "persistent_profile_path" VARCHAR(1024) NOT NULL DEFAULT '',
    "notes" TEXT NOT NULL DEFAULT '',
    "registry_id" UUID,
    "registry_entry_name" VARCHAR(255),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "image_pkey" PRIMARY KEY ("id")
);
-- One installed copy per registry entry; also the index on registry_id.
CREATE UNIQUE INDEX "image_registry_id_registry_entry_name_key" ON "image"("registry_id", "registry_entry_name");
CREATE INDEX "image_enabled_idx" ON "image"("enabled");
ALTER TABLE "image" ADD CONSTRAINT "image_registry_id_fkey" FOREIGN KEY ("registry_id") REFERENCES "registry"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "group_image" (
    "group_id" UUID NOT NULL,
    "image_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "group_image_pkey" PRIMARY KEY ("group_id", "image_id")
);
CREATE INDEX "group_image_image_id_idx" ON "group_image"("image_id");
ALTER TABLE "group_image" ADD CONSTRAINT "group_image_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "group"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "group_image" ADD CONSTRAINT "group_image_image_id_fkey" FOREIGN KEY ("image_id") REFERENCES "image"("id") ON DELETE CASCADE ON UPDATE CASCADE;
