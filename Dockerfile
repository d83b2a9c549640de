# syntax=docker/dockerfile:1
# The gateway (and, with another command, the job worker) as a container image: Node 24, production
# dependencies only, running as the unprivileged `node` user, with a health check on /v1/health.
#   docker build -t store-intelligence .
#   docker run -e DATABASE_URL=… -e REDIS_URL=… -e MONGODB_URL=… -p 8080:8080 store-intelligence
#   docker run … store-intelligence node --import tsx app/worker.ts        # a job worker
# Written to be conventional; it was not built here (no container engine on the machines this
# project is developed on). compose.yaml runs the whole stack.

ARG NODE_IMAGE=node:24-bookworm-slim

# 1. production dependencies, and the Prisma client generated from the schema (npm ci runs the
#    package's postinstall, scripts/prisma-generate.mjs, which needs no network)
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json prisma.config.ts ./
# the workspace (the typed client) must be known to npm ci (it brings openapi-fetch, nothing the service loads)
COPY clients/typescript/package.json ./clients/typescript/
COPY prisma ./prisma
COPY scripts ./scripts
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# 2. the runtime: sources (run by tsx, a production dependency), the generated client, reference data
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    LOG_FORMAT=json \
    CHROMIUM_PATH=""
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --chown=node:node package.json package-lock.json tsconfig.json prisma.config.ts ./
COPY --chown=node:node prisma ./prisma
COPY --chown=node:node data ./data
COPY --chown=node:node schema ./schema
COPY --chown=node:node app ./app
COPY --chown=node:node rest ./rest
COPY --chown=node:node src ./src
COPY --from=deps --chown=node:node /app/src/generated ./src/generated
# tini as PID 1: it forwards signals to node and reaps the processes node leaves behind (the
# embedded PostgreSQL's postmaster is daemonized by pg_ctl; with node as PID 1 a dead one would
# stay a zombie).
RUN apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/*
ENTRYPOINT ["/usr/bin/tini", "--"]
USER node
EXPOSE 8080
# the service answers 503 while PostgreSQL is unreachable and 200 (ok or degraded) otherwise
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself (not npm) under tini: SIGTERM reaches the service, which drains
CMD ["node", "--import", "tsx", "app/main.ts"]
