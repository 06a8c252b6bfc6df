#!/usr/bin/env bash
# Runs once, when the postgres container initialises an empty data volume (the image runs every
# script in /docker-entrypoint-initdb.d then; later password changes need ALTER ROLE).
# One login role per service, each owning only its own schema: a service can change its own
# tables and nothing else, neither the other service's schema nor a new schema of its own.
set -euo pipefail

psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v workspace_role="${WORKSPACE_DB_USER:-workspace}" -v workspace_password="$WORKSPACE_DB_PASSWORD" \
  -v calendar_role="${CALENDAR_DB_USER:-calendar}" -v calendar_password="$CALENDAR_DB_PASSWORD" <<'SQL'
CREATE ROLE :"workspace_role" LOGIN PASSWORD :'workspace_password';
CREATE SCHEMA workspace AUTHORIZATION :"workspace_role";
CREATE ROLE :"calendar_role" LOGIN PASSWORD :'calendar_password';
CREATE SCHEMA calendar AUTHORIZATION :"calendar_role";
SQL
