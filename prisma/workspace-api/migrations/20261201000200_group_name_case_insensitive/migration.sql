-- Group names are unique whatever their case, as usernames are ("all users" beside "All Users"
-- confused people and settings files). Names that already clash by case keep the first (system
-- groups first, then the oldest); later ones get " (2)", " (3)", ... so that the index can exist.
UPDATE "group" AS g
SET "name" = g."name" || ' (' || n.rank || ')'
FROM (
    SELECT "id", row_number() OVER (
        PARTITION BY lower("name") ORDER BY "is_system" DESC, "created_at", "id"
    ) AS rank
    FROM "group"
) AS n
WHERE n."id" = g."id" AND n.rank > 1;

CREATE UNIQUE INDEX "group_name_lower_key" ON "group"(lower("name"));
