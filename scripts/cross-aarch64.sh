#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the library and examples/ for aarch64 with Debian's cross compiler and runs the examples
# under qemu-user: the default build must build and give the same answers off x86-64 (no CPU
# kernel of that architecture is compiled there; the census runs its portable tier). At -O1: what
# is checked is that it builds and answers the same, and -O1 compiles in half the time of -O3.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build/aarch64
cmake -S . -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/aarch64-linux-gnu.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DPEGSOL_APPS=OFF -DPEGSOL_TESTS=OFF -DPEGSOL_BENCH=OFF \
  -DPEGSOL_EXAMPLES=ON -DPEGSOL_INSTALL=OFF >/dev/null
cmake --build "$build"
export QEMU_LD_PREFIX=/usr/aarch64-linux-gnu
fail=0
expect() {  # expect PATTERN PROGRAM
  local out
  out=$(qemu-aarch64 "$2") || { echo "FAIL $2 exited $?"; fail=1; return; }
  grep -q -- "$1" <<<"$out" || { echo "FAIL $2: no '$1' in"; echo "$out" | head -5; fail=1; }
}
expect "solved in 31 moves" "$build/examples/pegsol_example_solve"
expect "solutions: 29760" "$build/examples/pegsol_example_count"
expect "games: 568630" "$build/examples/pegsol_example_count"
expect "one peg left after" "$build/examples/pegsol_example_play"
[ "$fail" = 0 ] && echo "aarch64: library and examples built and run under qemu"
exit "$fail"
