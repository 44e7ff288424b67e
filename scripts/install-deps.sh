#!/usr/bin/env bash
# Installs the Debian packages pegsol needs that are missing; does nothing when all are there.
set -euo pipefail
packages=(g++ cmake ninja-build libcli11-dev nlohmann-json3-dev libfmt-dev libgtest-dev
  libbenchmark-dev clang-format pkg-config dpkg-dev g++-aarch64-linux-gnu qemu-user tmux
  libxml2-utils)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
