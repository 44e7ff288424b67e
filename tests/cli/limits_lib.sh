# SPDX-License-Identifier: MIT
# The opening shared by limits_test.sh and fewest_limits_test.sh, sourced after `pegsol=$1`: a
# temporary folder, the pass and fail counts, run, below, json, expect and the closing summary.
# shellcheck shell=bash disable=SC2034  # tmp, py, rc, rss and wall are the callers' to read
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Python for the JSON checks: the interpreter itself, found once, without site packages (a version
# manager's shim, such as pyenv's, costs about 0.4 s a start).
py=$(python3 -c 'import sys; print(sys.executable)')
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() {
  echo "FAIL $1"
  [ -s "$tmp/out" ] && head -c 400 "$tmp/out" && echo
  [ -s "$tmp/err" ] && head -c 400 "$tmp/err" && echo
  fail=$((fail + 1))
}
# run LIMIT_KB SECONDS command...: runs under `ulimit -v LIMIT_KB` (0: none) and a timeout; the
# status in $rc, stdout in $tmp/out, stderr in $tmp/err, peak resident KiB in $rss, wall-clock
# seconds in $wall.
run() {
  local kb=$1 secs=$2
  shift 2
  (
    [ "$kb" != 0 ] && ulimit -v "$kb"
    exec /usr/bin/time -f '%M %e' -o "$tmp/rss" timeout -s KILL "$secs" "$@"
  ) >"$tmp/out" 2>"$tmp/err"
  rc=$?
  read -r rss wall < <(tail -1 "$tmp/rss" 2>/dev/null)
  [[ ${rss:-} =~ ^[0-9]+$ ]] || rss=0
  [[ ${wall:-} =~ ^[0-9.]+$ ]] || wall=999
}
# below A B: true when the number A is at most B.
below() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }
# json EXPR: evaluates a Python expression over the one JSON object in $tmp/out (as d).
json() {
  "$py" -S -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" \
    "$tmp/out" 2>/dev/null
}
expect() {  # expect NAME CONDITION...: each condition a shell test
  local name=$1
  shift
  for c in "$@"; do
    if ! eval "$c"; then
      bad "$name: $c (rc=$rc, rss=${rss} KiB)"
      return
    fi
  done
  ok
}
# summary: the counts, and a status of 0 when nothing failed.
summary() {
  echo "$pass passed, $fail failed"
  [ "$fail" = 0 ]
}
