#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what is missing (Debian packages only), builds pegsol in Release and runs the main job:
# `pegsol solve` on its default problem (the English central game).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build build/release --target pegsol
./build/release/pegsol solve
