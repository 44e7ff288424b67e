#!/usr/bin/env bash
# Builds and runs every test: the Release suite, then the same suite under AddressSanitizer and
# UndefinedBehaviorSanitizer, then the Release suite with the portable kernels (and its census
# tests with the AVX2 ones), then the library and examples cross-compiled for aarch64 and run under
# qemu, then each fuzz target for a few seconds (scripts/fuzz.sh), then the formatting check.
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
for preset in release sanitize; do
  step "$preset build"
  cmake --preset "$preset" >/dev/null
  cmake --build build/"$preset"
  step "$preset tests"
  ctest --preset "$preset" -j2
done
# The same Release binaries again with the portable kernels forced (docs/kernels.md): what a CPU
# without AVX2 or AVX-512 runs.
step "release, PEGSOL_KERNELS=portable"
# (The limits label checks the command's edges, which do not depend on the kernels; the server
# and the page are covered by the Release run, and so is pegsol-mpi, which uses no kernels.)
PEGSOL_KERNELS=portable ctest --preset release -j2 -LE 'limits|server|web|mpi'
step "release census tests, PEGSOL_KERNELS=avx2"
PEGSOL_KERNELS=avx2 ctest --preset release -j2 -R 'Census'
step "aarch64 (cross-compiled, run under qemu)"
bash scripts/cross-aarch64.sh
step "fuzz (libFuzzer, clang; each target 5 s from its seed corpus)"
bash scripts/fuzz.sh 5
step "clang-format"
git ls-files '*.cpp' '*.hpp' '*.ipp' | xargs clang-format --dry-run -Werror
step done
echo "all tests passed in $SECONDS s"
