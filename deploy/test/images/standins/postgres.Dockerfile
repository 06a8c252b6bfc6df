# Stand-in for postgres:15 when no registry can be reached: Debian's PostgreSQL 15 behind an
# entrypoint with the official image's contract (see postgres-entrypoint.sh).
FROM platform-test/standin-debian:bookworm
COPY slim/apt.conf.d/ /etc/apt/apt.conf.d/
COPY slim/dpkg.cfg.d/ /etc/dpkg/dpkg.cfg.d/
# The package would create a cluster of its own; the entrypoint creates the only one, in PGDATA.
RUN mkdir -p /etc/postgresql-common \
  && echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.conf \
  && apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    -o Dpkg::Options::=--force-confold postgresql-15 \
  && rm -rf /var/lib/apt/lists/*
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
RUN mkdir -p /var/run/postgresql /docker-entrypoint-initdb.d "$PGDATA" \
  && chown -R postgres:postgres /var/run/postgresql /var/lib/postgresql \
  && chmod 3777 /var/run/postgresql
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
VOLUME /var/lib/postgresql/data
ENTRYPOINT ["docker-entrypoint.sh"]
STOPSIGNAL SIGINT
EXPOSE 5432
CMD ["postgres"]
