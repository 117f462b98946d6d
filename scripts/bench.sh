#!/usr/bin/env bash
# `npm run bench`: every benchmark under bench/ at full size, one after the other, each one's
# output as it prints it, then a line per benchmark and an exit code that is non-zero when any
# could not measure or found a wrong result (a missed goal is printed, not an error).
#   npm run bench                          # all of them
#   npm run bench -- parse metrics         # only these (names of bench/<name>.bench.ts)
#   npm run bench -- --smoke [names]       # the tiny versions `npm test` runs
# The lab's benchmarks (those that bring a lab up through bench/lab-bench.ts) need root: they
# build network namespaces, on lab instance 2 unless WIRESPEED_LAB_INSTANCE says otherwise.
# overview-js needs a production build first (`npm run build`).
set -uo pipefail
cd "$(dirname "$0")/.."

usage() {
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
}

all=()
for file in bench/*.bench.ts; do
  name=${file#bench/}
  all+=("${name%.bench.ts}")
done

smoke=()
names=()
for arg in "$@"; do
  case "$arg" in
    --smoke) smoke=(--smoke) ;;
    -h | --help)
      usage
      exit 0
      ;;
    -*)
      echo "bench: unknown option $arg: the options are --smoke and the names of benchmarks (${all[*]})" >&2
      exit 2
      ;;
    *)
      # bench/parse.bench.ts and parse name the same benchmark.
      name=${arg#bench/}
      name=${name%.bench.ts}
      if [ ! -f "bench/$name.bench.ts" ]; then
        echo "bench: there is no benchmark $arg (bench/$name.bench.ts); the benchmarks are: ${all[*]}" >&2
        exit 2
      fi
      names+=("$name")
      ;;
  esac
done
[ ${#names[@]} -eq 0 ] && names=("${all[@]}")

lab=()
for name in "${names[@]}"; do
  grep -q 'withLabEngine(' "bench/$name.bench.ts" && lab+=("$name")
done
if [ ${#lab[@]} -gt 0 ] && [ "$(id -u)" != 0 ]; then
  others=()
  for name in "${names[@]}"; do
    [[ " ${lab[*]} " == *" $name "* ]] || others+=("$name")
  done
  echo "bench: ${lab[*]} need root: they build the test lab's network namespaces (see testing/lab/README.md)." >&2
  echo "bench: run them as root (sudo npm run bench)${others[*]:+, or only the others: npm run bench -- ${others[*]}}" >&2
  exit 1
fi

failed=()
summary=()
for name in "${names[@]}"; do
  printf '\n== bench/%s.bench.ts %s(%s, load average %s)\n' "$name" "${smoke[*]:+${smoke[*]} }" "$(date -u '+%Y-%m-%d %H:%M UTC')" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
  started=$SECONDS
  node --require ./testing/server-only.cjs --import tsx "bench/$name.bench.ts" "${smoke[@]}"
  code=$?
  took=$((SECONDS - started))
  if [ "$code" -eq 0 ]; then
    summary+=("ok      $name (${took} s)")
  else
    summary+=("FAILED  $name (exit $code after ${took} s)")
    failed+=("$name")
  fi
done

printf '\n== summary%s\n' "${smoke[*]:+ (${smoke[*]})}"
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "bench: ${#failed[@]} of ${#names[@]} could not measure or found a wrong result: ${failed[*]}" >&2
  exit 1
fi
echo "bench: ${#names[@]} of ${#names[@]} ran"
