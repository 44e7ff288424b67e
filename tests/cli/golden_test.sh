#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Whole outputs of the pegsol command against tests/cli/golden/*.out (see golden/commands.txt).
# Usage: golden_test.sh PEGSOL [--update]
set -u
pegsol=$1 update=${2:-}
dir=$(cd "$(dirname "$0")/golden" && pwd)
normalise() {
  sed -E -e 's/"(seconds|median_seconds)":[-+0-9.eE]+/"\1":0/g' \
    -e 's/"kernels":\{[^}]*\}/"kernels":{}/'
}
pass=0 fail=0
while read -r name args; do
  case $name in '#'* | '') continue ;; esac
  if [[ $name == %* ]]; then
    [ -n "${PEGSOL_SANITIZED:-}" ] && continue
    name=${name#%}
  fi
  # shellcheck disable=SC2086 # the arguments are words
  out=$("$pegsol" $args 2>/dev/null | normalise)
  if [ "$update" = --update ]; then
    printf '%s\n' "$out" >"$dir/$name.out"
  elif [ "$out" = "$(cat "$dir/$name.out")" ]; then
    pass=$((pass + 1))
  else
    echo "FAIL $name: pegsol $args"
    diff <(printf '%s\n' "$out") "$dir/$name.out" | head -c 1500
    fail=$((fail + 1))
  fi
done <"$dir/commands.txt"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
