#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The fewest-moves searches under --memory-limit (issue 44 case 11) and their checkpoints, end to end.
# Peak resident memory is measured by /usr/bin/time and must stay within the limit plus a small
# margin for the allocator; a memory stop keeps the best solution found and the proven bound. A
# run killed with SIGKILL goes on with --resume to the uninterrupted run's answer. Every run is
# bounded by `timeout`.
# Usage: fewest_limits_test.sh PEGSOL
set -u
pegsol=$1
# shellcheck source=tests/cli/limits_lib.sh
. "$(dirname "$0")/limits_lib.sh"
# within MIB: the peak resident memory is at most MIB MiB plus 4 MiB for the allocator.
within() { [ "$rss" -le $((($1 + 4) * 1024)) ]; }
# No case depends on the machine's load: a memory stop comes after the same work however slowly it
# runs, so the time limit beside it (and the `timeout` around every run) only ends a run that hangs.
guard=900
# bounded ARGS...: `pegsol ARGS --json` with that guard.
bounded() { run 0 $((guard + 60)) "$pegsol" "$@" --time-limit "$guard" --json; }

# 1. Memory stops within the limit, with the proven bound and the best solution kept (fewest's
#    JSON has them under "minimize", solve's too).
stopped_by_memory='json "d[\"stop\"]==\"memory\" and d[\"minimize\"][\"lower_bound\"] > 0 and d[\"minimize\"][\"moves\"] is not None and d[\"minimize\"][\"moves\"] >= d[\"minimize\"][\"lower_bound\"]"'
bounded fewest -b triangle:9 --memory-limit 200
expect fewest-triangle9-200 '[ $rc = 4 ]' "$stopped_by_memory" 'within 200'
bounded fewest -b wiegleb --memory-limit 150
expect fewest-wiegleb-150 '[ $rc = 4 ]' "$stopped_by_memory" 'within 150'
bounded solve -b french --minimize moves --memory-limit 300
expect solve-french-300 '[ $rc = 4 ]' "$stopped_by_memory" 'within 300'
bounded fewest -b triangle:9 --split --memory-limit 60
expect fewest-split-triangle9-60 '[ $rc = 4 ]' 'json "d[\"minimize\"][\"lower_bound\"] > 0"' 'within 60'
bounded table -b english --minimize moves --memory-limit 100
expect table-english-100 '[ $rc = 4 ]' 'json "d[\"stop\"]==\"memory\""' 'within 100'

# 2. Past the memory limit, levels go to disk (--spill-dir) with the same answer: the triangle:7
#    board minimum (12 moves, 0.3 GB in memory) under 40 MB, and its files are gone after.
mkdir -p "$tmp/spill"
run 0 600 "$pegsol" fewest -b triangle:7 --memory-limit 40 --spill-dir "$tmp/spill" --json
expect fewest-triangle7-spilled '[ $rc = 0 ]' 'json "d[\"fewest\"]==12 and d[\"proven\"]"' \
  'within 40' '[ -z "$(ls -A "$tmp/spill")" ]'

# 3. Checkpoints: a run killed with SIGKILL part way goes on with --resume to the answer of a run
#    that was never stopped; the state file is whole at any moment. Each is killed at a point of
#    its work (a line of its state), not of the clock.
# kill_at DIR PATTERN COMMAND...: runs COMMAND in the background and kills it with SIGKILL once
# DIR/fewest.state has a line matching PATTERN (or once it has ended by itself); its status in
# $killed, and had_state=yes when the state had the line. SIG=TERM kills with SIGTERM instead.
kill_at() {
  local dir=$1 pattern=$2 pid
  shift 2
  "$@" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 6000); do
    grep -qE "$pattern" "$dir/fewest.state" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  # shellcheck disable=SC2034  # had_state and killed are read by expect's eval
  if grep -qE "$pattern" "$dir/fewest.state" 2>/dev/null; then had_state=yes; else had_state=no; fi
  kill -"${SIG:-KILL}" "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  # shellcheck disable=SC2034
  killed=$?
}
run 0 300 "$pegsol" fewest -b triangle:7 --json
expect fewest-triangle7 '[ $rc = 0 ]' 'json "d[\"fewest\"]==12 and d[\"proven\"]"'
# Killed once the passes have proven 11 (in the last pass, at limit 11, or, split, in the last
# pairs' searches).
for split in "" --split; do
  ck="$tmp/ck$split"
  kill_at "$ck" '^floor 11$' "$pegsol" fewest -b triangle:7 $split --checkpoint "$ck" \
    --checkpoint-seconds 0 --json
  run 0 300 "$pegsol" fewest -b triangle:7 $split --resume "$ck" --json
  expect "fewest-triangle7-killed$split-resumed" '[ $had_state = yes ]' \
    '[ $killed = 137 ] || [ $killed = 0 ]' '[ $rc = 0 ]' \
    'json "d[\"fewest\"]==12 and d[\"proven\"]"' '[ -s "$ck/fewest.state" ]'
done
# The same for one problem, `solve --minimize moves`: the English central game killed with
# SIGKILL once its first state is written (a state after every level) and resumed to 18 moves,
# proven.
ck="$tmp/ck-solve"
kill_at "$ck" '^floor ' "$pegsol" solve -b english --minimize moves --checkpoint "$ck" \
  --checkpoint-seconds 0 --json
run 0 300 "$pegsol" solve -b english --minimize moves --resume "$ck" --json
expect solve-english-killed-resumed '[ $had_state = yes ]' '[ $killed = 137 ] || [ $killed = 0 ]' \
  '[ $rc = 0 ]' 'json "d[\"minimize\"][\"moves\"]==18 and d[\"minimize\"][\"proven\"]"'
# A pass saved part way with its levels on disk (--spill-dir) resumes with them read in place:
# before, the resume read them back into memory, and a budget smaller than the two levels in
# tables (32 MB here, with the state at forward 16 pegs, backward 9) stopped it by memory.
ck="$tmp/ck-spilled"
kill_at "$ck" '^pass 11 1[0-6] ([89]|1[0-9]) ' "$pegsol" fewest -b triangle:7 --memory-limit 40 \
  --spill-dir "$tmp/spill" --checkpoint "$ck" --checkpoint-seconds 0 --fewest-beam 0 --json
run 0 600 "$pegsol" fewest -b triangle:7 --memory-limit 32 --spill-dir "$tmp/spill" \
  --resume "$ck" --checkpoint-seconds 0 --fewest-beam 0 --json
expect fewest-triangle7-spilled-killed-resumed '[ $had_state = yes ]' '[ $rc = 0 ]' \
  'json "d[\"fewest\"]==12 and d[\"proven\"]"' 'within 32' '[ -z "$(ls -A "$tmp/spill")" ]'
# Killed inside a level's making (a state naming a level part made, its `making` line), with
# SIGKILL and with SIGTERM, and resumed at the level's next group of shards: the answer of the run
# never stopped, and no level file left at the end.
for sig in KILL TERM; do
  ck="$tmp/ck-inside-$sig"
  SIG=$sig kill_at "$ck" '^making ' "$pegsol" fewest -b triangle:7 --memory-limit 40 \
    --spill-dir "$tmp/spill" --checkpoint "$ck" --checkpoint-seconds 0 --fewest-beam 0 --json
  run 0 600 "$pegsol" fewest -b triangle:7 --memory-limit 40 --spill-dir "$tmp/spill" \
    --resume "$ck" --checkpoint-seconds 0 --fewest-beam 0 --json
  expect "fewest-triangle7-killed-inside-a-level-$sig" '[ $had_state = yes ]' '[ $rc = 0 ]' \
    'json "d[\"fewest\"]==12 and d[\"proven\"]"' '[ "$(ls "$ck")" = fewest.state ]' \
    '[ -z "$(ls -A "$tmp/spill")" ]'
done
# A state of another board is bad input naming the file.
run 0 60 "$pegsol" fewest -b triangle:6 --resume "$tmp/ck" --json
expect resume-another-board '[ $rc = 2 ]' 'grep -q "fewest.state is of another problem" $tmp/err'

summary
