#!/usr/bin/env bash
# Installs what is missing (Debian packages only), builds pegsol in Release and runs the main job:
# `pegsol solve` on its default problem (the English central game).
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(g++ cmake ninja-build libcli11-dev nlohmann-json3-dev libfmt-dev libgtest-dev libbenchmark-dev)
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
cmake --preset release -G Ninja >/dev/null
cmake --build build/release --target pegsol
./build/release/pegsol solve
