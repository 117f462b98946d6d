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
# from outside the npm registry. The data dir is a throwaway database for the build only.
ENV NEXT_TELEMETRY_DISABLED=1 \
    CHECKPOINT_DISABLE=1 \
    npm_config_update_notifier=false \
    npm_config_build_from_source=true \
    WIRESPEED_DATA_DIR=/tmp/wirespeed-build

# dependencies first: this layer is reused until package-lock.json changes
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

COPY . .
# the SQLite and Postgres clients (scripts/setup.mjs); migrate before building, as `npm start` does:
# the build then sees a real schema (a throwaway SQLite file)
RUN node scripts/setup.mjs \
 && DATABASE_URL= node_modules/.bin/tsx scripts/migrate.ts \
 && npx next build \
 && rm -rf /tmp/wirespeed-build .next/cache

# --- runtime ---
FROM node:20.20.2-bookworm-slim

# iperf3: tests from the machine Wirespeed runs on; openssh-client: ssh-keygen and ssh by hand
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends iperf3 openssh-client \
 && rm -rf /var/lib/apt/lists/*

RUN groupadd --system --gid 10001 wirespeed \
 && useradd --system --uid 10001 --gid wirespeed --home-dir /home/wirespeed --create-home --shell /usr/sbin/nologin wirespeed \
 && mkdir -m 700 /data \
 && chown wirespeed:wirespeed /data

WORKDIR /app
# The code stays owned by root, so the app cannot change it; only Next's cache is writable.
COPY --from=build /app ./
RUN mkdir -p .next/cache && chown wirespeed:wirespeed .next/cache

# no usage reports and no update checks: the container talks only to the hosts it measures.
# NEXT_MANUAL_SIG_HANDLE: `docker stop`'s SIGTERM is the app's to handle (lib/runs/shutdown.ts:
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
# DATABASE_URL names, checked first), then the server (scripts/server.mjs: Next.js as `next start` serves it, and
# each connection's address); exec makes it PID 1, so `docker stop`'s SIGTERM reaches it.
CMD ["sh", "-c", "node_modules/.bin/tsx scripts/migrate.ts && exec node scripts/server.mjs"]
