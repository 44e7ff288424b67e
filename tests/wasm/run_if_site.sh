#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs a test of the static edition when its site is built: run_if_site.sh SITE COMMAND [ARGS...].
# Without the site: skipped (77), or failed when PEGSOL_REQUIRE_WASM is set (CI builds it first).
site=$1
shift
if [ ! -f "$site/pegsol.wasm" ]; then
  if [ -n "${PEGSOL_REQUIRE_WASM:-}" ]; then
    echo "no static edition at $site (cmake --preset wasm && cmake --build --preset wasm)" >&2
    exit 1
  fi
  echo "skipped: no static edition at $site (cmake --preset wasm && cmake --build --preset wasm)"
  exit 77
fi
exec "$@"
