-- Sign-in with the organisation's accounts (issue 41): identity providers of a kind (oidc, ldap;
-- saml later), the directory values each maps to groups, and who each provider's subjects are.
-- A provider's settings are its kind's (issuer, client, server, filter...) with secrets only as
-- references to files or environment variables: no secret is ever stored here.

CREATE TABLE "sso_provider" (
    "id" UUID NOT NULL,
    "name" VARCHAR(64) NOT NULL,
    "kind" VARCHAR(16) NOT NULL,
    "display_name" VARCHAR(128) NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "sso_provider_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "sso_provider_name_key" ON "sso_provider"("name");

CREATE TABLE "sso_group_mapping" (
    "provider_id" UUID NOT NULL,
    "group_id" UUID NOT NULL,
    "value" VARCHAR(255) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sso_group_mapping_pkey" PRIMARY KEY ("provider_id","group_id","value")
);
CREATE INDEX "sso_group_mapping_group_id_idx" ON "sso_group_mapping"("group_id");
ALTER TABLE "sso_group_mapping" ADD CONSTRAINT "sso_group_mapping_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "sso_provider"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "sso_group_mapping" ADD CONSTRAINT "sso_group_mapping_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "group"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "sso_identity" (
    "provider_id" UUID NOT NULL,
    "subject" VARCHAR(255) NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "sso_identity_pkey" PRIMARY KEY ("provider_id","subject")
);
CREATE INDEX "sso_identity_user_id_idx" ON "sso_identity"("user_id");
ALTER TABLE "sso_identity" ADD CONSTRAINT "sso_identity_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "sso_provider"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "sso_identity" ADD CONSTRAINT "sso_identity_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
