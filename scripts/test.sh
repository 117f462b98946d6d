#!/usr/bin/env bash
# `npm test`: every check Wirespeed has, from a fresh clone.
#   system packages (installed when root on Debian), npm packages, Prisma client,
#   type-check, lint, unit tests, lab tests (real sshd + iperf3 in network
#   namespaces), end-to-end tests (Playwright driving Debian's Chromium).
# `scripts/test.sh --missing-packages` only lists the Debian packages that are missing, one a line.
set -euo pipefail
cd "$(dirname "$0")/.."

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
  [/usr/sbin/mosquitto]=mosquitto
)
missing=()
for cmd in "${!providers[@]}"; do
  if ! command -v "$cmd" >/dev/null 2>&1 && [ ! -x "$cmd" ]; then
    missing+=("${providers[$cmd]}")
  fi
done
# The Postgres server: Debian keeps initdb under /usr/lib/postgresql/<version>/bin, off the PATH.
# That folder alone is no proof, since the client package (psql) makes it too.
# (WIRESPEED_POSTGRES_LIB points the check elsewhere, for scripts/test-script.test.ts.)
if ! compgen -G "${WIRESPEED_POSTGRES_LIB:-/usr/lib/postgresql}/*/bin/initdb" >/dev/null; then
  missing+=(postgresql)
fi
if [ ${#missing[@]} -gt 0 ]; then
  mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
fi
if [ "${1:-}" = --missing-packages ]; then
  [ ${#missing[@]} -eq 0 ] || printf '%s\n' "${missing[@]}"
  exit 0
fi
if [ ${#missing[@]} -gt 0 ]; then
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
# Two phases of two suites each, side by side: the unit tests with the Postgres tests (a cluster of
# their own), then the lab tests with the end-to-end tests, each on a lab of its own
# (WIRESPEED_LAB_INSTANCE, testing/lab/README.md): both mostly wait on iperf3's seconds and on the
# pages. The suite in the background writes to test-results/<name>.log, shown when it ends. A failed
# suite does not stop the others: every report counts in the closing line.
export NEXT_TELEMETRY_DISABLED=1
results=test-results
mkdir -p "$results"
rm -f "$results"/*.json "$results"/*.log
# Three labs at once: the lab tests', the one their benchmarks' smoke runs build beside it
# (bench/smoke.lab.test.ts) and the end-to-end tests'. Bringing a lab up tears down what its instance had.
other_instance() { # the first instance from 1 to 7 that is none of the arguments
  local instance
  for instance in 1 2 3 4 5 6 7; do
    case " $* " in *" $instance "*) ;; *)
      echo "$instance"
      return
      ;;
    esac
  done
}
lab_instance=${WIRESPEED_LAB_INSTANCE:-0}
bench_lab_instance=${WIRESPEED_BENCH_LAB_INSTANCE:-$(other_instance "$lab_instance")}
e2e_lab_instance=${WIRESPEED_E2E_LAB_INSTANCE:-$(other_instance "$lab_instance" "$bench_lab_instance")}
if [ "$(printf '%s\n' "$lab_instance" "$bench_lab_instance" "$e2e_lab_instance" | sort -u | wc -l)" != 3 ]; then
  echo "WIRESPEED_LAB_INSTANCE ($lab_instance), WIRESPEED_BENCH_LAB_INSTANCE ($bench_lab_instance) and WIRESPEED_E2E_LAB_INSTANCE ($e2e_lab_instance) must differ: two suites would share one lab" >&2
  exit 1
fi
failed=()

# vitest_project PROJECT [REPORT [ARGUMENTS…]]: one vitest project, its JSON report in $results/REPORT.json.
vitest_project() {
  local project=$1 report=${2:-$1}
  shift $(($# < 2 ? $# : 2))
  npx vitest run --project "$project" --reporter=default --reporter=json --outputFile.json="$results/$report.json" "$@"
}

# side_by_side NAME COMMAND… -- NAME COMMAND…: the first in the background, the second in the foreground.
side_by_side() {
  local background=$1 foreground pid
  shift
  local command=()
  while [ "$1" != -- ]; do
    command+=("$1")
    shift
  done
  shift
  foreground=$1
  shift
  # WIRESPEED_TESTS_ONE_AT_A_TIME=1: one suite after the other, for a machine busy with other work,
  # where the lab's iperf3 would not get the CPU its rates need beside the browser.
  if [ "${WIRESPEED_TESTS_ONE_AT_A_TIME:-}" = 1 ]; then
    "${command[@]}" || failed+=("$background")
    "$@" || failed+=("$foreground")
    return
  fi
  "${command[@]}" >"$results/$background.log" 2>&1 &
  pid=$!
  echo "($background runs beside it: $results/$background.log)"
  "$@" || failed+=("$foreground")
  wait "$pid" || failed+=("$background")
  step "$background (its log)"
  cat "$results/$background.log"
}

# The app under test is built in the first phase, after the Postgres tests and beside the unit tests,
# none of which measures a rate: a build beside the lab tests took the CPU their iperf3 needs for its
# line rates. (Playwright's wait for the server, 10 min, is for the start alone: a build on a loaded
# 2-core machine took longer than that.)
e2e_port=${WIRESPEED_E2E_PORT:-3100}
e2e_dist_dir=.next
[ "$e2e_port" = 3100 ] || e2e_dist_dir=.next-e2e-$e2e_port # as e2e/api.ts distDirFor
build_for_e2e() {
  echo "building the app for the end-to-end tests (next build, $e2e_dist_dir)"
  WIRESPEED_DIST_DIR=$e2e_dist_dir npx next build
}
# The benchmarks' smoke runs (bench/smoke.lab.test.ts) check that each bench runs and prints its figures,
# not what the figures are; each brings a lab of its own up and down, which must not happen beside the
# browser (below), so they run here.
smoke_benches() {
  WIRESPEED_LAB_INSTANCE=$lab_instance WIRESPEED_BENCH_LAB_INSTANCE=$bench_lab_instance \
    vitest_project lab lab-bench bench/smoke.lab.test.ts
}
# postgres_build_benches: the Postgres tests, the build, the benchmarks' smoke runs; fails when any did.
postgres_build_benches() {
  local status=0
  vitest_project postgres || status=1
  build_for_e2e || status=1
  smoke_benches || status=1
  return $status
}

step "unit tests (vitest), and beside them the Postgres tests (the database suites again, on a throwaway Postgres cluster), the build of the app for the end-to-end tests and the benchmarks' smoke runs"
side_by_side postgres+build+benches postgres_build_benches -- unit vitest_project unit
e2e() { WIRESPEED_LAB_INSTANCE=$e2e_lab_instance npx playwright test; }

# Beside the browser, only the lab tests that measure no rate: a test that wants a link's line rate, a
# UDP ceiling or four streams' sum does not get the CPU its iperf3 needs beside Chromium and the app
# (on 2 cores: 1.93 of 2.5 Gbit/s, a UDP ceiling of 578 Mbit/s on 1 Gbit/s). The others run after,
# alone; so does any new lab file until it is listed here.
LAB_BESIDE_BROWSER=(
  agents/environment.lab.test.ts
  agents/esxi.lab.test.ts
  agents/linux.lab.test.ts
  app/api/hosts/hosts.lab.test.ts
  lib/api/hostile-input.lab.test.ts
  lib/backup.lab.test.ts
  lib/imports/imports.lab.test.ts
  lib/instances/instances.lab.test.ts
  lib/ssh/ssh.lab.test.ts
)
# Chromium fails the requests in flight with net::ERR_NETWORK_CHANGED when an interface comes or goes
# on the machine, as a lab's veths do when it goes up or down: beside the browser the lab tests keep
# their lab up (the benchmarks' smoke runs, which bring labs up and down, ran above).
lab_files_alone() {
  find . -path ./node_modules -prune -o -name '*.lab.test.ts' -print | sed 's|^\./||' | sort |
    grep -vxF -e bench/smoke.lab.test.ts "${LAB_BESIDE_BROWSER[@]/#/-e}" | tr '\n' ' '
}
step "end-to-end tests (Playwright, /usr/bin/chromium; lab instance $e2e_lab_instance), and beside them the lab tests that measure no rate (vitest, real sshd and iperf3 in network namespaces; lab instance $lab_instance)"
side_by_side lab-beside env WIRESPEED_LAB_INSTANCE="$lab_instance" WIRESPEED_LAB_KEEP=1 \
  bash -c "$(declare -f vitest_project); results=$results; vitest_project lab lab-beside ${LAB_BESIDE_BROWSER[*]}" -- \
  e2e e2e

step "the other lab tests, alone (vitest; lab instance $lab_instance)"
# shellcheck disable=SC2046 # one argument a file
WIRESPEED_LAB_INSTANCE=$lab_instance vitest_project lab lab $(lab_files_alone) || failed+=(lab)

step "summary"
[ ${#failed[@]} -eq 0 ] || echo "failed: ${failed[*]}"
node scripts/test-summary.mjs "$results" && [ ${#failed[@]} -eq 0 ]
