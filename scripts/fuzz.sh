#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every libFuzzer target of fuzz/ from its seed corpus: SECONDS each (default 5), or RUNS
# inputs each with --runs RUNS. Builds them first (cmake --preset fuzz: clang, ASan + UBSan,
# coverage on the whole library). With PEGSOL_FUZZ_BUILD=DIR, runs the targets a build already
# holds instead (the sanitize preset's, coverage on the parsing code: what CI runs).
# A crash stops with the failing input in BUILD/findings/TARGET/ and status 1.
# Usage: [PEGSOL_FUZZ_BUILD=build/sanitize] scripts/fuzz.sh [SECONDS] [--runs N]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
seconds=${1:-5}
runs=-1
[ "${2:-}" = --runs ] && runs=$3
build=${PEGSOL_FUZZ_BUILD:-build/fuzz}
if [ -z "${PEGSOL_FUZZ_BUILD:-}" ]; then
  cmake --preset fuzz >/dev/null
  nice -n 5 cmake --build build/fuzz -j2 >/dev/null
fi
# fuzz_one TARGET: runs one target; its verdict on stdout, status 1 on a crash.
fuzz_one() {
  local target=$1
  # fuzz_http is built where the server is: wherever cpp-httplib is installed (CI installs it),
  # so it is skipped only on a machine without it.
  if [ "$target" = http ] && [ ! -x "$build/fuzz/fuzz_$target" ] &&
    ! pkg-config --exists cpp-httplib 2>/dev/null; then
    echo "fuzz_http: not built in $build (no cpp-httplib)"
    return 0
  fi
  [ -x "$build/fuzz/fuzz_$target" ] || { echo "fuzz_$target: not built in $build"; return 1; }
  local work=$build/findings/$target
  mkdir -p "$work/corpus"
  # The seeds are read, new inputs go to the work corpus (the repository's stays small).
  local args=(-max_len=4096 -timeout=60 -rss_limit_mb=2048 -print_final_stats=1
    -artifact_prefix="$work/" "$work/corpus" "fuzz/corpus/$target")
  if [ "$runs" != -1 ]; then args=(-runs="$runs" "${args[@]}"); else args=(-max_total_time="$seconds" "${args[@]}"); fi
  if ! "$build/fuzz/fuzz_$target" "${args[@]}" >"$work/log" 2>&1; then
    echo "fuzz_$target: FAILED ($work/log)"
    grep -E "ERROR|SUMMARY|==[0-9]+==" "$work/log" | head -5
    return 1
  fi
  echo "fuzz_$target: $(grep -E '^stat::number_of_executed_units' "$work/log" | awk '{print $2}') inputs, no crash"
}
# Two targets at a time, one per core; each prints its verdict when it ends.
status=0
pids=()
# http: where the server is built (cpp-httplib found).
for target in drawing game notation spec json_spec api http; do
  if [ "${#pids[@]}" = 2 ]; then
    wait "${pids[0]}" || status=1
    pids=("${pids[1]}")
  fi
  fuzz_one "$target" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit $status
