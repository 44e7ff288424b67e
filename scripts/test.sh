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
# Each step's wall time, so that CI's budget can be read off the log.
step_start=$SECONDS
step_name=
step() {
  [ -n "$step_name" ] && echo "-- $step_name: $((SECONDS - step_start)) s"
  step_name=$1
  step_start=$SECONDS
  echo "== $1"
}
step install-deps
bash scripts/install-deps.sh
# The static edition first (Debian's emscripten): the Release suite's wasm tests compare it with
# the native library and drive it in the browser (label wasm; required here, skipped elsewhere
# when it is not built).
step "wasm build (the static edition, build/wasm/site)"
# In batches, as the builds below (a fifth less CPU time than file by file).
cmake --preset wasm -DCMAKE_UNITY_BUILD=ON >/dev/null
cmake --build --preset wasm
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
for preset in release sanitize; do
  step "$preset build"
  # Unity builds (batches of a target's files compiled as one; the census tiers and the kernel
  # tests stay apart) take about a third off each build here. The presets' own builds compile
  # file by file, and so does the aarch64 step, so a missing include in the library still fails
  # in CI.
  cmake --preset "$preset" -DCMAKE_UNITY_BUILD=ON >/dev/null
  cmake --build build/"$preset"
  step "$preset tests"
  # Three at a time on two cores: many tests wait part of the time (mpirun starting ranks, the
  # browser, python), and none is timed but the limits test, which runs alone (RUN_SERIAL).
  ctest --preset "$preset" -j3
done
# The census suite again with the AVX2 kernels forced (docs/kernels.md): on an AVX-512 CPU the
# Release suite runs the avx512 tier, and only this step runs the avx2 tier's scan. The portable
# tier needs no step of its own: the sanitizer build compiles it alone, so that suite runs every
# census test on it; cli_test.sh runs an English census with PEGSOL_KERNELS=portable in the
# Release step, and the aarch64 step builds and runs it off x86-64.
step "release census tests, PEGSOL_KERNELS=avx2"
PEGSOL_KERNELS=avx2 ctest --preset release -j2 -R '^Census[.]'
step "aarch64 (cross-compiled, run under qemu)"
bash scripts/cross-aarch64.sh
step "fuzz (libFuzzer, the sanitize build's targets; each 5 s from its seed corpus)"
PEGSOL_FUZZ_BUILD=build/sanitize bash scripts/fuzz.sh 5
step "clang-format"
git ls-files '*.cpp' '*.hpp' '*.ipp' | xargs clang-format --dry-run -Werror
step done
echo "all tests passed in $SECONDS s"
