#!/usr/bin/env bash
# Builds and runs every test: the Release suite, then the same suite under AddressSanitizer and
# UndefinedBehaviorSanitizer, then the formatting check. Installs missing packages first.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(g++ cmake ninja-build libcli11-dev nlohmann-json3-dev libfmt-dev libgtest-dev libbenchmark-dev clang-format)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
fi
for preset in release sanitize; do
  echo "== $preset"
  cmake --preset "$preset" -G Ninja >/dev/null
  cmake --build build/"$preset"
  ctest --preset "$preset" -j2
done
echo "== clang-format"
git ls-files '*.cpp' '*.hpp' | xargs clang-format --dry-run -Werror
echo "all tests passed"
