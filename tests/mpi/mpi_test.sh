#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The census on MPI ranks equals the one-process census: for each problem below, `pegsol count`
# and `mpirun -np K pegsol-mpi count` for K = 1..4 print the same JSON (every key but "stats";
# the random player's chances within a relative 1e-12 of the one process's and the same bits for
# every K, docs/mpi.md) and, for K = 3 and every other problem, the same text (but the last
# line: time, memory, threads); a run killed after a checkpoint and resumed prints what the
# whole run prints; a run that spills to disk prints what the in-memory run prints.
# Usage: mpi_test.sh PEGSOL PEGSOL_MPI MPIEXEC
set -euo pipefail
pegsol=$1
pegsol_mpi=$2
mpiexec=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Python for the JSON checks: the interpreter itself, found once, without site packages (a version
# manager's shim, such as pyenv's, costs about 0.4 s a start).
py=$(python3 -c 'import sys; print(sys.executable)')
# Open MPI refuses root without these; they change nothing for other users.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# A run whose ranks exit with a status other than 0 ends when they do, not 1-2 s later (the
# ranks wait for rank 0's output before they exit; docs/mpi.md).
export OMPI_MCA_odls_base_sigkill_timeout=0
# Every rank is on this machine: shared memory alone (self, vader), without probing the network
# transports (UCX, OFI, TCP) at each of the test's mpirun starts.
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_osc=^ucx OMPI_MCA_mtl=^ofi
# English with the top and left arms empty and d4 vacant: 20 pegs, a census of a fraction of a
# second.
english_sub=000000001111100101110011111111111

problems=(
  "--board triangle:5"
  "--board triangle:5 --goal @$here/triangle5-goal.txt"
  "--board triangle:5 --no-symmetry"
  "--board triangle:6 --distinct-limit 1000"
  "--board hexagon:3"
  "--board rect:4x5 --no-distinct"
  "--board rect:4x4 --lattice square8 --no-distinct"
  "--board english --start $english_sub --end any"
  "--board english --start $english_sub --end d4 --no-random-player"
)

fail=0
n=0
for prob in "${problems[@]}"; do
  n=$((n + 1))
  # shellcheck disable=SC2086
  "$pegsol" count $prob --json >"$tmp/one-$n.json"
  # shellcheck disable=SC2086
  "$pegsol" count $prob >"$tmp/one-$n.txt"
  for k in 1 2 3 4; do
    status=0
    # shellcheck disable=SC2086
    "$mpiexec" --oversubscribe -np "$k" "$pegsol_mpi" count $prob --json \
      >"$tmp/mpi-$n-$k.json" 2>"$tmp/mpi-$n-$k.err" || status=$?
    if [ "$status" != 0 ]; then
      echo "FAIL: -np $k count $prob: exit status $status"
      cat "$tmp/mpi-$n-$k.err"
      fail=1
      continue
    fi
    if [ "$k" = 3 ] && [ $((n % 2)) = 1 ]; then
      # shellcheck disable=SC2086
      "$mpiexec" --oversubscribe -np "$k" "$pegsol_mpi" count $prob >"$tmp/mpi-$n-$k.txt" \
        2>/dev/null
      if ! diff <(sed '$d' "$tmp/one-$n.txt") <(sed '$d' "$tmp/mpi-$n-$k.txt") >"$tmp/diff"; then
        echo "FAIL: -np $k count $prob: the text differs"
        cat "$tmp/diff"
        fail=1
      fi
    fi
  done
  "$py" -S - "$tmp" "$n" "$prob" <<'EOF' || fail=1
import json, sys
tmp, n, prob = sys.argv[1], sys.argv[2], sys.argv[3]
one = json.load(open(f"{tmp}/one-{n}.json"))
bad = False
def close(a, b):
    return a == b or abs(a - b) <= 1e-12 * max(abs(a), abs(b))
first = None
for k in (1, 2, 3, 4):
    try:
        mpi = json.load(open(f"{tmp}/mpi-{n}-{k}.json"))
    except (OSError, ValueError):
        continue
    if set(one) != set(mpi):
        print(f"FAIL: -np {k} count {prob}: keys {sorted(set(one) ^ set(mpi))}")
        bad = True
    for key in one:
        if key in ("stats", "random_player"):
            continue
        if one[key] != mpi.get(key):
            print(f"FAIL: -np {k} count {prob}: {key}: {one[key]!r} != {mpi.get(key)!r}")
            bad = True
    a, b = one["random_player"], mpi.get("random_player")
    if (a is None) != (b is None):
        print(f"FAIL: -np {k} count {prob}: random_player {a!r} != {b!r}")
        bad = True
    elif a is not None:
        pairs = [(a["p_one_peg"], b["p_one_peg"]), (a["p_goal"], b["p_goal"])]
        if set(a["p_by_final_hole"]) != set(b["p_by_final_hole"]):
            print(f"FAIL: -np {k} count {prob}: p_by_final_hole holes differ")
            bad = True
        pairs += [(v, b["p_by_final_hole"].get(h, -1.0)) for h, v in a["p_by_final_hole"].items()]
        if not all(close(x, y) for x, y in pairs):
            print(f"FAIL: -np {k} count {prob}: random_player {a!r} != {b!r}")
            bad = True
        if first is None:
            first = b
        elif b != first:
            print(f"FAIL: -np {k} count {prob}: random_player differs from -np 1: {b!r} != {first!r}")
            bad = True
    if mpi.get("stats", {}).get("threads") != k:
        print(f"FAIL: -np {k} count {prob}: stats.threads is not {k}")
        bad = True
sys.exit(1 if bad else 0)
EOF
done
# Checkpoint and resume: ranks killed (SIGKILL) once a level is committed, then --resume, give
# the JSON of the uninterrupted run, chances bit for bit; another -np is refused.
ck_prob=(--board english --start "$english_sub" --end d4)
for k in 2 3; do
  "$mpiexec" --oversubscribe -np "$k" "$pegsol_mpi" count "${ck_prob[@]}" --json \
    >"$tmp/ck-whole-$k.json" 2>/dev/null
  status=0
  "$mpiexec" --oversubscribe -np "$k" "$pegsol_mpi" count "${ck_prob[@]}" --json \
    --checkpoint "$tmp/ck-$k" --crash-after-level 11 >/dev/null 2>&1 || status=$?
  if [ "$status" = 0 ] || [ "$(cat "$tmp/ck-$k/committed")" != 11 ]; then
    echo "FAIL: -np $k --crash-after-level 11: status $status, committed $(cat "$tmp/ck-$k/committed")"
    fail=1
  fi
  status=0
  "$mpiexec" --oversubscribe -np "$k" "$pegsol_mpi" count "${ck_prob[@]}" --json \
    --resume "$tmp/ck-$k" >"$tmp/ck-resumed-$k.json" 2>"$tmp/ck-$k.err" || status=$?
  if [ "$status" != 0 ]; then
    echo "FAIL: -np $k --resume: exit status $status"
    cat "$tmp/ck-$k.err"
    fail=1
  fi
  "$py" -S - "$tmp/ck-whole-$k.json" "$tmp/ck-resumed-$k.json" <<'EOF2' || fail=1
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
bad = [k for k in a if k != "stats" and a[k] != b.get(k)]
if bad:
    print(f"FAIL: resumed run differs from the whole run in {bad}")
sys.exit(1 if bad else 0)
EOF2
done
status=0
"$mpiexec" --oversubscribe -np 2 "$pegsol_mpi" count "${ck_prob[@]}" --resume "$tmp/ck-3" \
  >/dev/null 2>"$tmp/ck-np.err" || status=$?
if [ "$status" != 3 ] || ! grep -q "another number of ranks" "$tmp/ck-np.err"; then
  echo "FAIL: --resume with another -np: status $status"
  cat "$tmp/ck-np.err"
  fail=1
fi
# A checkpoint of format 2 (levels split among the ranks by a hash), 3 (a state record of its
# own), 4 (level files of entries sorted by key) or 5 (rounds by a hash of the parents' keys) is
# refused, naming the file.
for v in 2 3 4 5; do
  cp -r "$tmp/ck-3" "$tmp/ck-v$v"
  for f in "$tmp/ck-v$v"/r*.k"$(cat "$tmp/ck-v$v/committed")".state; do
    printf 'PEGCKPT%s' "$v" | dd of="$f" bs=8 count=1 conv=notrunc status=none
  done
  status=0
  "$mpiexec" --oversubscribe -np 3 "$pegsol_mpi" count "${ck_prob[@]}" --resume "$tmp/ck-v$v" \
    >/dev/null 2>"$tmp/ck-v$v.err" || status=$?
  if [ "$status" != 3 ] || ! grep -q "ck-v$v/r0\.k[0-9]*\.state is in an earlier format ($v" \
    "$tmp/ck-v$v.err"; then
    echo "FAIL: --resume of a format-$v checkpoint: status $status"
    cat "$tmp/ck-v$v.err"
    fail=1
  fi
done
# Disk spill: with rounds of 512 parents (so that the 20-peg English sub-problem takes several
# rounds a level) and a memory limit per rank that the level tables pass, every rank builds
# residue ranges from buckets and holds levels in the spill file (its ledger says so) and the JSON
# is the in-memory run's, chances bit for bit, and within the tolerance above of pegsol count's;
# the spill directories are removed at the end.
sp_prob=(--board english --start "$english_sub" --end any --round-parents 512)
"$mpiexec" --oversubscribe -np 1 "$pegsol_mpi" count "${sp_prob[@]}" --json \
  >"$tmp/sp-mem.json" 2>/dev/null
"$pegsol" count --board english --start "$english_sub" --end any --json >"$tmp/sp-one.json"
# (Two ranks sum every level in two-word counts, as levels past 64 bits do: --wide-counts.)
for kl in "1 4" "2 2.5 --wide-counts" "3 1.8"; do
  read -r k limit wide <<<"$kl"
  status=0
  "$mpiexec" --oversubscribe -np "$k" "$pegsol_mpi" count "${sp_prob[@]}" --json ${wide:+"$wide"} \
    --memory-limit "$limit" --spill-dir "$tmp/spill-$k" >"$tmp/sp-$k.json" 2>"$tmp/sp-$k.err" ||
    status=$?
  spilled=$(grep -c "ranges built from buckets ([0-9]* bytes), [0-9]* bytes of levels in the spill file" \
    "$tmp/sp-$k.err" || true)
  if [ "$status" != 0 ] || [ "$spilled" != "$k" ] || [ -n "$(ls -A "$tmp/spill-$k")" ]; then
    echo "FAIL: -np $k --memory-limit $limit --spill-dir: status $status, $spilled ranks spilled," \
      "left: $(ls -A "$tmp/spill-$k")"
    cat "$tmp/sp-$k.err"
    fail=1
    continue
  fi
  "$py" -S - "$tmp/sp-mem.json" "$tmp/sp-$k.json" "$tmp/sp-one.json" <<'EOF3' || fail=1
import json, sys
mem, spilled, one = (json.load(open(f)) for f in sys.argv[1:4])
bad = [k for k in mem if k != "stats" and mem[k] != spilled.get(k)]
bad += [k for k in one if k not in ("stats", "random_player") and one[k] != spilled.get(k)]
a, b = one["random_player"], spilled["random_player"]
pairs = [(a["p_one_peg"], b["p_one_peg"]), (a["p_goal"], b["p_goal"])]
pairs += [(v, b["p_by_final_hole"][h]) for h, v in a["p_by_final_hole"].items()]
if not all(x == y or abs(x - y) <= 1e-12 * max(abs(x), abs(y)) for x, y in pairs):
    bad.append("random_player (against pegsol count)")
if bad:
    print(f"FAIL: spilled run differs in {bad}")
sys.exit(1 if bad else 0)
EOF3
done
# Spill and checkpoints together: killed after a committed level, resumed with the spill, the
# in-memory run's JSON.
status=0
"$mpiexec" --oversubscribe -np 2 "$pegsol_mpi" count "${sp_prob[@]}" --json --memory-limit 2.5 \
  --spill-dir "$tmp/spill-ck" --checkpoint "$tmp/ck-sp" --crash-after-level 11 >/dev/null 2>&1 ||
  true
[ "$(cat "$tmp/ck-sp/committed" 2>/dev/null)" = 11 ] || status=killed-before-commit
"$mpiexec" --oversubscribe -np 2 "$pegsol_mpi" count "${sp_prob[@]}" --json --memory-limit 2.5 \
  --spill-dir "$tmp/spill-ck" --resume "$tmp/ck-sp" >"$tmp/sp-ck.json" 2>"$tmp/sp-ck.err" ||
  status=$?
if [ "$status" != 0 ] || ! grep -q "bytes of levels in the spill file" "$tmp/sp-ck.err" ||
  ! "$py" -S -c 'import json, sys; a, b = (json.load(open(f)) for f in sys.argv[1:3]); sys.exit(any(a[k] != b.get(k) for k in a if k != "stats"))' \
    "$tmp/sp-mem.json" "$tmp/sp-ck.json"; then
  echo "FAIL: spilled, killed and resumed: status $status, or the JSON differs"
  cat "$tmp/sp-ck.err"
  fail=1
fi
# A spill directory that cannot be made is bad input (status 2), said before the census starts.
touch "$tmp/plain-file"
status=0
"$mpiexec" --oversubscribe -np 2 "$pegsol_mpi" count --board triangle:5 --json \
  --spill-dir "$tmp/plain-file/spill" >"$tmp/sp-bad.json" 2>/dev/null || status=$?
if [ "$status" != 2 ] || ! grep -q '"kind":"input".*spill-dir' "$tmp/sp-bad.json"; then
  echo "FAIL: --spill-dir under a file: status $status, $(cat "$tmp/sp-bad.json")"
  fail=1
fi
# --progress: rank 0 prints a line per level (and no rank waits for it alone).
status=0
timeout 60 "$mpiexec" --oversubscribe -np 2 "$pegsol_mpi" count --board triangle:5 --progress \
  >/dev/null 2>"$tmp/progress.err" || status=$?
if [ "$status" != 0 ] || ! grep -q "level 1 " "$tmp/progress.err"; then
  echo "FAIL: count --board triangle:5 --progress: status $status"
  cat "$tmp/progress.err"
  fail=1
fi
# Errors: a bad option is bad input (status 2) with one error object, as for pegsol count.
status=0
"$mpiexec" --oversubscribe -np 2 "$pegsol_mpi" count --board nosuch --json >"$tmp/err.json" \
  2>/dev/null || status=$?
if [ "$status" != 2 ] || ! grep -q '"kind":"input"' "$tmp/err.json"; then
  echo "FAIL: count --board nosuch: status $status, $(cat "$tmp/err.json")"
  fail=1
fi
# A time limit stops every rank with status 4.
status=0
"$mpiexec" --oversubscribe -np 2 "$pegsol_mpi" count --board english --time-limit 0.2 \
  >/dev/null 2>"$tmp/stop.err" || status=$?
if [ "$status" != 4 ] || ! grep -q "census stopped (time)" "$tmp/stop.err"; then
  echo "FAIL: count --board english --time-limit 0.2: status $status"
  cat "$tmp/stop.err"
  fail=1
fi
# The memory limit stops every rank with status 4 and says what it needed.
status=0
"$mpiexec" --oversubscribe -np 2 "$pegsol_mpi" count --board english --memory-limit 20 \
  >/dev/null 2>"$tmp/mem.err" || status=$?
if [ "$status" != 4 ] || ! grep -q "census stopped (memory): rank [0-9]: memory limit" "$tmp/mem.err"; then
  echo "FAIL: count --board english --memory-limit 20: status $status"
  cat "$tmp/mem.err"
  fail=1
fi

# The fewest moves on ranks (pegsol-mpi fewest): for every K the one-process answer of `pegsol
# fewest` (the fewest moves, proven, the same status; hexagon:2 has no solution), a solution that
# replays with that many moves, and the same first two lines of text.
fewest_boards=("triangle:5" "triangle:6" "rect:3x4" "rect:3x5" "hexagon:2" "triangle:7")
check_fewest() { # ONE.json MPI.json BOARD LABEL
  "$py" -S - "$@" "$pegsol" <<'EOF4'
import json, subprocess, sys
one, mpi = (json.load(open(f)) for f in sys.argv[1:3])
board, label, pegsol = sys.argv[3:6]
bad = [k for k in ("fewest", "proven", "status", "stop") if one.get(k) != mpi.get(k)]
if mpi.get("fewest") is not None:
    chains = mpi["minimize"]["notation"]
    if len(chains) != mpi["fewest"]:
        bad.append("minimize.notation: not one chain a move")
    # The moves played by the one-process command from the vacancy: every jump kept, one peg
    # left on the last hole, nothing more to search.
    r = subprocess.run([pegsol, "solve", "--board", board, "--start", mpi["start"], "--end",
                        mpi["end"], "--moves", " ".join(chains), "--minimize", "moves",
                        "--json"], capture_output=True, text=True)
    got = json.loads(r.stdout) if r.stdout else {}
    if (r.returncode != 0 or got.get("status") != "solved" or
            got.get("kept_moves") != len(mpi["moves"]) or got["minimize"]["moves"] != 0):
        bad.append(f"replay: {r.returncode} {r.stdout[:200]} {r.stderr[:200]}")
if bad:
    print(f"FAIL: {label}: {bad}: one {one}, mpi {mpi}")
sys.exit(1 if bad else 0)
EOF4
}
# after_fewest LABEL ONE.json BOARD NAME [CONDITION]: after a run of pegsol-mpi fewest that wrote
# $tmp/NAME.json and $tmp/NAME.err and left its exit status in $status, a failure with the run's
# errors unless the status is 0 and CONDITION (a shell test) holds; then its answer against
# ONE.json's (check_fewest).
after_fewest() {
  local label=$1 one=$2 board=$3 name=$4 condition=${5:-true}
  if [ "$status" != 0 ] || ! eval "$condition"; then
    echo "FAIL: $label: status $status"
    cat "$tmp/$name.err"
    fail=1
  else
    check_fewest "$one" "$tmp/$name.json" "$board" "$label" || fail=1
  fi
}
for board in "${fewest_boards[@]}"; do
  "$pegsol" fewest --board "$board" --json >"$tmp/f-one.json" || true
  ks="1 2 3"
  [ "$board" = triangle:7 ] && ks=3
  for k in $ks; do
    status=0
    "$mpiexec" --oversubscribe -np "$k" "$pegsol_mpi" fewest --board "$board" --json \
      >"$tmp/f-$k.json" 2>"$tmp/f-$k.err" || status=$?
    if [ "$status" != 0 ] && [ "$board" != hexagon:2 ]; then
      echo "FAIL: -np $k fewest --board $board: exit status $status"
      cat "$tmp/f-$k.err"
      fail=1
      continue
    fi
    check_fewest "$tmp/f-one.json" "$tmp/f-$k.json" "$board" "-np $k fewest --board $board" ||
      fail=1
  done
done
"$pegsol" fewest --board triangle:6 >"$tmp/f-one.txt"
"$mpiexec" --oversubscribe -np 2 "$pegsol_mpi" fewest --board triangle:6 >"$tmp/f-2.txt" 2>/dev/null
if ! diff <(sed '3,$d' "$tmp/f-one.txt") <(sed '3,$d' "$tmp/f-2.txt") >"$tmp/diff"; then
  echo "FAIL: -np 2 fewest --board triangle:6: the text differs"
  cat "$tmp/diff"
  fail=1
fi
# English, each of 2 ranks under half the one process's memory limit: its answer.
"$pegsol" fewest --board english --memory-limit 600 --json >"$tmp/f-one.json"
status=0
"$mpiexec" --oversubscribe -np 2 "$pegsol_mpi" fewest --board english --memory-limit 300 --json \
  >"$tmp/f-en.json" 2>"$tmp/f-en.err" || status=$?
after_fewest "-np 2 fewest --board english --memory-limit 300" "$tmp/f-one.json" english f-en
# Under a memory limit with levels spilled to disk (the spill's own files, removed at the end).
mkdir -p "$tmp/f-spill"
"$pegsol" fewest --board triangle:7 --json >"$tmp/f-one.json"
status=0
"$mpiexec" --oversubscribe -np 2 "$pegsol_mpi" fewest --board triangle:7 --memory-limit 40 \
  --spill-dir "$tmp/f-spill" --json >"$tmp/f-sp.json" 2>"$tmp/f-sp.err" || status=$?
# shellcheck disable=SC2016 # after_fewest evaluates the condition
after_fewest "-np 2 fewest --memory-limit 40 --spill-dir" "$tmp/f-one.json" triangle:7 f-sp \
  '[ -z "$(ls -A "$tmp/f-spill")" ]'
# Checkpoints: a run stopped by SIGTERM to mpirun once rank 0 has written its first state (it
# keeps one after each pass and level) goes on with --resume on another number of ranks to the
# one-process answer; a state of another board is bad input on rank 0 and ends every rank.
"$mpiexec" --oversubscribe -np 2 "$pegsol_mpi" fewest --board triangle:7 --checkpoint "$tmp/f-ck" \
  --checkpoint-seconds 0 --json >/dev/null 2>&1 &
pid=$!
for _ in $(seq 600); do
  [ -s "$tmp/f-ck/fewest.state" ] && break
  sleep 0.1
done
kill -TERM "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
status=0
"$mpiexec" --oversubscribe -np 3 "$pegsol_mpi" fewest --board triangle:7 --resume "$tmp/f-ck" \
  --json >"$tmp/f-ck.json" 2>"$tmp/f-ck.err" || status=$?
# shellcheck disable=SC2016
after_fewest "-np 3 fewest --resume" "$tmp/f-one.json" triangle:7 f-ck '[ -s "$tmp/f-ck/fewest.state" ]'
status=0
"$mpiexec" --oversubscribe -np 2 "$pegsol_mpi" fewest --board triangle:6 --resume "$tmp/f-ck" \
  --json >"$tmp/f-other.json" 2>/dev/null || status=$?
if [ "$status" = 0 ] || ! grep -q '"kind":"input".*another problem' "$tmp/f-other.json"; then
  echo "FAIL: fewest --resume of another board: status $status, $(cat "$tmp/f-other.json")"
  fail=1
fi
# A time limit stops every rank with status 4, the bound and the best solution kept.
status=0
"$mpiexec" --oversubscribe -np 2 "$pegsol_mpi" fewest --board triangle:9 --time-limit 2 --json \
  >"$tmp/f-stop.json" 2>/dev/null || status=$?
if [ "$status" != 4 ] || ! "$py" -S -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(not (d["stop"] == "time" and d["minimize"]["lower_bound"] > 0 and d["minimize"]["moves"] >= d["minimize"]["lower_bound"]))' "$tmp/f-stop.json"; then
  echo "FAIL: fewest --board triangle:9 --time-limit 2: status $status, $(cat "$tmp/f-stop.json")"
  fail=1
fi
# --known-solution (a move list in a file, read by rank 0): on 2 ranks stopped by the same time
# limit, the best is the known 16 moves (vacancy 15 to one peg on 4); a file that does not replay
# is refused by name.
printf '%s\n' "6-15 1-6 21-10-3 26-15 41-26 18-20-33 43-41-26 39-41 36-21-10-19 4-6-1-4" \
  "7-18-33-20 45-43-28-26 23-40-42-27-14-5 16-7-2-9-18-31-33-20-18 29-16 37-39-22-11-24-13-4" \
  >"$tmp/t9-16.txt"
status=0
"$mpiexec" --oversubscribe -np 2 "$pegsol_mpi" fewest --board triangle:9 --time-limit 2 --json \
  --known-solution "$tmp/t9-16.txt" >"$tmp/f-known.json" 2>/dev/null || status=$?
if [ "$status" != 4 ] || ! "$py" -S -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(not (d["minimize"]["moves"] == 16 and d["start"] == "15" and d["end"] == "4" and d["minimize"]["lower_bound"] > 0))' "$tmp/f-known.json"; then
  echo "FAIL: fewest --board triangle:9 --known-solution: status $status, $(cat "$tmp/f-known.json")"
  fail=1
fi
echo "1. 4-1 2. 1-4" >"$tmp/bad-known.txt"
status=0
"$mpiexec" --oversubscribe -np 2 "$pegsol_mpi" solve --board triangle:5 --minimize moves --json \
  --known-solution "$tmp/bad-known.txt" >"$tmp/s-bad-known.json" 2>/dev/null || status=$?
if [ "$status" != 2 ] || ! grep -q '"kind":"input".*bad-known.txt' "$tmp/s-bad-known.json"; then
  echo "FAIL: solve --known-solution of a bad file: status $status, $(cat "$tmp/s-bad-known.json")"
  fail=1
fi
# pegsol-mpi solve --minimize moves, the passes' levels spread over K = 1..4 ranks: for each
# problem the one process's status, fewest moves, proof, lower bound and stop, and a solution that
# replays (pegsol solve --moves) to the goal with nothing left to search. The last problem has no
# solution (the end is not of the start's position class).
solve_problems=(
  "--board triangle:5"
  "--board triangle:6"
  "--board rect:3x4"
  "--board triangle:6 --start 1 --end 1 --fewest-beam 0 --no-bound"
  "--board triangle:5 --start 1 --end 2"
)
check_solve() { # ONE.json MPI.json LABEL PROBLEM
  "$py" -S - "$@" "$pegsol" <<'EOF5'
import json, subprocess, sys
one, mpi = (json.load(open(f)) for f in sys.argv[1:3])
label, problem, pegsol = sys.argv[3:6]
bad = [k for k in ("status", "stop") if one.get(k) != mpi.get(k)]
bad += ["minimize." + k for k in ("moves", "lower_bound", "proven")
        if one.get("minimize", {}).get(k) != mpi.get("minimize", {}).get(k)]
if mpi.get("minimize", {}).get("moves") is not None:
    chains = mpi["minimize"]["notation"]
    args = [a for a in problem.split() if a not in ("--no-bound",)]
    if "--fewest-beam" in args:
        del args[args.index("--fewest-beam"):args.index("--fewest-beam") + 2]
    r = subprocess.run([pegsol, "solve", *args, "--moves", " ".join(chains), "--minimize", "moves",
                        "--json"], capture_output=True, text=True)
    got = json.loads(r.stdout) if r.stdout else {}
    if (r.returncode != 0 or got.get("status") != "solved" or
            got.get("kept_moves") != len(mpi["moves"]) or got["minimize"]["moves"] != 0):
        bad.append(f"replay: {r.returncode} {r.stdout[:200]} {r.stderr[:200]}")
if bad:
    print(f"FAIL: {label}: {bad}: one {one}, mpi {mpi}")
sys.exit(1 if bad else 0)
EOF5
}
for problem in "${solve_problems[@]}"; do
  # shellcheck disable=SC2086 # the problem's words
  "$pegsol" solve $problem --minimize moves --json >"$tmp/s-one.json" || true
  for k in 1 2 3 4; do
    # shellcheck disable=SC2086
    "$mpiexec" --oversubscribe -np "$k" "$pegsol_mpi" solve $problem --minimize moves --json \
      >"$tmp/s-$k.json" 2>"$tmp/s-$k.err" &
  done
  wait || true
  for k in 1 2 3 4; do
    check_solve "$tmp/s-one.json" "$tmp/s-$k.json" "-np $k solve $problem" "$problem" || {
      cat "$tmp/s-$k.err"
      fail=1
    }
  done
done
# A rank short of memory stops every rank: status 4, stop "memory", the bound and the best
# solution kept (a spread pass never releases its levels).
status=0
"$mpiexec" --oversubscribe -np 2 "$pegsol_mpi" solve --board triangle:7 --start 15 --end 2 \
  --minimize moves --memory-limit 8 --json >"$tmp/s-mem.json" 2>/dev/null || status=$?
if [ "$status" != 4 ] || ! "$py" -S -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(not (d["stop"] == "memory" and d["minimize"]["lower_bound"] > 0 and d["minimize"]["moves"] >= d["minimize"]["lower_bound"]))' "$tmp/s-mem.json"; then
  echo "FAIL: solve --memory-limit 8 on 2 ranks: status $status, $(cat "$tmp/s-mem.json")"
  fail=1
fi
# pegsol-mpi fewest --spread: one search over every pair, each pass's levels spread over K = 1..4
# ranks, the one process's answer of `pegsol fewest` (not split; hexagon:2 has no solution).
spread_boards=("triangle:5" "triangle:6" "rect:3x4" "hexagon:2")
for board in "${spread_boards[@]}"; do
  "$pegsol" fewest --board "$board" --json >"$tmp/w-one-$board.json" || true
  for k in 1 2 3 4; do
    "$mpiexec" --oversubscribe -np "$k" "$pegsol_mpi" fewest --spread --board "$board" --json \
      >"$tmp/w-$k-$board.json" 2>"$tmp/w-$k-$board.err" &
  done
  wait || true
  for k in 1 2 3 4; do
    check_fewest "$tmp/w-one-$board.json" "$tmp/w-$k-$board.json" "$board" \
      "-np $k fewest --spread --board $board" || {
      cat "$tmp/w-$k-$board.err"
      fail=1
    }
  done
done
status=0
"$mpiexec" --oversubscribe -np 2 "$pegsol_mpi" fewest --spread --board triangle:5 \
  --checkpoint "$tmp/w-ck" --json >"$tmp/w-ck.json" 2>/dev/null || status=$?
if [ "$status" != 2 ] || ! grep -q '"kind":"input".*--spread' "$tmp/w-ck.json"; then
  echo "FAIL: fewest --spread --checkpoint: status $status, $(cat "$tmp/w-ck.json")"
  fail=1
fi
[ "$fail" = 0 ] && echo "mpi census: ${#problems[@]} problems, 1-4 ranks, same figures; resumed and spilled runs equal; fewest on ${#fewest_boards[@]} boards, 1-3 ranks, the one process's answer; solve --minimize moves on ${#solve_problems[@]} problems and fewest --spread on ${#spread_boards[@]} boards, 1-4 ranks, the one process's answer"
exit "$fail"
