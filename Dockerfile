# Both services' image; APP names the one to build. From the repository root:
#   docker build --build-arg APP=workspace-api -t workspace-platform/workspace-api .
#   docker build --build-arg APP=calendar-api -t workspace-platform/calendar-api .
# APP has no default: without it, or with another name, the build stops before copying anything
# and says which values it takes.
ARG APP

FROM node:20-bookworm-slim AS base
# tini as PID 1 forwards signals to node and reaps zombies; node itself handles SIGTERM.
RUN apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ARG APP
RUN case "$APP" in workspace-api | calendar-api) ;; *) \
    echo "APP='$APP': build with --build-arg APP=workspace-api or --build-arg APP=calendar-api" >&2 \
    && exit 1 ;; esac
# Every later stage sees APP, and the image keeps it: its CMD names the bundle to start by it.
ENV APP=$APP
# Only the manifests of the workspaces the services need: the dependency layers below stay
# cached until one of them or the lockfile changes. The libs are those either service uses; one
# that APP does not use adds nothing to its image.
COPY package.json package-lock.json .npmrc ./
COPY apps/$APP/package.json apps/$APP/
COPY libs/cli/package.json libs/cli/
COPY libs/db/package.json libs/db/
COPY libs/errors/package.json libs/errors/
COPY libs/http/package.json libs/http/
COPY libs/metrics/package.json libs/metrics/
COPY libs/outbound/package.json libs/outbound/
COPY libs/password-rules/package.json libs/password-rules/
COPY libs/rate-limit/package.json libs/rate-limit/
COPY libs/schemas/package.json libs/schemas/
COPY libs/secrets/package.json libs/secrets/
COPY libs/tracing/package.json libs/tracing/
COPY libs/worker-loop/package.json libs/worker-loop/

FROM base AS build
# No install script runs: some (Prisma's engines) would download binaries from outside the npm
# registry, and none is needed — bcrypt and esbuild ship theirs inside their packages.
RUN npm ci --ignore-scripts
COPY tsconfig.base.json ./
COPY tools/build-app.mjs tools/
COPY libs libs
COPY prisma/$APP prisma/$APP
COPY apps/$APP apps/$APP
RUN npm run prisma-generate -w @platform/$APP && node tools/build-app.mjs $APP
# A service's repeatable SQL (prisma/$APP/functions); an empty folder for one that has none.
RUN mkdir -p prisma/$APP/functions

FROM base AS runtime
# Source maps ship with the bundle: stack traces in the logs then name the TypeScript sources.
ENV NODE_ENV=production NODE_OPTIONS=--enable-source-maps
# npm packages stay external to the bundle: install this service's locked production dependencies only.
# --omit=optional also leaves out @prisma/client's optional peers (the Prisma CLI, TypeScript),
# some 250 MB that nothing needs at run time.
# @prisma/client ships a query compiler for every database it supports (some 60 MB); the
# generated client loads PostgreSQL's small one only, so the others go.
# The bundle is CommonJS: OpenTelemetry's ES module builds (most of its 28 MB) are never loaded,
# and no package's type declarations or source maps are, so they go too.
RUN npm ci --omit=dev --omit=optional --ignore-scripts --workspace @platform/$APP \
  && npm cache clean --force \
  && find node_modules/@prisma/client/runtime -name 'query_compiler_*' \
    ! -name 'query_compiler_small_bg.postgresql.*' -delete \
  && rm -rf node_modules/@opentelemetry/*/build/esm node_modules/@opentelemetry/*/build/esnext \
  && find node_modules/@opentelemetry -type f -name '*.mjs' -delete \
  && find node_modules -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \
    -o -name '*.map' \) -delete
# The CLI finds its migrations at ../../../prisma/$APP/migrations from dist/, and the SQL
# functions files it applies after them in the functions folder beside.
COPY prisma/$APP/migrations prisma/$APP/migrations
COPY --from=build /app/prisma/$APP/functions prisma/$APP/functions
COPY --from=build /app/apps/$APP/dist apps/$APP/dist
# The node image's user, by number so Kubernetes can verify runAsNonRoot.
USER 1000:1000
ENTRYPOINT ["/usr/bin/tini", "--"]
# Shell form, for $APP; exec replaces the shell, so node is tini's child and gets its signals.
CMD exec node apps/$APP/dist/server.js

# The port each service listens on unless PORT says otherwise (its config's default). A build
# argument cannot choose a value, but it can choose a stage: the last one starts from APP's.
# (BuildKit resolves every FROM before it runs a step: there, a wrong APP stops the build as a
# missing image runtime-<APP>, before the check above.)
# A service's Node flags are its NODE_OPTIONS: tools/services.cjs's nodeFlags, which npm start
# and the bench give too (tools/test/service-node-flags.test.ts).
FROM runtime AS runtime-workspace-api
ENV PORT=3001 NODE_OPTIONS=--max-semi-space-size=4
FROM runtime AS runtime-calendar-api
ENV PORT=3002

FROM runtime-$APP
EXPOSE $PORT
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
