#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `pegsol play`: commands through stdin (as scripts use it), then the same game under tmux (a real
# terminal: prompt, colour, keys sent with send-keys and the screen read with capture-pane).
set -u
pegsol=$1
tmp=$(mktemp -d)
sock="pegsol-play-test-$$"
games=()  # the games started under tmux, by process id
cleanup() {
  tmux -L "$sock" kill-server 2>/dev/null
  # A game still running when its terminal goes away gets SIGHUP and leaves. Under the sanitizers
  # a SIGHUP that lands in the leak check at exit can hang it, spinning, so none outlives the test.
  for pid in "${games[@]}"; do
    for _ in $(seq 10); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    kill -9 "$pid" 2>/dev/null
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() {
  echo "FAIL $1"
  [ -f "$tmp/out" ] && tail -c 1500 "$tmp/out"
  fail=$((fail + 1))
}
expect() {  # expect NAME PATTERN: the last output holds PATTERN
  if grep -qE -- "$2" "$tmp/out"; then ok; else bad "$1: no '$2'"; fi
}
play() {  # play ARGS... < commands: runs the game on stdin into $tmp/out
  "$pegsol" play "$@" >"$tmp/out" 2>&1
  echo "status $?" >>"$tmp/out"
}

# A won game by hand (triangle:5, one peg anywhere), undo and redo, the move list.
printf '%s\n' 4-1 6-4 1-6 undo redo 12-5 10-8 7-2 14-12 6-4 2-7 11-4-13 12-14 15-13 moves quit |
  play --board triangle:5
expect won 'You won!'
expect chain '10\.11-4-13'
expect moves '1\.4-1 2\.6-4 3\.1-6'
expect status0 'status 0'
expect ways '29,760 ways left'
expect ends 'the last peg can still end on: 1 7 10 13'

# The analysis's search memo: a bound of the player's, checked.
printf '%s\n' 4-1 analyse quit | play --board triangle:5 --memo 1
expect memo-small 'solvable'
expect memo-small-status 'status 0'
printf '%s\n' quit | play --board triangle:5 --memo 0
expect memo-zero 'memo'
expect memo-zero-status 'status 2'

# A preset: its board, start and goal (the Latin cross on the English board, to d4).
printf '%s\n' quit | play --preset latin-cross
expect preset-goal 'd4'
expect preset-status 'status 0'
printf '%s\n' quit | play --preset latin-cross --board english
expect preset-excl 'names its board, start and goal'
printf '%s\n' quit | play --preset latin-crosss
expect preset-near 'latin-cross'

# Illegal moves and unknown words: a clear error, the game goes on.
printf '%s\n' 13-4 z9-1 frob 4-1 | play --board triangle:5
expect illegal 'illegal move 13-4: .*4 is not empty'
expect unknown-hole "no hole named 'z9'"
expect unknown-word "not a move or a command: 'frob'"
expect goes-on 'pegs 13'
# A line of moves is read as solve --moves reads them (numbers, commas); a line with a word that is
# not a move plays none of them.
printf '%s\n' '1.4-1, 2.6-4' '1-6 frob' moves | play --board triangle:5
expect numbered-line 'pegs 12'
expect line-unread "not a move or a command: '1-6 frob' \\(move 2: move 'frob'"
expect line-plays-none '^1\.4-1 2\.6-4$'

# Hint, then finish: the player's moves are kept.
printf '%s\n' 4-1 hint finish | play --board triangle:5
expect hint 'hint: [0-9]+-[0-9]+'
expect finish 'kept your 1 move; the rest:'
expect finish-won 'You won!'

# Shortest: the fewest moves from where the game stands, the moves played kept (triangle:5 after
# 4-1: nine more, proven); from a lost position it says why it cannot finish.
printf '%s\n' 4-1 shortest moves shortest | play --board triangle:5
expect shortest 'kept your 1 move; the fewest from there, 9 moves \(proven\): 6-4 '
expect shortest-won 'You won!'
expect shortest-moves '10\.[0-9]+(-[0-9]+)+$'
expect shortest-again 'the goal is reached'
printf '%s\n' 4-1 6-4 15-6 13-15 11-13 s | play --board triangle:5
expect shortest-lost 'cannot finish: '

# Where did I go wrong, and rewind: 11-13 leaves triangle:5 without a solution (the live verdict
# says so, found by search); why names it and rewind goes back to just before it.
printf '%s\n' 4-1 6-4 15-6 13-15 11-13 why rewind | play --board triangle:5
expect lost-live 'goal, one peg anywhere: not solvable: '
expect why 'move 5 \(11-13\) lost the game: after it, '
expect rewind 'pegs 10  moves 4 \(\+1 to redo\)'
expect rewind-solvable 'solvable \(30 ways left\)'
# A losing move found, then the game changed: rewind asks again.
printf '%s\n' 4-1 6-4 15-6 13-15 11-13 why undo undo rewind | play --board triangle:5
expect rewind-after-undo 'nothing went wrong: the goal can still be reached'
printf '%s\n' 4-1 why | play --board triangle:5
expect why-not-lost 'nothing went wrong: the goal can still be reached'
printf '%s\n' 'rewind x' 'rewind 9' | play --board triangle:5
expect rewind-bad "rewind takes a number of moves to keep, not 'x'"
expect rewind-far 'rewind 9: only 0 moves are played'

# Save, load with @FILE, the same game; solve reads it too.
printf '%s\n' 4-1 6-4 "save $tmp/g.txt" | play --board triangle:5
expect saved "saved to $tmp/g.txt"
printf '%s\n' moves undo undo undo | play "@$tmp/g.txt"
expect loaded '1\.4-1 2\.6-4'
expect loaded-undo 'nothing to undo'
"$pegsol" solve --start "@$tmp/g.txt" --no-draw >"$tmp/out" 2>&1
expect solve-reads 'solved in'
printf '%s\n' 'save' | play --board triangle:5
expect save-needs 'save needs a file name'
printf '%s\n' "save $tmp/no/such/dir/g.txt" | play --board triangle:5
expect save-fails "cannot write $tmp/no/such/dir/g.txt"
"$pegsol" play "@$tmp/none.txt" </dev/null >"$tmp/out" 2>&1
if [ $? = 2 ]; then ok; else bad "missing game file: status not 2"; fi
expect missing-file "play @$tmp/none.txt: cannot read file '$tmp/none.txt'"
"$pegsol" play @"$tmp/g.txt" --board english </dev/null >"$tmp/out" 2>&1
expect file-and-board 'a saved game brings its own board'

# English: the live verdict and the proof words of a goal out of reach.
printf '%s\n' d2-d4 quit | play --board english --end c1
expect english-proof 'goal, one peg on c1: not solvable: position class'
expect english-one-peg 'one peg anywhere: solvable'

# Under tmux: a terminal with a prompt; keys typed, the screen read back.
if command -v tmux >/dev/null; then
  screen() { tmux -L "$sock" capture-pane -p -t play >"$tmp/out"; }
  wait_for() {  # wait_for NAME PATTERN: up to 20 s for the screen to show PATTERN
    for _ in $(seq 100); do
      screen
      grep -qE -- "$2" "$tmp/out" && { ok; return; }
      sleep 0.2
    done
    bad "tmux $1: no '$2'"
  }
  keys() { tmux -L "$sock" send-keys -t play "$1" Enter; }
  start_game() {  # start_game ARGS...: the game in a new session "play", 100 x 60
    tmux -L "$sock" new-session -d -s play -x 100 -y 60 "exec $pegsol play $*"
    games+=("$(tmux -L "$sock" display-message -p -t play '#{pane_pid}')")
  }
  wait_ended() {  # wait_ended NAME: up to 20 s for the game to leave (its session then closes)
    for _ in $(seq 100); do
      tmux -L "$sock" has-session -t play 2>/dev/null || { ok; return; }
      sleep 0.2
    done
    bad "tmux $1: the game did not end"
    tmux -L "$sock" kill-session -t play 2>/dev/null
  }
  start_game --board triangle:5
  wait_for start 'Type a move such as 4-1'
  wait_for prompt '^>'
  keys 4-1
  wait_for moved 'pegs 13  moves 1'
  keys undo
  wait_for undone 'pegs 14  moves 0 \(\+1 to redo\)'
  keys hint
  wait_for hint 'hint: [0-9]+-[0-9]+'
  keys finish
  wait_for won 'You won!'
  keys restart
  wait_for restarted 'pegs 14  moves 0'
  keys shortest
  wait_for shortest 'kept your 0 moves; the fewest from there, [0-9]+ moves \(proven\)'
  keys quit
  wait_ended quit
  # On the English board the search takes seconds: the bounds show while it runs.
  start_game --board english --no-analysis
  wait_for english-prompt '^>'
  keys shortest
  wait_for shortest-progress 'searching: at least [0-9]+ moves'
  wait_for shortest-english 'the fewest from there, 18 moves \(proven\)|the best found; at least'
  keys clear
  wait_for clear-error "not a move or a command: 'clear'"
  keys quit
  wait_ended quit-english
else
  echo "SKIP tmux: not installed (scripts/install-deps.sh installs it)"
fi

echo "play tests: $pass passed, $fail failed"
[ "$fail" = 0 ]
