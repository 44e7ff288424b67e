#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The licence's check (label licence): LICENSE is the MIT licence of "the pegsol authors", and
# every tracked source file (code, build and script files) names it with an SPDX line in its
# first lines. Lists the files missing it and fails. Exit 77 (skipped) outside a git checkout.
# Usage: licence_test.sh SOURCE_DIR
set -euo pipefail
cd "$1"
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "not a git checkout: skipped"
  exit 77
fi
status=0
if ! grep -q '^MIT License$' LICENSE || ! grep -q 'Copyright (c) .* the pegsol authors' LICENSE; then
  echo "LICENSE: not the MIT licence of the pegsol authors"
  status=1
fi
missing=0
while IFS= read -r f; do
  [ -f "$f" ] || continue
  if ! head -n 3 "$f" | grep -q 'SPDX-License-Identifier: MIT'; then
    echo "$f: no SPDX-License-Identifier: MIT line in its first three lines"
    missing=$((missing + 1))
  fi
done < <(git ls-files '*.cpp' '*.hpp' '*.ipp' '*.c' '*.h' '*.py' '*.sh' '*.js' '*.mjs' '*.cmake' \
  '*.in' 'CMakeLists.txt' '*/CMakeLists.txt' '*.css' '*.html')
[ "$missing" -eq 0 ] || status=1
echo "$(git ls-files '*.cpp' '*.hpp' '*.py' '*.sh' | wc -l) code files checked, $missing without the line"
exit $status
