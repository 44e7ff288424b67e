#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The API reference's check (label doc): Doxygen with the build's Doxyfile (cmake/Doxyfile.in)
# and warnings as errors, over the public headers given (all of the Doxyfile's INPUT when none
# are), must pass: every public declaration documented, no broken command, each header with its
# @file block (without one, Doxygen checks none of its macros), each namespace documented
# (without it, none of its functions). First it shows that the check can
# fail: the same run with a scratch header beside them, one declaration of which is undocumented,
# must fail naming it. Exit 77 (skipped) when doxygen is missing, unless PEGSOL_REQUIRE_DOC=1 (CI).
# Usage: doc_test.sh DOXYFILE [HEADER...]
set -euo pipefail
doxyfile=$1
shift
if ! command -v doxygen >/dev/null; then
  [ "${PEGSOL_REQUIRE_DOC:-0}" = 1 ] && { echo "FAIL: doxygen is missing"; exit 1; }
  echo "SKIP: doxygen is missing (scripts/install-deps.sh installs it)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -gt 0 ]; then
  headers=("$@")
else
  # The Doxyfile's INPUT: one quoted path a line.
  mapfile -t headers < <(sed -n '/^INPUT *=/,/[^\\]$/p' "$doxyfile" | grep -o '"[^"]*"' | tr -d '"')
fi
[ ${#headers[@]} -gt 0 ] || { echo "FAIL: no header to check"; exit 1; }
echo "doxygen $(doxygen --version), ${#headers[@]} headers"

# doxy OUT HEADER...: Doxygen with the Doxyfile, warnings as errors, over HEADER..., into OUT/;
# its warnings in OUT.log. Returns Doxygen's status.
doxy() {
  local out=$1
  shift
  local input=()
  for h in "$@"; do input+=("\"$h\""); done
  { cat "$doxyfile"
    echo "INPUT = ${input[*]}"
    echo "OUTPUT_DIRECTORY = $out"
    echo "WARN_AS_ERROR = FAIL_ON_WARNINGS"
  } | doxygen - >"$out.log" 2>&1
}

for h in "${headers[@]}"; do
  [ -f "$h" ] || { echo "FAIL: $h does not exist"; exit 1; }
  case $h in
    *.h | *.hpp) grep -Eq '[@\\]file\b' "$h" || { echo "FAIL: $h has no @file block"; exit 1; } ;;
  esac
done

# The check fails on an undocumented declaration.
cat >"$tmp/scratch.hpp" <<'CPP'
/// @file
/// A header with one undocumented declaration.
#pragma once

namespace pegsol {
/// Documented.
int scratch_documented();
int scratch_undocumented();
}  // namespace pegsol
CPP
if doxy "$tmp/scratch" "${headers[@]}" "$tmp/scratch.hpp"; then
  echo "FAIL: Doxygen passed a header with an undocumented declaration"
  cat "$tmp/scratch.log"
  exit 1
fi
grep -q "scratch_undocumented.*is not documented" "$tmp/scratch.log" ||
  { echo "FAIL: the undocumented declaration is not named:"; cat "$tmp/scratch.log"; exit 1; }
if grep "scratch_documented()" "$tmp/scratch.log"; then
  echo "FAIL: the documented declaration is reported"
  exit 1
fi
echo "a scratch header's undocumented declaration fails the check, as it should"

# The public headers: no warning at all.
if ! doxy "$tmp/doc" "${headers[@]}" || grep -q . "$tmp/doc.log"; then
  echo "FAIL: Doxygen's warnings on the public headers (every public declaration wants a \`///\`):"
  cat "$tmp/doc.log"
  exit 1
fi
# Doxygen says nothing of the functions and enums of an undocumented namespace (nor makes its
# page): each namespace the headers open must have its page. A name opened inside `pegsol`
# (`namespace layout_detail {` within it) has its page as pegsol::NAME.
while read -r ns; do
  page=namespace$(printf '%s' "$ns" | sed 's/_/__/g; s/::/_1_1/g').html
  [ -f "$tmp/doc/html/$page" ] || [ -f "$tmp/doc/html/namespacepegsol_1_1${page#namespace}" ] || {
    echo "FAIL: namespace $ns is not documented (its members go unchecked)"
    exit 1
  }
done < <(sed -n 's/^namespace \([A-Za-z_][A-Za-z0-9_:]*\) {.*/\1/p' "${headers[@]}" | sort -u)
echo "doc: every public declaration of the ${#headers[@]} headers documented"
