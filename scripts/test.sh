#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds and runs every test: the static edition (WebAssembly), the Release suite, then the same
# suite under AddressSanitizer and UndefinedBehaviorSanitizer (clang; with the fuzz targets'
# corpora and 5,000 seeded mutants each: label fuzz), then the census tests with the AVX2 kernels,
# then the library and examples cross-compiled for aarch64 and run under qemu, then each libFuzzer
# target of the sanitizer build for a few seconds (scripts/fuzz.sh), then the formatting check.
# Installs missing packages first.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's wall time and CPU time, so that CI's budget can be read off the log. The CPU time
# (user + system, which the load inflates far less than the wall time) is that of this shell's
# children: the step's commands, and any background job that ended during the step (the shell
# counts a child's time when it ends; finish, below, prints each job's own).
mkdir -p build/ci
# cpu_seconds FILE: the CPU seconds in FILE, the output of the `times` builtin (its second line:
# the children's user and system time).
cpu_seconds() {
  awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, t, "m"); n += t[1] * 60 + t[2] } }
    END { printf "%.0f\n", n }' "$1"
}
step_start=$SECONDS
step_name=
times >build/ci/cpu
step_cpu=$(cpu_seconds build/ci/cpu)
step() {
  local cpu
  times >build/ci/cpu  # in this shell: a subshell's `times` counts its own children alone
  cpu=$(cpu_seconds build/ci/cpu)
  [ -n "$step_name" ] && echo "-- $step_name: $((SECONDS - step_start)) s, CPU $((cpu - step_cpu)) s"
  step_name=$1
  step_start=$SECONDS
  step_cpu=$cpu
  echo "== $1"
}
# The builds after the first start in the background at nice 19 while the step before them runs
# (the Release build beside the static edition's, the sanitizer build beside the Release suite,
# the aarch64 cross-build beside the sanitizer suite): they take the CPU that step leaves idle
# (a single-threaded link, the serial tests, a suite's last long tests) and next to nothing from
# it otherwise. Their own step then waits for them and prints their log.
# background NAME COMMAND...: starts COMMAND at nice 19 in a process group of its own, its output
# in build/ci/NAME.log.
declare -A background_pids=()
stop_background() {
  local pid
  for pid in "${background_pids[@]}"; do kill -- "-$pid" 2>/dev/null || true; done
}
trap stop_background EXIT
background() {
  local name=$1
  shift
  mkdir -p build/ci
  date +%s >"build/ci/$name.start"
  # shellcheck disable=SC2016 # the inner shell expands them
  setsid nice -n 19 bash -c '"$@"; status=$?; times >"$0.cpu"; date +%s >"$0.end"; exit "$status"' \
    "build/ci/$name" "$@" >"build/ci/$name.log" 2>&1 &
  background_pids[$name]=$!
}
# finish NAME: waits for NAME's background job and prints its log; the job's status. What is left
# of the job is now this step's own work: back at this script's priority (where allowed).
finish() {
  local name=$1 status=0
  renice -n "$(nice)" -g "${background_pids[$name]}" >/dev/null 2>&1 || true
  wait "${background_pids[$name]}" || status=$?
  unset "background_pids[$name]"
  cat "build/ci/$name.log"
  echo "-- $name: ran $(($(cat "build/ci/$name.end") - $(cat "build/ci/$name.start"))) s, CPU" \
    "$(cpu_seconds "build/ci/$name.cpu") s, the last $((SECONDS - step_start)) s of it waited for here"
  return "$status"
}
step install-deps
bash scripts/install-deps.sh
export PEGSOL_REQUIRE_WASM=1
# The Debian packages' test (label package) runs here, never skipped (dpkg-dev, lintian, help2man).
export PEGSOL_REQUIRE_PACKAGE=1
# Its build (the library and the command again, shared and hardened) in batches too: it was the
# Release suite's longest test, compiled file by file beside the other tests.
export PEGSOL_DEB_CMAKE_ARGS=${PEGSOL_DEB_CMAKE_ARGS:--DCMAKE_UNITY_BUILD=ON}
# and at -O1: its packages' layout, lintian's verdict and their consumers are what it tests (the
# optimized library is the Release suite's); -O3 cost it about half as much CPU time again.
export PEGSOL_DEB_OPT=${PEGSOL_DEB_OPT:--O1}
# The API reference's check (label doc) too: doxygen is installed above.
export PEGSOL_REQUIRE_DOC=1
# Unity builds (batches of a target's files compiled as one; the census tiers and the kernel
# tests stay apart) take about a third off each build here. The presets' own builds compile file
# by file, and so does the aarch64 step, so a missing include in the library still fails in CI.
# shellcheck disable=SC2016 # the inner shell expands $0
build_preset=(sh -c 'cmake --preset "$0" -DCMAKE_UNITY_BUILD=ON >/dev/null && cmake --build "build/$0"')
background release-build "${build_preset[@]}" release
# The static edition first (Debian's emscripten): the Release suite's wasm tests compare it with
# the native library and drive it in the browser (label wasm; required here, skipped elsewhere
# when it is not built).
step "wasm build (the static edition, build/wasm/site)"
# In batches, as the builds below (a fifth less CPU time than file by file).
cmake --preset wasm -DCMAKE_UNITY_BUILD=ON >/dev/null
cmake --build --preset wasm
step "release build"
finish release-build
background sanitize-build "${build_preset[@]}" sanitize
step "release tests"
# Three at a time on two cores: many tests wait part of the time (mpirun starting ranks, the
# browser, python), and none is timed but the limits test, which runs alone (RUN_SERIAL).
ctest --preset release -j3
step "sanitize build"
finish sanitize-build
background aarch64 bash scripts/cross-aarch64.sh
step "sanitize tests"
ctest --preset sanitize -j3
# The census suite again with the AVX2 kernels forced (docs/kernels.md): on an AVX-512 CPU the
# Release suite runs the avx512 tier, and only this step runs the avx2 tier's scan. The portable
# tier needs no step of its own: the sanitizer build compiles it alone, so that suite runs every
# census test on it; cli_test.sh runs an English census with PEGSOL_KERNELS=portable in the
# Release step, and the aarch64 step builds and runs it off x86-64.
step "release census tests, PEGSOL_KERNELS=avx2"
PEGSOL_KERNELS=avx2 ctest --preset release -j2 -R '^Census[.]'
step "aarch64 (cross-compiled, run under qemu)"
finish aarch64
step "fuzz (libFuzzer, the sanitize build's targets; each 5 s from its seed corpus)"
PEGSOL_FUZZ_BUILD=build/sanitize bash scripts/fuzz.sh 5
step "clang-format"
git ls-files '*.cpp' '*.hpp' '*.ipp' | xargs clang-format --dry-run -Werror
step done
times >build/ci/cpu
echo "all tests passed in $SECONDS s, CPU $(cpu_seconds build/ci/cpu) s"
