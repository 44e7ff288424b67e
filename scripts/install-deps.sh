#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian packages pegsol needs that are missing, and the npm packages of
# package-lock.json (the page's end-to-end tests); does nothing when all are there.
set -euo pipefail
packages=(g++ cmake ninja-build libcli11-dev nlohmann-json3-dev libfmt-dev libgtest-dev
  libbenchmark-dev clang-format pkg-config dpkg-dev g++-aarch64-linux-gnu qemu-user tmux
  python3-jsonschema clang libcpp-httplib-dev chromium
  libxml2-utils openmpi-bin libopenmpi-dev emscripten
  python3-dev python3-pybind11 python3-pytest python3-hypothesis lintian help2man doxygen)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node and npm for the page's end-to-end tests (a Node from elsewhere, with its own npm, will do).
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
fi
# playwright-core from the lockfile, driving /usr/bin/chromium: no browser download.
cd "$(dirname "$0")/.."
if [ ! -f node_modules/playwright-core/package.json ]; then
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
fi
