-- SAML sign-in (issue 41): the IDs of the assertions each SAML provider has vouched with, kept
-- until the assertion expires, so that an assertion seen once is refused when it comes again.

CREATE TABLE "sso_saml_assertion" (
    "provider_id" UUID NOT NULL,
    "assertion_id" VARCHAR(255) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sso_saml_assertion_pkey" PRIMARY KEY ("provider_id","assertion_id")
);
CREATE INDEX "sso_saml_assertion_expires_at_idx" ON "sso_saml_assertion"("expires_at");
ALTER TABLE "sso_saml_assertion" ADD CONSTRAINT "sso_saml_assertion_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "sso_provider"("id") ON DELETE CASCADE ON UPDATE CASCADE;
