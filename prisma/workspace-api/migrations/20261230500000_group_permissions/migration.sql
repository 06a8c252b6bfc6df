-- Groups grant permissions from the API keys' catalogue; a person holds the union of their
-- groups'. The system group Administrators holds global_admin, as in Kasm.

ALTER TABLE "group" ADD COLUMN "permissions" TEXT[] DEFAULT ARRAY[]::TEXT[];

UPDATE "group" SET "permissions" = '{global_admin}'
  WHERE "id" = 'b578d8e3-4b3f-4a4b-8a4f-2d2a4c6bb1a1';
