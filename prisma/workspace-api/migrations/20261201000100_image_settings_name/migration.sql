-- Settings files name installed workspaces; the image name is not unique (one entry installed from
-- two registries), so each workspace gets a settings name of its own, kept for its lifetime: the
-- first installed of each image name keeps that name, later ones become "<name> (2)", "<name> (3)".
ALTER TABLE "image" ADD COLUMN "settings_name" VARCHAR(300);

UPDATE "image" AS i
SET "settings_name" = CASE WHEN n.rank = 1 THEN i."name" ELSE i."name" || ' (' || n.rank || ')' END
FROM (
    SELECT "id", row_number() OVER (PARTITION BY "name" ORDER BY "created_at", "id") AS rank
    FROM "image"
) AS n
WHERE n."id" = i."id";

ALTER TABLE "image" ALTER COLUMN "settings_name" SET NOT NULL;
CREATE UNIQUE INDEX "image_settings_name_key" ON "image"("settings_name");
