#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End-to-end checks of the pegsol command: exit statuses, JSON shape, error messages.
set -u
pegsol=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Python for the JSON checks: the interpreter itself, found once, without site packages (a version
# manager's shim, such as pyenv's, costs about 0.4 s a start).
py=$(python3 -c 'import sys; print(sys.executable)')
pass=0 fail=0
check() {  # check NAME EXPECTED_STATUS PATTERN -- command...
  local name=$1 want=$2 pattern=$3
  shift 4
  local t0=$SECONDS
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  # The slow checks are named, so that the suite's time can be read off its log.
  [ $((SECONDS - t0)) -ge 3 ] && echo "($name: $((SECONDS - t0)) s)"
  if [ "$got" != "$want" ] || ! grep -qE -- "$pattern" "$tmp/out" "$tmp/err"; then
    echo "FAIL $name: status $got (want $want), pattern '$pattern'"
    head -c 600 "$tmp/out" "$tmp/err"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}
check default 0 'solved in 31 moves' -- "$pegsol" solve --no-draw
check no-args 0 'english: vacancy d4' -- "$pegsol"
check json 0 '"status":"solved"' -- "$pegsol" solve --json
check french-centre 1 'position class' -- "$pegsol" solve -b french -s d4 -e d4
check french-json 1 '"status":"impossible"' -- "$pegsol" solve -b french -s d4 -e d4 --json
check triangle 0 'solved in 13 moves' -- "$pegsol" solve -b triangle:5 --no-draw
check backward 0 'solved' -- "$pegsol" solve -b english --direction backward --no-draw
check diagonals 0 'english.diagonals: vacancy d4 -> one peg at d4' -- "$pegsol" solve -b english --lattice square8 --no-draw
check moves 0 'kept your 2 moves \(2 jumps\): d2-d4 f3-d3' -- "$pegsol" solve --moves "d2-d4 f3-d3" --no-draw
check moves-numbered 0 '1\.d2-d4 2\.f3-d3 3\.' -- "$pegsol" solve --moves "1.d2-d4, 2.f3-d3" --no-draw
check moves-json 0 '"kept_moves":2' -- "$pegsol" solve --moves "d2-d4 f3-d3" --json
check moves-lost 1 'impossible' -- "$pegsol" solve -b triangle:5 --moves "4-1 6-4 15-6 13-15 11-13" --no-draw
check moves-illegal 2 'move 2 \(d2-d4\): .*no peg on d2' -- "$pegsol" solve --moves "d2-d4 d2-d4"
check moves-bad 2 "--moves: move 2: move 'zz'" -- "$pegsol" solve --moves "d2-d4 zz"
# --svg: well-formed XML (xmllint), one frame per move plus the start, one peg fewer per jump.
if command -v xmllint >/dev/null; then
  svg_frames() {  # svg_frames FILE: the pegs of each frame, one line each
    local n i
    n=$(xmllint --xpath "count(//*[local-name()='g'][@class='frame'])" "$1")
    for i in $(seq "$n"); do
      xmllint --xpath "count((//*[local-name()='g'][@class='frame'])[$i]//*[local-name()='circle'][contains(concat(' ',@class,' '),' peg ')])" "$1" |
        tr -d '\n'
      echo
    done
  }
  check svg 0 'solved in 13 moves' -- "$pegsol" solve -b triangle:5 --no-draw --svg "$tmp/t5.svg"
  if xmllint --noout "$tmp/t5.svg" && [ "$(svg_frames "$tmp/t5.svg" | head -1)" = 14 ] &&
    [ "$(svg_frames "$tmp/t5.svg" | tail -1)" = 1 ] &&
    [ "$(svg_frames "$tmp/t5.svg" | sort -rn | uniq | wc -l)" = "$(svg_frames "$tmp/t5.svg" | wc -l)" ]; then
    pass=$((pass + 1))
  else
    echo "FAIL svg-frames: $(svg_frames "$tmp/t5.svg" | tr '\n' ' ')"
    fail=$((fail + 1))
  fi
  check svg-moves 0 'kept your 1 move' -- "$pegsol" solve --moves d2-d4 --no-draw --svg "$tmp/en.svg"
  if xmllint --noout "$tmp/en.svg" && [ "$(svg_frames "$tmp/en.svg" | sed -n 2p)" = 31 ]; then
    pass=$((pass + 1))
  else
    echo "FAIL svg-moves-frames"
    fail=$((fail + 1))
  fi
  # --minimize moves draws its fewest-moves solution too: 9 moves of the 15-hole triangle.
  check svg-fewest 0 'fewest moves: 9' -- "$pegsol" solve -b triangle:5 -s 13 -e 13 --minimize moves --svg "$tmp/f5.svg"
  if xmllint --noout "$tmp/f5.svg" && [ "$(svg_frames "$tmp/f5.svg" | wc -l)" = 10 ]; then
    pass=$((pass + 1))
  else
    echo "FAIL svg-fewest-frames: $(svg_frames "$tmp/f5.svg" | tr '\n' ' ')"
    fail=$((fail + 1))
  fi
else
  echo "SKIP svg checks: xmllint not installed (scripts/install-deps.sh installs libxml2-utils)"
fi
check svg-unwritable 2 'cannot write' -- "$pegsol" solve -b triangle:5 --svg "$tmp/no/dir/x.svg"
check bad-board 2 "unknown board 'nope'" -- "$pegsol" solve -b nope
check bad-hole 2 "no hole named 'z9'" -- "$pegsol" solve -s z9
check bad-option 2 'direction' -- "$pegsol" solve --direction sideways
check missing-file 2 "^pegsol: --board @/nonexistent/board.txt: cannot read file '/nonexistent/board.txt' \(No such file or directory\)" -- "$pegsol" solve -b @/nonexistent/board.txt
# A file given with @ is read within 16 MiB whatever it is: a directory is named as one, a FIFO
# and a pipe are read like a file (limits_test.sh reads devices and endless pipes, under ulimit).
check board-directory 2 "--board @$tmp: is a directory, not a file" -- "$pegsol" solve -b "@$tmp"
check start-directory 2 "--start @$tmp: is a directory, not a file" -- "$pegsol" solve --start "@$tmp"
check goal-directory 2 "--goal @$tmp: is a directory, not a file" -- "$pegsol" solve --goal "@$tmp"
check count-board-directory 2 "--board @$tmp: is a directory, not a file" -- "$pegsol" count -b "@$tmp"
check show-board-directory 2 "--board @$tmp: is a directory, not a file" -- "$pegsol" show -b "@$tmp"
check play-directory 2 "^pegsol: play @$tmp: is a directory, not a file" -- "$pegsol" play "@$tmp"
tri5='lattice: triangular\n    .\n   o o\n  o o o\n o o o o\no o o o o\n'
mkfifo "$tmp/fifo"
(printf "$tri5" >"$tmp/fifo") &
check board-fifo 0 'solved in 13 moves' -- "$pegsol" solve -b "@$tmp/fifo" --no-draw
wait
check board-pipe 0 'solved in 13 moves' -- bash -c "printf '$tri5' | '$pegsol' solve -b @/dev/stdin --no-draw"
check boards 0 'english +33 +76 +8' -- "$pegsol" boards
check version 0 '^pegsol [0-9]+\.[0-9]+\.[0-9]+' -- "$pegsol" --version
check version-kernels 0 'census kernels: (portable|avx2|avx512)' -- "$pegsol" --version
check version-capped 0 'census kernels: portable \(capped by PEGSOL_KERNELS=portable\)' -- env PEGSOL_KERNELS=portable "$pegsol" --version
check boards-json 0 '"kernels":\{"cap":"[a-z0-9]*","census":"(portable|avx2|avx512)","cpu":' -- "$pegsol" boards --json
check kernels-bad 2 'PEGSOL_KERNELS=bogus: expected auto, portable, avx2 or avx512' -- env PEGSOL_KERNELS=bogus "$pegsol" count -b triangle:5
check presets 0 '^latin-cross +easy +6 +english +d4' -- "$pegsol" presets
check presets-json 0 '"name":"cracker-barrel"' -- "$pegsol" presets --json
check preset-solve 0 'solved in' -- "$pegsol" solve --preset latin-cross --no-draw
check preset-unknown 2 "^pegsol: --preset latin-cros: no preset of that name; did you mean 'latin-cross'\\? \\(.pegsol presets. lists them\\)" -- "$pegsol" solve --preset latin-cros
check preset-and-board 2 'drop --board' -- "$pegsol" solve --preset plus -b french
# Whole English censuses, the benches, spilled censuses and tables, a kill and a resume: the
# Release run's with its own kernels. Under the sanitizers (where the kernels are the portable
# ones), or with the portable kernels forced, they take minutes and test nothing more: the
# library's tests run the census, the spill and the checkpoint there on smaller problems.
heavy=yes
if [ -n "${PEGSOL_SANITIZED:-}" ] || [ "${PEGSOL_KERNELS:-}" = portable ]; then heavy=; fi
if [ -n "$heavy" ]; then
  # The bench's signature: a change in search behaviour changes it (and its commit says so).
  check bench-signature 0 '^signature: 1002704 nodes$' -- "$pegsol" bench --repeat 1
  # The beam bench's (fixed seeds; the count leaves out threads above the one that succeeded).
  check beam-bench-signature 0 '^signature: 25795117 positions$' -- "$pegsol" bench --beam --repeat 1
  # The published English figures (d4 -> d4), with the kernels this CPU gets and the portable
  # ones.
  check english-census 0 '^solutions +40,861,647,040,079,968$' -- "$pegsol" count -b english --no-distinct --no-random-player
  cp "$tmp/out" "$tmp/english.txt"
  check english-reachable 0 '^ all +187,636,299 +23,475,688 +13,428,122 ' -- cat "$tmp/english.txt"
  check kernels-portable 0 '^solutions +40,861,647,040,079,968$' -- env PEGSOL_KERNELS=portable "$pegsol" count -b english --no-distinct --no-random-player
fi
check show 0 'd4' -- "$pegsol" show -b english
check time-limit 4 'unknown' -- "$pegsol" solve -b diamond41 -s e4 -e any --algorithm dfs --time-limit 0.05 --json
printf 'lattice: triangular\n    .\n   o o\n  o o o\n o o o o\no o o o o\n' >"$tmp/tri.txt"
check drawn-board 0 'solved in 13 moves' -- "$pegsol" solve -b "@$tmp/tri.txt" --no-draw
printf '  ooo\n  oxo\n' >"$tmp/bad.txt"
check bad-drawing 2 "bad.txt:2:4: unexpected 'x'" -- "$pegsol" solve -b "@$tmp/bad.txt"
printf '  ooo  \n  ooo  \nooooooo\nooooooo\nooooooo\n  ooo  \n  o.o  \n' >"$tmp/start.txt"
check start-file 0 'solved' -- "$pegsol" solve --start "@$tmp/start.txt" --end d4 --no-draw
# A saved game (docs/game-format.md) continues from its current position with its goal.
printf 'pegsol game\n# two moves played, one undone\nboard: english\nstart: d4\ngoal: d4\nmoves:\nd2-d4 f3-d3\nundone:\nf5-f3\n' >"$tmp/game.txt"
check game-file 0 'english: start with 30 pegs -> one peg at d4' -- "$pegsol" solve --start "@$tmp/game.txt" --no-draw
check game-file-json 0 '"start":"111101111100111111111111111111111"' -- "$pegsol" solve --start "@$tmp/game.txt" --json
check game-file-end 0 'start with 30 pegs -> one peg anywhere' -- "$pegsol" solve --start "@$tmp/game.txt" --end any --no-draw
check game-file-board 2 'the game is on board english, not french' -- "$pegsol" solve -b french --start "@$tmp/game.txt"
printf 'pegsol game\nboard: triangle:5\nmoves:\n4-1 6-4\n  1-4\n' >"$tmp/badgame.txt"
check game-file-error 2 "badgame.txt:5:3: move 3: move 1-4: step 1 \\(jump 1-4\\) is illegal: there is no peg on 2 to jump over" -- "$pegsol" solve --start "@$tmp/badgame.txt"
printf 'pegsol game\nboard:\nlattice: triangular\n    o\n   o o\n  o o o\n o o o o\no o o o o\nstart: 1\nmoves: 4-1 6-4 1-6\n' >"$tmp/drawngame.txt"
check game-file-drawn 0 'start with 11 pegs -> one peg anywhere' -- "$pegsol" solve --start "@$tmp/drawngame.txt" --no-draw
# The JSON's start string is accepted back as --start.
start=$("$pegsol" solve -b triangle:5 -s 4 --json | "$py" -S -c 'import json, sys; print(json.load(sys.stdin)["start"])')
check json-start-back 0 '"start":"'"$start"'"' -- "$pegsol" solve -b triangle:5 --start "$start" --json
check json-start-vacancy 0 'triangle:5: vacancy 4 -> one peg anywhere' -- "$pegsol" solve -b triangle:5 --start "$start" --no-draw
check json-start-length 2 'needs one .0. or .1. for each of the 15 holes of board triangle:5, not 4' -- "$pegsol" solve -b triangle:5 --start 1110
# Beam searches: the method, complement pairs, positions and time on the human output.
t12=(-b triangle:12 -s 12 -e 24 --no-draw)
check beam-meet 0 'beam \(meet\): [1-9][0-9]* complement pairs, [1-9][0-9]* positions, [0-9.]+ s, capacity 1000, 1 attempt$' -- "$pegsol" solve "${t12[@]}" --algorithm beam --beam-method meet --capacity 1000
check beam-sweep 0 'beam \(sweep\): no complement pairs \(one side\), [1-9][0-9]* positions' -- "$pegsol" solve "${t12[@]}" --algorithm beam --beam-method sweep
check beam-auto 0 'beam \(sweep\)' -- "$pegsol" solve "${t12[@]}" --algorithm beam
check beam-meet-json 0 '"method":"meet"' -- "$pegsol" solve "${t12[@]}" --algorithm beam --beam-method meet --json
check beam-report 0 'beam \(report\): [1-9][0-9]* complement pairs' -- "$pegsol" solve -b triangle:11 -s 12 -e 24 --algorithm beam-report --capacity 2000 --no-draw
check beam-method-dfs 2 'applies to --algorithm beam and auto' -- "$pegsol" solve --algorithm dfs --beam-method meet
check beam-method-bad 2 'bogus not in' -- "$pegsol" solve --beam-method bogus
check beam-time-limit 4 'unknown: beam search stopped \(time limit\)' -- "$pegsol" solve -b diamond41 -s a5 -e any --algorithm beam --time-limit 0.3 --no-draw
# The census: the random player's chances by default, and none with --no-random-player.
check count-chance 0 'random player ends with one peg +[0-9.]+e-[0-9]+' -- "$pegsol" count -b triangle:5
check count-no-chance 0 '"random_player":null.*"solutions":"29760"' -- "$pegsol" count -b triangle:5 --no-random-player --json
check count-no-chance-text 0 'random player +not computed' -- "$pegsol" count -b triangle:5 --no-random-player
# A census stopped by --memory-limit names the option and the limit in MiB, in text and JSON
# ("stop_limit" as data too); the library's field names (Control::memory_budget,
# CensusOptions::...) stay inside the library (issue 44).
no_library_words() {  # no_library_words NAME: the last check's output names no library field
  if grep -qE '(Options|Control)::' "$tmp/out" "$tmp/err"; then
    echo "FAIL $1: a library field name in the output: $(grep -hoE '[A-Za-z]*(Options|Control)::[a-z_]*' "$tmp/out" "$tmp/err" | head -1)"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}
check count-memory-words 4 '^pegsol: census stopped \(memory\): memory limit of 1 MiB \(--memory-limit\) reached at level [0-9]+' -- "$pegsol" count -b english --memory-limit 1
no_library_words count-memory-words
check count-memory-words-json 4 '"reason":"stopped \(memory\): memory limit of 1 MiB \(--memory-limit\) reached at level [0-9]+.*"stop_limit":\{"bytes":1048576,"field":"--memory-limit"\}' -- "$pegsol" count -b english --memory-limit 1 --json
no_library_words count-memory-words-json
check count-distinct-limit-words 0 'over the limit of 10 \(--distinct-limit\)' -- "$pegsol" count -b triangle:5 --distinct-limit 10 --json
no_library_words count-distinct-limit-words
mkdir -p "$tmp/no-checkpoint"
check count-resume-words 2 "^pegsol: --resume $tmp/no-checkpoint: no census checkpoint there" -- "$pegsol" count -b triangle:5 --resume "$tmp/no-checkpoint"
# The disk spill: under a limit the levels do not fit in, the same figures with --spill-dir,
# a stop without it, nothing left in the directory (after a kill -9 either), and a clear error
# for a directory that is not there.
mkdir -p "$tmp/spill"
if [ -n "$heavy" ]; then
  check count-spill-json 0 '"solutions":"40861647040079968".*"spill_peak_bytes":[1-9]' -- "$pegsol" count -b english --no-distinct --memory-limit 128 --spill-dir "$tmp/spill" --json
  check count-spill 0 'peak in tables and [0-9.]+ MiB on disk' -- "$pegsol" count -b english --no-distinct --memory-limit 128 --spill-dir "$tmp/spill"
  check count-no-spill 4 'census stopped \(memory\)' -- "$pegsol" count -b english --no-distinct --memory-limit 128
  # The table's passes spilled: triangle:7's need more than 8 MiB (without the spill the first
  # pass stops), the same table with it (compared below with the one made in memory).
  check table-spill-json 0 '"complete":true.*"spill_peak_bytes":[1-9]' -- "$pegsol" table -b triangle:7 --method passes --memory-limit 8 --spill-dir "$tmp/spill" --json
  cp "$tmp/out" "$tmp/table-spilled.json"
  check table-no-spill 4 '^0 of 28 single vacancies can be solved \(162 pairs open\)' -- "$pegsol" table -b triangle:7 --method passes --memory-limit 8
fi
check spill-dir-missing 2 'spill-dir: Directory does not exist: .*nowhere' -- "$pegsol" count -b english --memory-limit 64 --spill-dir "$tmp/nowhere"
"$pegsol" count -b french --start d2 --end d6 --no-distinct --memory-limit 300 --spill-dir "$tmp/spill" >/dev/null 2>&1 &
spill_pid=$!
sleep 4
kill -9 "$spill_pid"
wait "$spill_pid" 2>/dev/null
check spill-left-nothing 0 '^0$' -- bash -c "ls -A '$tmp/spill' | wc -l"
# Checkpoint and resume: a census killed (kill -9) in the middle goes on with --resume to every
# figure of an uninterrupted one; a directory of another census or with none is an input error.
same_figures() {  # same_figures A.json B.json: equal but for stats
  "$py" -S -c 'import json,sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
a.pop("stats"); b.pop("stats")
print("same" if a == b else "different"); sys.exit(a != b)' "$1" "$2"
}
kill_when() {  # kill_when GLOB PID: kill -9 PID once a file matches GLOB (10 s at most)
  for _ in $(seq 1000); do
    compgen -G "$1" >/dev/null && break
    sleep 0.01
  done
  kill -9 "$2" 2>/dev/null
  wait "$2" 2>/dev/null
}
if [ -n "$heavy" ]; then
  "$pegsol" count -b english --no-distinct --json >"$tmp/whole.json"
  "$pegsol" count -b english --no-distinct --threads 1 --checkpoint "$tmp/ck" --json >/dev/null 2>&1 &
  kill_when "$tmp/ck/census.level.1?" $!
  check count-resume 0 '"status":"complete"' -- "$pegsol" count -b english --no-distinct --resume "$tmp/ck" --json
  cp "$tmp/out" "$tmp/resumed.json"
  check count-resume-same 0 '^same$' -- same_figures "$tmp/whole.json" "$tmp/resumed.json"
else  # under the sanitizers, a checkpoint to refuse (the library tests resume there)
  "$pegsol" count -b triangle:6 --checkpoint "$tmp/ck" >/dev/null
fi
check resume-other 2 'checkpoint there is of another census' -- "$pegsol" count -b english -s c4 --no-distinct --resume "$tmp/ck"
check resume-none 2 'no census checkpoint there' -- "$pegsol" count -b english --resume "$tmp/spill"
mkdir -p "$tmp/ck-v1"  # a state of the first format (8-byte keys in its level files)
printf 'PEGCENS1' >"$tmp/ck-v1/census.state"
check resume-format-1 2 'in an earlier format' -- "$pegsol" count -b english --no-distinct --resume "$tmp/ck-v1"
exec {lock_fd}>"$tmp/ck/census.lock"
flock "$lock_fd"
check checkpoint-locked 2 'another census is writing its checkpoints there' -- "$pegsol" count -b english --no-distinct --resume "$tmp/ck"
exec {lock_fd}>&-
check resume-excludes 2 'excludes' -- "$pegsol" count -b english --checkpoint "$tmp/ck2" --resume "$tmp/ck"
# Every checkpoint file carries a checksum: 4 KB overwritten inside a level is refused, naming
# the file (issue 44, case 13; before, it resumed to a "complete" census with a chance of 2.7e+292),
# and so is a state of the format before the checksums.
ck_cmd=(count -b triangle:6)
[ -n "$heavy" ] && ck_cmd=(count -b english --no-distinct)
cp -r "$tmp/ck" "$tmp/ck-bad"
rm -f "$tmp/ck-bad/census.lock"
ck_level=$(ls "$tmp/ck-bad"/census.level.* | head -1)
"$py" -S -c 'import sys
f = open(sys.argv[1], "r+b"); n = f.seek(0, 2); k = min(4096, n // 4); f.seek(n // 4); f.write(b"\xa5" * k)' "$ck_level"
check resume-damaged 2 "^pegsol: --resume $tmp/ck-bad: checkpoint: $ck_level is damaged \(its checksum does not match\)" -- "$pegsol" "${ck_cmd[@]}" --resume "$tmp/ck-bad"
check resume-damaged-json 2 '"kind":"input"' -- "$pegsol" "${ck_cmd[@]}" --resume "$tmp/ck-bad" --json
mkdir -p "$tmp/ck-v2"
printf 'PEGCENS2' >"$tmp/ck-v2/census.state"
check resume-format-2 2 'in an earlier format \(2, without checksums\) written by an older version of pegsol' -- "$pegsol" count -b english --no-distinct --resume "$tmp/ck-v2"
# The table's checkpoint: killed (kill -9) inside a pass, resumed to the uninterrupted matrix;
# refused for another board, with none, and for --minimize moves.
tboard=triangle:6
[ -n "$heavy" ] && tboard=triangle:7
"$pegsol" table -b "$tboard" --method passes --json >"$tmp/table-whole.json"
if [ -n "$heavy" ]; then
  check table-spill-same 0 '^same$' -- "$py" -S -c 'import json,sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
print("same" if a["matrix"] == b["matrix"] and a["finals"] == b["finals"] and a["passes"] == b["passes"] else "different")' "$tmp/table-whole.json" "$tmp/table-spilled.json"
fi
"$pegsol" table -b "$tboard" --method passes --threads 1 --checkpoint "$tmp/tck" >/dev/null 2>&1 &
kill_when "$tmp/tck/pass.*/census.level.1?" $!
check table-resume 0 '"complete":true' -- "$pegsol" table -b "$tboard" --method passes --resume "$tmp/tck" --json
cp "$tmp/out" "$tmp/table-resumed.json"
check table-resume-same 0 '^same$' -- "$py" -S -c 'import json,sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
print("same" if a["matrix"] == b["matrix"] and a["passes"] == b["passes"] else "different")' "$tmp/table-whole.json" "$tmp/table-resumed.json"
check table-resume-clean 0 '^table.state$' -- bash -c "ls '$tmp/tck' | grep -v lock"
check table-whole-passes 0 '"complete":true' -- "$pegsol" table -b triangle:6 --method passes --checkpoint "$tmp/tck3" --no-level-checkpoints --json
check table-whole-passes-state 0 '^table.state$' -- bash -c "ls '$tmp/tck3' | grep -v lock"
check table-resume-other 2 'table.state is the table of another board, not triangle:5' -- "$pegsol" table -b triangle:5 --resume "$tmp/tck"
check table-resume-none 2 'no table checkpoint there' -- "$pegsol" table -b triangle:5 --resume "$tmp/spill"
check table-checkpoint-fewest 2 'checkpoint and --resume are for the solvability table' -- "$pegsol" table -b triangle:5 --minimize moves --checkpoint "$tmp/tck2"
"$py" -S -c 'import sys
f = open(sys.argv[1], "r+b"); f.seek(20); b = f.read(1); f.seek(20); f.write(bytes([b[0] ^ 1]))' "$tmp/tck/table.state"
check table-resume-damaged 2 "table.state is damaged \(its checksum does not match\)" -- "$pegsol" table -b "$tboard" --method passes --resume "$tmp/tck"
# The solvability table: complete by searches, by passes, and incomplete under a tiny memory limit.
check table-english 0 '33 of 33 single vacancies can be solved; 0 start classes answered by position class and peg types; [0-9]+ pairs searched \([0-9]+ solved, [0-9]+ proved impossible\); 0 forward passes' -- "$pegsol" table -b english --search-seconds 100
check table-certificates 0 '"certificates":\[\{"end":"[a-g][1-7]","moves":\["[a-g][1-7]-[a-g][1-7]",' -- "$pegsol" table -b english --search-seconds 100 --json
check table-passes 0 '"complete":true.*"method":"passes".*"passes":[1-9]' -- "$pegsol" table -b triangle:5 --method passes --json
check table-incomplete 4 'table incomplete, [0-9]+ pairs open: the forward pass from [0-9]+ stopped: memory limit' -- "$pegsol" table -b triangle:6 --method passes --memory-limit 0.001
check table-bad-method 2 'bogus not in' -- "$pegsol" table --method bogus
# Limits and signals stop every command cleanly, with what it settled (docs/control.md).
french=(count -b french --start d2 --end d6 --no-distinct)  # 71 s to the end
check count-time-limit 4 'census stopped \(time\); the figures cover the levels completed' -- "$pegsol" "${french[@]}" --time-limit 0.2
check count-time-limit-levels 4 '^  36 +1 +1 ' -- "$pegsol" "${french[@]}" --time-limit 0.2
check count-sigint 130 'census stopped \(signal\)' -- timeout --preserve-status -s INT 0.5 "$pegsol" "${french[@]}"
check solve-sigterm 143 'unknown: search stopped \(signal\)' -- timeout --preserve-status -s TERM 0.5 "$pegsol" solve -b diamond41 -s e4 -e any --algorithm dfs --no-draw
check solutions-time-limit 4 '^[0-9]+ solutions \(stopped: time\)$' -- "$pegsol" solutions -b english --time-limit 0.2
check solutions-memory-limit 4 '^[0-9]+ solutions \(stopped: memory\)$' -- "$pegsol" solutions -b english --memory-limit 0.01
check table-time-limit 4 'table incomplete, [0-9]+ pairs open: stopped \(time\)' -- "$pegsol" table -b english --method passes --time-limit 0.2
check time-limit-nan 2 'expected a number of seconds >= 0 \(0: no limit\), got .nan.' -- "$pegsol" count -b triangle:5 --time-limit nan
# A positive limit too small for a double is refused, not read as 0, "no limit" (issue 44,
# case 14); a negative one is a negative.
check time-limit-tiny 2 "'1e-999' seconds is a time limit too small to be told from 0" -- "$pegsol" solve -b triangle:5 --time-limit 1e-999
check time-limit-tiny-solutions 2 'too small to be told from 0' -- "$pegsol" solutions -b triangle:5 --time-limit 1e-999
check time-limit-tiny-negative 2 'expected a number of seconds >= 0' -- "$pegsol" count -b triangle:5 --time-limit -1e-999
check memory-limit-tiny 2 "expected a number > 0, got '1e-999' \(too small to be told from 0\)" -- "$pegsol" solve -b triangle:5 --memory-limit 1e-999
# The analysis's search memo (issue 47): megabytes > 0, for the server and the play bench alike.
check serve-analysis-memo-zero 2 "--analysis-memo: expected a number > 0, got '0'" -- "$pegsol" serve --analysis-memo 0
check bench-play-memo-zero 2 "--memo: expected a number > 0, got '0'" -- "$pegsol" bench --play --memo 0
# Options that do not go together are bad input naming both (issue 44, case 14), not dropped.
check minimize-algorithm 2 '--(minimize excludes --algorithm|algorithm excludes --minimize)' -- "$pegsol" solve -b triangle:5 --minimize moves --algorithm beam
check minimize-direction 2 '--(minimize excludes --direction|direction excludes --minimize)' -- "$pegsol" solve -b triangle:5 --minimize moves --direction backward
check minimize-capacity 2 '--(minimize excludes --capacity|capacity excludes --minimize)' -- "$pegsol" solve -b triangle:5 --minimize moves --capacity 10
check dfs-capacity 2 '--capacity 100: .*--algorithm dfs runs no beam' -- "$pegsol" solve -b triangle:5 --algorithm dfs --capacity 100
check dfs-seed 2 '--seed 5: .*--algorithm dfs runs none' -- "$pegsol" solve -b triangle:5 --algorithm dfs --seed 5
check beam-backward 2 '--direction backward: --algorithm beam searches forward only' -- "$pegsol" solve -b triangle:5 --algorithm beam --direction backward
check count-distinct-limit 2 '--(distinct-limit excludes --no-distinct|no-distinct excludes --distinct-limit)' -- "$pegsol" count -b triangle:5 --no-distinct --distinct-limit 5
check table-passes-search-seconds 2 '--search-seconds: .*--method passes' -- "$pegsol" table -b triangle:5 --method passes --search-seconds 3
check table-fewest-method 2 '--minimize moves: --method is an option of the solvability table' -- "$pegsol" table -b triangle:5 --minimize moves --method passes
check table-level-checkpoints-alone 2 '--no-level-checkpoints: applies with --checkpoint or --resume' -- "$pegsol" table -b triangle:5 --no-level-checkpoints
check bench-threads-alone 2 '--threads requires --census' -- "$pegsol" bench --threads 2
check bench-beam-census 2 '--(beam excludes --census|census excludes --beam)' -- "$pegsol" bench --beam --census
# solutions proves impossibility as solve does, before it searches (issue 44, case 12: before,
# 549 s of enumeration to "0 solutions").
check solutions-impossible 1 '^0 solutions \(impossible: (position class|peg types|pagoda)' -- timeout 60 "$pegsol" solutions -b triangle:7
check solutions-impossible-json 1 '"count":"0","reason":"(position class|peg types|pagoda).*"status":"impossible"' -- timeout 60 "$pegsol" solutions -b triangle:7 --json
# Progress goes to stderr only when it is a terminal, and only for runs longer than a second.
slow=(solve -b diamond41 -s a5 -e any --algorithm beam --time-limit 1.6 --no-draw)
"$pegsol" "${slow[@]}" >/dev/null 2>"$tmp/err"
if [ -s "$tmp/err" ]; then echo "FAIL progress-not-a-tty: $(head -c 200 "$tmp/err")"; fail=$((fail + 1)); else pass=$((pass + 1)); fi
# On a terminal: the first report is awaited (up to 60 s, however loaded the machine), then the
# search is interrupted (SIGINT) and stops with "unknown", status 130 (128 + SIGINT; 0 if it
# solved first).
if command -v script >/dev/null; then
  progress='sweep capacity [0-9]+  level [0-9]+/39  [0-9]+ positions  [0-9.]+ M/s'
  script -qefc "exec $pegsol solve -b diamond41 -s a5 -e any --algorithm beam --time-limit 120 --no-draw" \
    "$tmp/tty" >/dev/null 2>&1 &
  script_pid=$!
  for _ in $(seq 600); do
    grep -qE "$progress" "$tmp/tty" 2>/dev/null && break
    sleep 0.1
  done
  child=$(pgrep -P "$script_pid" || true)
  [ -n "$child" ] && kill -INT "$child"
  wait "$script_pid"
  got=$?
  if grep -qE "$progress" "$tmp/tty" && { [ "$got" = 130 ] || [ "$got" = 0 ]; }; then
    pass=$((pass + 1))
  else
    echo "FAIL progress-tty: status $got"
    head -c 600 "$tmp/tty"
    fail=$((fail + 1))
  fi
fi
# The JSON object has exactly the documented keys and a replayable move list.
"$pegsol" solve --json >"$tmp/j" 2>/dev/null
if "$py" -S - "$tmp/j" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert set(d) == {"board", "holes", "start", "status", "stop", "reason", "moves", "notation", "final", "stats"}, d.keys()
assert d["holes"] == 33 and len(d["start"]) == 33 and d["start"].count("0") == 1
assert len(d["moves"]) == 31 and len(d["notation"]) == 31
assert d["final"] == "0" * 16 + "1" + "0" * 16
pos = [c == "1" for c in d["start"]]
for a, b, c in d["moves"]:
    assert pos[a] and pos[b] and not pos[c]
    pos[a] = pos[b] = False
    pos[c] = True
assert sum(pos) == 1 and pos[16]
assert "nodes" in d["stats"] and "seconds" in d["stats"]
PY
then pass=$((pass + 1)); else echo "FAIL json-shape"; fail=$((fail + 1)); fi
# Fewest moves (docs/fewest.md): moves numbered one per chain, JSON "minimize", the board's minimum.
check fewest-solve 0 'fewest moves: 9, proven minimal' -- "$pegsol" solve -b triangle:5 -s 13 -e 13 --minimize moves
check fewest-numbered 0 '^1\. [0-9]+(-[0-9]+)+  2\. ' -- "$pegsol" solve -b triangle:5 --minimize moves
check fewest-json 0 '"minimize":\{"chains":\[\[\[' -- "$pegsol" solve -b triangle:5 --minimize moves --json
check fewest-board 0 'fewest moves: 9, proven minimal' -- "$pegsol" fewest -b triangle:5
check fewest-board-json 0 '"fewest":9,' -- "$pegsol" fewest -b triangle:5 --json
check fewest-table 0 'board minimum: 9 moves, proven' -- "$pegsol" table -b triangle:5 --minimize moves
check fewest-table-json 0 '"fewest":9,' -- "$pegsol" table -b triangle:5 --minimize moves --json
check fewest-stopped 4 '"proven":false' -- "$pegsol" solve -b english --minimize moves --time-limit 0.2 --json
check fewest-bad-minimize 2 'minimize' -- "$pegsol" solve --minimize jumps
# With --moves: the moves kept, the fewest from the position they leave (the same count as a
# search started there), the whole game in "moves", and an illegal kept move named.
check fewest-with-moves 0 'from the position after them, fewest moves: 9, proven minimal' -- "$pegsol" solve -b triangle:5 --minimize moves --moves 4-1
check fewest-with-bad-moves 2 'moves: move 2 \(4-1\): ' -- "$pegsol" solve -b triangle:5 --minimize moves --moves "4-1 4-1"
# An English search, twice: the Release run's.
if [ -n "$heavy" ]; then
  if "$pegsol" solve -b english --minimize moves --moves "d2-d4 f3-d3 e1-e3" --json >"$tmp/ff.json" &&
    "$py" -S - "$pegsol" "$tmp/ff.json" <<'PY'
import json, subprocess, sys
d = json.load(open(sys.argv[2]))
m = d["minimize"]
alone = json.loads(subprocess.run([sys.argv[1], "solve", "-b", "english", "-s", m["from"], "-e", "d4",
                                   "--minimize", "moves", "--json"], capture_output=True).stdout)
assert d["status"] == "solved" and d["kept_moves"] == 3 and m["proven"], d
assert m["moves"] == alone["minimize"]["moves"] == len(m["chains"]), (m, alone["minimize"])
assert d["notation"][:3] == ["d2-d4", "f3-d3", "e1-e3"] and len(d["moves"]) == 31
assert sum(len(c) for c in m["chains"]) == 28 and d["final"].count("1") == 1
PY
  then pass=$((pass + 1)); else echo "FAIL fewest-with-moves-json"; fail=$((fail + 1)); fi
fi
check fewest-too-wide 2 'at most 128' -- "$pegsol" fewest -b triangle:16
# The search's own switches: the same answer with no bound and no beam, a different search (one
# pass storing everything, against passes under a rising limit).
check fewest-no-bound 0 'fewest moves: 9, proven minimal' -- "$pegsol" solve -b triangle:5 -s 13 -e 13 --minimize moves --no-bound --fewest-beam 0
check fewest-board-no-bound 0 '"fewest":9,' -- "$pegsol" fewest -b triangle:5 --no-bound --json
check fewest-table-no-beam 0 'board minimum: 9 moves, proven' -- "$pegsol" table -b triangle:5 --minimize moves --fewest-beam 0
check fewest-flags-alone 2 'give them with --minimize moves' -- "$pegsol" solve -b triangle:5 --no-bound
check fewest-checkpoint-alone 2 'checkpoint: checkpoints and the spill are the fewest-moves search.s: give them with --minimize moves' -- "$pegsol" solve -b triangle:5 --checkpoint "$tmp/solve-ck"
check fewest-solve-checkpoint 0 'fewest moves: 9, proven minimal' -- "$pegsol" solve -b triangle:5 -s 13 -e 13 --minimize moves --checkpoint "$tmp/solve-ck"
# --known-solution: a solution in any form pegsol writes (the --json of fewest or solve, a saved
# game, a numbered move list) is the best known; the same answer, proven. A file that is not a
# solution of the problem is bad input naming the file and what is wrong.
"$pegsol" fewest -b triangle:5 --json >"$tmp/t5.json" 2>/dev/null
check known-fewest-json 0 '"fewest":9,"minimize".*"proven":true' -- "$pegsol" fewest -b triangle:5 --known-solution "$tmp/t5.json" --json
printf '1. 6-1  2. 4-6  3. 13-4\n' >"$tmp/known-short.txt"
check known-not-one-peg 2 'known-solution .*known-short.txt: its 3 jumps end with 11 pegs, not one' -- "$pegsol" fewest -b triangle:5 --known-solution "$tmp/known-short.txt"
check known-another-board 2 'known-solution .*t5.json: a solution on board triangle:5, not triangle:6' -- "$pegsol" fewest -b triangle:6 --known-solution "$tmp/t5.json"
printf '{"board": "triangle:5", "moves": [[0, 1' >"$tmp/known-bad.json"
check known-malformed 2 'known-bad.json: malformed JSON' -- "$pegsol" fewest -b triangle:5 --known-solution "$tmp/known-bad.json"
"$pegsol" solve -b triangle:5 -s 13 -e 13 --minimize moves --json >"$tmp/t5-13.json" 2>/dev/null
check known-solve-json 0 'fewest moves: 9, proven minimal' -- "$pegsol" solve -b triangle:5 -s 13 -e 13 --minimize moves --known-solution "$tmp/t5-13.json"
check known-solve-other-goal 2 'known-solution .*t5-13.json: its 13 jumps end on 1 pegs that are not the problem.s goal' -- "$pegsol" solve -b triangle:5 -s 13 -e 1 --minimize moves --known-solution "$tmp/t5-13.json"
check known-alone 2 'known-solution: .*give them with --minimize moves' -- "$pegsol" solve -b triangle:5 --known-solution "$tmp/t5.json"
check fewest-flags-table-alone 2 'give them with --minimize moves' -- "$pegsol" table -b triangle:5 --fewest-beam 5
# --no-pagodas also switches off the solvability table's pruned passes: the same matrix.
check table-no-pagodas 0 '10 of 20 single vacancies can be solved; .*3 forward passes' -- "$pegsol" table -b rect:4x5 --method passes --no-pagodas
nb=$("$pegsol" solve -b triangle:6 --minimize moves --no-bound --json 2>/dev/null |
  "$py" -S -c 'import json,sys; d=json.load(sys.stdin); print(d["minimize"]["moves"], d["stats"]["nodes"])')
wb=$("$pegsol" solve -b triangle:6 --minimize moves --json 2>/dev/null |
  "$py" -S -c 'import json,sys; d=json.load(sys.stdin); print(d["minimize"]["moves"], d["stats"]["nodes"])')
if [ -n "$nb" ] && [ "${nb%% *}" = "${wb%% *}" ] && [ "${nb##* }" != "${wb##* }" ]; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL fewest-no-bound-same-moves: without the bound '$nb', with it '$wb' (moves, positions)"
fi
# Tight pagodas: Diamond 41 from 16 moves into its 26-move solution, 10 more with and without.
d41="c3-e3 d5-d3 d2-d4 f3-d3-d5 b4-d4 e1-e3 f5-f3 h4-f4 g6-g4 c6-c4 e6-c6 b6-d6 a5-c5 c4-c6-e6-g6 f8-f6 d8-d6"
np=$("$pegsol" solve -b diamond41 --moves "$d41" --minimize moves --no-pagodas --json 2>/dev/null |
  "$py" -S -c 'import json,sys; d=json.load(sys.stdin); print(d["minimize"]["moves"], d["minimize"]["proven"], d["stats"]["nodes"])')
wp=$("$pegsol" solve -b diamond41 --moves "$d41" --minimize moves --json 2>/dev/null |
  "$py" -S -c 'import json,sys; d=json.load(sys.stdin); print(d["minimize"]["moves"], d["minimize"]["proven"], d["stats"]["nodes"])')
if [ "${np% *}" = "10 True" ] && [ "${wp% *}" = "10 True" ] && [ "${wp##* }" -lt "${np##* }" ]; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL fewest-no-pagodas-same-moves: without pagodas '$np', with them '$wp' (moves, proven, positions)"
fi
"$pegsol" solve -b triangle:6 --minimize moves --json >"$tmp/f" 2>/dev/null
"$pegsol" fewest -b triangle:5 --json >"$tmp/fb" 2>/dev/null
if "$py" -S - "$tmp/f" "$tmp/fb" <<'PY'
import json, sys
# The flat jump list replays, its chains are the minimize chains, and they count the moves.
d = json.load(open(sys.argv[1]))
m = d["minimize"]
assert set(m) == {"moves", "lower_bound", "proven", "chains", "notation"}, m.keys()
assert m["proven"] is True and m["moves"] == m["lower_bound"] == len(m["chains"])
assert [j for c in m["chains"] for j in c] == d["moves"]
moves = sum(1 for i, j in enumerate(d["moves"]) if i == 0 or j[0] != d["moves"][i - 1][2])
assert moves == m["moves"]
pos = [c == "1" for c in d["start"]]
for a, b, c in d["moves"]:
    assert pos[a] and pos[b] and not pos[c]
    pos[a] = pos[b] = False
    pos[c] = True
assert sum(pos) == 1
f = json.load(open(sys.argv[2]))
for k in ("board", "fewest", "proven", "start", "end", "moves", "minimize"):
    assert k in f, k
assert f["board"] == "triangle:5" and f["fewest"] == 9 and f["proven"] is True
pos = [True] * 15
pos[f["start_index"]] = False
for a, b, c in f["moves"]:
    assert pos[a] and pos[b] and not pos[c]
    pos[a] = pos[b] = False
    pos[c] = True
assert sum(pos) == 1 and pos[f["end_index"]]
PY
then pass=$((pass + 1)); else echo "FAIL fewest-json-shape"; fail=$((fail + 1)); fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
