#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The English census (d4 -> d4, no distinct count, no random player) with each census kernel tier
# of the default build, and with a -march=native build if one is given: runs alternate between
# the variants, and the medians of wall time, user time and peak RSS are printed (docs/kernels.md).
# usage: scripts/bench-kernels.sh [RUNS] [NATIVE_PEGSOL] [THREADS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
native=${2:-}
threads=${3:-2}
pegsol=build/release/pegsol
variants=(auto avx2 portable)
[ -n "$native" ] && variants+=(native)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=(count --board english --no-distinct --no-random-player --threads "$threads")
for ((r = 0; r < runs; ++r)); do
  for v in "${variants[@]}"; do
    if [ "$v" = native ]; then
      /usr/bin/time -f "%e %U %M" -a -o "$tmp/$v" "$native" "${args[@]}" >/dev/null
    else
      PEGSOL_KERNELS=$v /usr/bin/time -f "%e %U %M" -a -o "$tmp/$v" "$pegsol" "${args[@]}" >/dev/null
    fi
  done
done
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
echo "English census, $threads threads, medians of $runs alternating runs ($(date -u +%F), $(git rev-parse --short HEAD))"
printf '%-10s %10s %10s %10s\n' variant wall_s user_s peak_MB
for v in "${variants[@]}"; do
  label=$v
  [ "$v" = auto ] && label="auto:$(PEGSOL_KERNELS=auto "$pegsol" --version | sed -n 's/census kernels: \([a-z0-9]*\).*/\1/p')"
  printf '%-10s %10s %10s %10s\n' "$label" "$(cut -d' ' -f1 "$tmp/$v" | median)" \
    "$(cut -d' ' -f2 "$tmp/$v" | median)" "$(cut -d' ' -f3 "$tmp/$v" | median | awk '{printf "%.0f", $1 / 1024}')"
done
