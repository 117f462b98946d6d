# Wirespeed: the built app with iperf3 and the ssh client, run as a non-root user.
#   docker compose up -d          (see docker-compose.yml and the README's Deployment section)
# The database and the key file live in /data: mount a folder there that uid 10001 can write.

# --- build: npm packages (native modules compiled here), Prisma client, next build ---
FROM node:20.20.2-bookworm-slim AS build

# better-sqlite3 and ssh2's optional cpu-features compile with node-gyp
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*

# npm 11 honours package.json's allowScripts: only the listed install scripts run, and
# @prisma/engines does not fetch native engines (the Prisma CLI runs its JS engine).
RUN npm install -g --no-audit --no-fund npm@11.19.1

WORKDIR /app
# build_from_source: native modules compile here instead of fetching prebuilt binaries
# from outside the npm registry; nodedir: node-gyp compiles them against the headers this image
# has in /usr/local/include/node, instead of downloading them from the Node.js download server.
# WIRESPEED_STANDALONE: next build writes Next.js's standalone output (next.config.ts), the server
# with only the packages it loads. The data dir is a throwaway database for the build only.
ENV NEXT_TELEMETRY_DISABLED=1 \
    CHECKPOINT_DISABLE=1 \
    npm_config_update_notifier=false \
    npm_config_build_from_source=true \
    npm_config_nodedir=/usr/local \
    WIRESPEED_STANDALONE=1 \
    WIRESPEED_DATA_DIR=/tmp/wirespeed-build

# dependencies first: this layer is reused until package-lock.json changes
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

COPY . .
# the SQLite and Postgres clients (scripts/setup.mjs); the migration step and the other commands
# compiled to plain JavaScript (deploy/bundle-scripts.mjs), the migration run before building, as
# `npm start` does: the build then sees a real schema (a throwaway SQLite file)
RUN node scripts/setup.mjs \
 && node deploy/bundle-scripts.mjs compiled \
 && DATABASE_URL= node compiled/migrate.js \
 && npx next build \
 && rm -rf /tmp/wirespeed-build

# Next.js's trace copies whole packages; what the server never loads stays out of the image: sharp
# (image optimisation, which no page uses), Prisma's engines for the databases and engine kinds
# Wirespeed does not use (it runs the SQLite and Postgres query compilers), source maps and types.
RUN cd .next/standalone/node_modules \
 && rm -rf @img sharp \
 && cd @prisma/client/runtime \
 && rm -f query_engine_bg.* *cockroachdb* *mysql* *sqlserver* binary.* library.* edge* wasm-* react-native* \
    *.map *.d.ts *.d.mts

# --- runtime ---
FROM node:20.20.2-bookworm-slim

# iperf3: tests from the machine Wirespeed runs on; openssh-client: ssh-keygen and ssh by hand
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends iperf3 openssh-client \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/*

# Nothing here runs npm: the base image's own (older than the build's) goes, rather than linger unused.
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
    /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack

RUN groupadd --system --gid 10001 wirespeed \
 && useradd --system --uid 10001 --gid wirespeed --home-dir /home/wirespeed --create-home --shell /usr/sbin/nologin wirespeed \
 && mkdir -m 700 /data \
 && chown wirespeed:wirespeed /data

WORKDIR /app
# Only what runs: Next.js's standalone output (the server and the production packages it loads,
# no dev dependency, no compiler), its static files, the migrations, and the compiled commands.
# The code stays owned by root, so the app cannot change it; only Next's cache is writable.
COPY --from=build /app/.next/standalone ./
COPY --from=build /app/.next/static ./.next/static
COPY --from=build /app/prisma/migrations ./prisma/migrations
COPY --from=build /app/prisma/postgres/migrations ./prisma/postgres/migrations
COPY --from=build /app/compiled ./scripts
COPY --from=build /app/scripts/server.mjs ./scripts/server.mjs
RUN mkdir -p .next/cache && chown wirespeed:wirespeed .next/cache

# no usage reports and no update checks: the container talks only to the hosts it measures.
# NEXT_MANUAL_SIG_HANDLE: `docker stop`'s SIGTERM is the app's to handle (lib/shutdown.ts:
# the runs under way are stopped and stored, exit within 10 s), not Next.js's, which would not wait for them.
ENV NODE_ENV=production \
    NEXT_MANUAL_SIG_HANDLE=true \
    NEXT_TELEMETRY_DISABLED=1 \
    CHECKPOINT_DISABLE=1 \
    npm_config_update_notifier=false \
    WIRESPEED_DATA_DIR=/data \
    PORT=3000

USER wirespeed
VOLUME ["/data"]
EXPOSE 3000

# Node, not curl: the slim image has no curl. 127.0.0.1, not localhost, which may resolve to ::1 first.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# Migrations at every start (of the SQLite file in /data, or of the Postgres database a postgres://
# DATABASE_URL names, checked first: scripts/migrate.ts compiled), then the server (scripts/server.mjs:
# Next.js as `next start` serves it, and each connection's address); exec makes it PID 1, so
# `docker stop`'s SIGTERM reaches it. The other commands: `docker compose exec wirespeed node scripts/backup.js`.
CMD ["sh", "-c", "node scripts/migrate.js && exec node scripts/server.mjs"]
