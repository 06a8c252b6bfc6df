-- get_users sorted by organization pages through (organization, id), as it does through
-- (created_at, id) and username: OFFSET and cursors then walk an index instead of sorting the
-- table. The new index also serves everything the one on organization alone did.
DROP INDEX "user_organization_idx";
CREATE INDEX "user_organization_id_idx" ON "user"("organization", "id");
