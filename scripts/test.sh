#!/usr/bin/env bash
# Builds and runs every test: the Release suite, then the same suite under AddressSanitizer and
# UndefinedBehaviorSanitizer, then the Release suite with the portable kernels (and its census
# tests with the AVX2 ones), then the library and examples cross-compiled for aarch64 and run under
# qemu, then each fuzz target for a few seconds (scripts/fuzz.sh), then the formatting check.
# Installs missing packages first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
for preset in release sanitize; do
  echo "== $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build build/"$preset"
  ctest --preset "$preset" -j2
done
# The same Release binaries again with the portable kernels forced (docs/kernels.md): what a CPU
# without AVX2 or AVX-512 runs.
echo "== release, PEGSOL_KERNELS=portable"
# (The limits label checks the command's edges, which do not depend on the kernels; the server
# and the page are covered by the Release run.)
PEGSOL_KERNELS=portable ctest --preset release -j2 -LE 'limits|server|web'
echo "== release census tests, PEGSOL_KERNELS=avx2"
PEGSOL_KERNELS=avx2 ctest --preset release -j2 -R 'Census'
echo "== aarch64 (cross-compiled, run under qemu)"
bash scripts/cross-aarch64.sh
echo "== fuzz (libFuzzer, clang; each target 5 s from its seed corpus)"
bash scripts/fuzz.sh 5
echo "== clang-format"
git ls-files '*.cpp' '*.hpp' '*.ipp' | xargs clang-format --dry-run -Werror
echo "all tests passed"
