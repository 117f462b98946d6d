#!/usr/bin/env bash
# `npm test`: every check Wirespeed has, from a fresh clone.
#   system packages (installed when root on Debian), npm packages, Prisma client,
#   type-check, lint, unit tests, lab tests (real sshd + iperf3 in network
#   namespaces), end-to-end tests (Playwright driving Debian's Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

export NEXT_TELEMETRY_DISABLED=1
results=test-results
mkdir -p "$results"
rm -f "$results"/*.json

step() { printf '\n== %s\n' "$*"; }

# --- 1. System packages --------------------------------------------------------
# command → Debian package that provides it
declare -A providers=(
  [iperf3]=iperf3
  [/usr/sbin/sshd]=openssh-server
  [ssh-keygen]=openssh-client
  [/usr/bin/chromium]=chromium
  [ip]=iproute2
  [tc]=iproute2
  [docker-compose]=docker-compose
  [/usr/sbin/nginx]=nginx-light
  [/bin/busybox]=busybox
  [unshare]=util-linux
  [ping]=iputils-ping
  [/usr/sbin/ethtool]=ethtool
  [promtool]=prometheus
  [/usr/bin/prometheus]=prometheus
  [/usr/lib/postgresql]=postgresql
  [/usr/sbin/mosquitto]=mosquitto
)
missing=()
for cmd in "${!providers[@]}"; do
  if ! command -v "$cmd" >/dev/null 2>&1 && [ ! -x "$cmd" ]; then
    missing+=("${providers[$cmd]}")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    step "installing Debian packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "Missing system packages: ${missing[*]}" >&2
    echo "Install them with: sudo apt-get install -y ${missing[*]}" >&2
    echo "(the lab tests also need root: they create network namespaces)" >&2
    exit 1
  fi
fi

# --- 2. npm packages and the Prisma client -------------------------------------
step "npm packages and Prisma client"
node scripts/setup.mjs

# --- 3. Static checks ----------------------------------------------------------
step "type-check (tsc)"
npx tsc --noEmit
step "lint (eslint, prettier)"
npx eslint --max-warnings=0 .
npx prettier --check . > /dev/null || { npx prettier --list-different .; echo "not formatted: run npm run format" >&2; exit 1; }

# --- 4. Tests ------------------------------------------------------------------
step "unit tests (vitest)"
npx vitest run --project unit --reporter=default --reporter=json --outputFile.json="$results/unit.json"

step "Postgres tests (vitest: the database suites again, on a throwaway Postgres cluster)"
npx vitest run --project postgres --reporter=default --reporter=json --outputFile.json="$results/postgres.json"

step "lab tests (vitest, real sshd and iperf3 in network namespaces)"
npx vitest run --project lab --reporter=default --reporter=json --outputFile.json="$results/lab.json"

step "end-to-end tests (Playwright, /usr/bin/chromium)"
npx playwright test

step "summary"
node scripts/test-summary.mjs "$results"
