#!/bin/bash
# The part of the postgres image's entrypoint contract docker-compose.yml relies on: an empty
# PGDATA is initialised with POSTGRES_USER (default postgres) and POSTGRES_PASSWORD, POSTGRES_DB
# is created, every /docker-entrypoint-initdb.d/*.sh (run, or sourced when not executable) and
# *.sql runs while the server listens on its Unix socket only; then the server starts for real,
# as the postgres user, listening on every address with password authentication.
set -Eeuo pipefail

if [ "$1" = postgres ] && [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA"
  chown postgres:postgres "$PGDATA"
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

if [ "$1" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?the database is uninitialised: set POSTGRES_PASSWORD}"
  export POSTGRES_USER="${POSTGRES_USER:-postgres}"
  export POSTGRES_DB="${POSTGRES_DB:-$POSTGRES_USER}"
  initdb --username="$POSTGRES_USER" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") \
    --auth-local=trust --auth-host=scram-sha-256 -D "$PGDATA"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
  echo 'host all all all scram-sha-256' >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start
  if [ "$POSTGRES_DB" != postgres ]; then
    psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$POSTGRES_USER" --dbname postgres \
      --set db="$POSTGRES_DB" <<< 'CREATE DATABASE :"db";'
  fi
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sh) if [ -x "$f" ]; then "$f"; else . "$f"; fi ;;
      *.sql) psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$POSTGRES_USER" \
        --dbname "$POSTGRES_DB" -f "$f" ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop
fi

exec "$@"
