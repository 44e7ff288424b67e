#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Consumers of pegsol, as a user would write them:
#   1. `cmake --install` the build tree into a temporary prefix, then build examples/ as a separate
#      project with find_package(pegsol CONFIG REQUIRED OPTIONAL_COMPONENTS json) and run them
#      (pegsol::json's example included);
#   2. compile a one-file program with `pkg-config --cflags --libs pegsol` against that prefix;
#   3. configure a project that does add_subdirectory(<source dir>) and links pegsol::pegsol, with
#      the front ends' packages (CLI11, fmt, nlohmann-json) and GTest made unfindable, and compile
#      its source (the library itself is not rebuilt: that is the slow part);
# With --package (ctest -L package), the Debian packages instead: scripts/package-deb.sh builds
# them from a shared build of its own (BUILD_DIR/deb), each passes lintian with no error and no
# warning, and after `dpkg -x` into a scratch root: the installed pegsol runs, its libpegsol.so
# exports no internals, and consumers build against the installed files (pkg-config and the
# shared library, C++20 and C++23; find_package and examples/; the static library inside a
# shared object). Exit 77 (skipped) when dpkg-deb, lintian or help2man is missing, unless
# PEGSOL_REQUIRE_PACKAGE=1 (CI).
# Usage: consumer_test.sh [--package] BUILD_DIR SOURCE_DIR GENERATOR. The compiler is $CXX
# (default c++).
set -euo pipefail
package=0
if [ "${1:-}" = --package ]; then
  package=1
  shift
fi
build=$1 source=$2 generator=$3
cxx=${CXX:-c++}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
step() { echo "== $*"; }
quiet() {  # quiet LOG COMMAND...: runs COMMAND into LOG, shown when the command fails
  local log=$1
  shift
  "$@" >>"$log" 2>&1 || { echo "FAIL: $*"; cat "$log"; exit 1; }
}
run() {  # run OUT COMMAND...: COMMAND's output into OUT; it must exit 0
  local out=$1
  shift
  "$@" >"$out" 2>&1 || { echo "FAIL: status $? from $*"; cat "$out"; exit 1; }
}
expect() {  # expect PATTERN FILE: FILE must hold PATTERN
  grep -q -- "$1" "$2" || { echo "FAIL: no '$1' in the output:"; cat "$2"; exit 1; }
}

# The public headers exactly: include/ and the build's generated ones, none of the internal ones
# in src/. check_headers INCLUDE_DIR.
check_headers() {
  if ! diff <( (cd "$source/include" && find . -type f
    printf './pegsol/%s\n' export.hpp json_export.h version_macros.hpp) | sort) \
    <(cd "$1" && find . -type f | sort); then
    echo "FAIL: the installed headers are not include/ and the generated ones (< expected, > installed)"
    exit 1
  fi
}
# The program of the pkg-config steps: solves triangle:5 and prints the version both ways.
cat >"$tmp/pc.cpp" <<'CPP'
#include <iostream>

#include "pegsol/catalogue.hpp"
#include "pegsol/solve.hpp"
#include "pegsol/version.hpp"

int main() {
  const pegsol::Problem p = pegsol::default_problem(pegsol::make_board("triangle:5"));
  const pegsol::SolveResult r = pegsol::solve(p);
  std::cout << pegsol::status_name(r.status) << ' ' << r.moves.size() << '\n';
  std::cout << "version " << pegsol::version() << ' ' << PEGSOL_VERSION_STRING << ' '
            << PEGSOL_VERSION_MAJOR << '.' << PEGSOL_VERSION_MINOR << '.' << PEGSOL_VERSION_PATCH
            << '\n';
  return r.status == pegsol::Status::Solved && pegsol::version() == PEGSOL_VERSION_STRING ? 0 : 1;
}
CPP

if [ "$package" = 1 ]; then
  for tool in dpkg-deb dpkg-shlibdeps lintian help2man pkg-config; do
    if ! command -v "$tool" >/dev/null; then
      [ "${PEGSOL_REQUIRE_PACKAGE:-0}" = 1 ] && { echo "FAIL: $tool is missing"; exit 1; }
      echo "SKIP: $tool is missing (scripts/install-deps.sh installs it)"
      exit 77
    fi
  done
  multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
  step "scripts/package-deb.sh into $build/deb"
  "$source/scripts/package-deb.sh" "$build/deb" "$tmp/debs" >"$tmp/debs.list" ||
    { echo "FAIL: package-deb.sh"; cat "$tmp/debs.list"; exit 1; }
  cat "$tmp/debs.list"
  [ "$(wc -l <"$tmp/debs.list")" = 4 ] || { echo "FAIL: not four packages"; exit 1; }
  step "lintian: no error, no warning (informational tags listed)"
  while read -r deb; do
    lintian --fail-on error,warning --display-info "$deb" >"$tmp/lintian.out" 2>&1 ||
      { echo "FAIL: lintian $deb"; cat "$tmp/lintian.out"; exit 1; }
    if grep -q '^[EW]:' "$tmp/lintian.out"; then
      echo "FAIL: lintian $deb"
      cat "$tmp/lintian.out"
      exit 1
    fi
    echo "$(basename "$deb"): $(grep -c '^I:' "$tmp/lintian.out" || true) informational tags"
    cat "$tmp/lintian.out"
    dpkg-deb -x "$deb" "$tmp/root"
  done <"$tmp/debs.list"
  root=$tmp/root
  libdir=$root/usr/lib/$multiarch
  for f in usr/bin/pegsol usr/share/man/man1/pegsol.1.gz usr/share/man/man1/pegsol-solve.1.gz \
    usr/share/doc/pegsol/copyright usr/share/doc/pegsol/changelog.Debian.gz \
    usr/lib/$multiarch/cmake/pegsol/pegsolConfig.cmake usr/lib/$multiarch/pkgconfig/pegsol.pc \
    usr/lib/$multiarch/libpegsol.a usr/lib/$multiarch/libpegsol.so; do
    [ -e "$root/$f" ] || { echo "FAIL: $f is in no package"; exit 1; }
  done
  check_headers "$root/usr/include"
  export LD_LIBRARY_PATH=$libdir

  step "the installed pegsol"
  run "$tmp/deb.out" "$root/usr/bin/pegsol" solve --no-draw
  expect "solved in 31 moves" "$tmp/deb.out"
  readelf -d "$root/usr/bin/pegsol" >"$tmp/needed.out"
  expect "libpegsol.so.[0-9]" "$tmp/needed.out"
  zcat "$root/usr/share/man/man1/pegsol-count.1.gz" >"$tmp/man.out"
  expect "spill" "$tmp/man.out"

  step "libpegsol.so exports the public API alone"
  nm -DC --defined-only "$libdir"/libpegsol.so.*.* >"$tmp/nm.out"
  expect "pegsol::solve(" "$tmp/nm.out"
  if grep -E "census_detail|solve_detail|beam_detail|WorkerPool" "$tmp/nm.out" | head -5 |
    grep .; then
    echo "FAIL: internals exported from libpegsol.so"
    exit 1
  fi

  step "pkg-config: the installed shared library, C++20 and C++23"
  export PKG_CONFIG_PATH=$libdir/pkgconfig
  flags=$(pkg-config --cflags --libs pegsol)
  echo "pkg-config --cflags --libs pegsol: $flags"
  case " $flags " in *" -std="*) echo "FAIL: pegsol.pc sets the standard"; exit 1 ;; esac
  # shellcheck disable=SC2086 # the flags are words
  "$cxx" -std=c++20 "$tmp/pc.cpp" -o "$tmp/pc20" $flags
  readelf -d "$tmp/pc20" >"$tmp/needed.out"
  expect "libpegsol.so.[0-9]" "$tmp/needed.out"
  run "$tmp/pc.out" "$tmp/pc20"
  expect "solved 13" "$tmp/pc.out"
  expect "version $(pkg-config --modversion pegsol) $(pkg-config --modversion pegsol)" "$tmp/pc.out"
  printf '#include "pegsol/solve.hpp"\nstatic_assert(__cplusplus > 202002L);\nint main() {}\n' \
    >"$tmp/pc23.cpp"
  # shellcheck disable=SC2086
  "$cxx" -std=c++23 "$tmp/pc23.cpp" -o "$tmp/pc23" $flags
  # Below C++20 the headers stop with their message.
  # shellcheck disable=SC2086
  if "$cxx" -std=c++17 "$tmp/pc.cpp" -o "$tmp/pc17" $flags >"$tmp/pc17.out" 2>&1; then
    echo "FAIL: the headers compiled as C++17"
    exit 1
  fi
  expect "pegsol needs C++20" "$tmp/pc17.out"

  step "find_package: examples/ against the installed packages"
  quiet "$tmp/examples.log" cmake -S "$source/examples" -B "$tmp/examples" -G "$generator" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$root/usr"
  quiet "$tmp/examples.log" cmake --build "$tmp/examples"
  run "$tmp/solve.out" "$tmp/examples/pegsol_example_solve"
  expect "solved in 31 moves" "$tmp/solve.out"
  run "$tmp/json.out" "$tmp/examples/pegsol_example_json"
  expect '"result":{"board":"triangle:5"' "$tmp/json.out"

  step "the static library inside a shared object"
  cat >"$tmp/plugin.cpp" <<'CPP'
#include "pegsol/catalogue.hpp"
#include "pegsol/solve.hpp"

extern "C" int plugin_moves(const char* board) {
  const pegsol::SolveResult r = pegsol::solve(pegsol::default_problem(pegsol::make_board(board)));
  return r.status == pegsol::Status::Solved ? static_cast<int>(r.moves.size()) : -1;
}
CPP
  printf '#include <cstdio>\nextern "C" int plugin_moves(const char*);\nint main() { std::printf("plugin %%d\\n", plugin_moves("english")); }\n' \
    >"$tmp/host.cpp"
  "$cxx" -std=c++20 -fPIC -shared -I"$root/usr/include" "$tmp/plugin.cpp" -o "$tmp/libplugin.so" \
    "$libdir/libpegsol.a" -pthread
  readelf -d "$tmp/libplugin.so" >"$tmp/needed.out"
  if grep -q "libpegsol" "$tmp/needed.out"; then
    echo "FAIL: the plugin needs a shared libpegsol"
    exit 1
  fi
  "$cxx" "$tmp/host.cpp" -o "$tmp/host" -L"$tmp" -lplugin -Wl,-rpath,"$tmp"
  run "$tmp/host.out" env -u LD_LIBRARY_PATH "$tmp/host"
  expect "plugin 31" "$tmp/host.out"
  echo "package: all passed"
  exit 0
fi

step "install into $prefix"
quiet "$tmp/install.log" cmake --install "$build" --prefix "$prefix"
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$build/CMakeCache.txt")
for f in "$libdir/cmake/pegsol/pegsolConfig.cmake" "$libdir/pkgconfig/pegsol.pc" \
  "$libdir/pkgconfig/pegsol-json.pc" include/pegsol/solve.hpp include/pegsol/export.hpp \
  include/pegsol/version_macros.hpp; do
  [ -f "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
check_headers "$prefix/include"

# The Python module, when the build has it: `cmake --install` puts it under the prefix's
# lib/python3/dist-packages, and python3 imports it from there (the issue's first example).
if grep -q '^PEGSOL_PYTHON:BOOL=ON' "$build/CMakeCache.txt" && [ -d "$build/python" ]; then
  step "import pegsol from the installed module"
  pydir=$(sed -n 's/^PEGSOL_PYTHON_INSTALL_DIR:STRING=//p' "$build/CMakeCache.txt")
  ls "$prefix/$pydir"/pegsol*.so >/dev/null 2>&1 || { echo "FAIL: no module in $prefix/$pydir"; exit 1; }
  run "$tmp/python.out" env PYTHONPATH="$prefix/$pydir" python3 -c 'import pegsol
print(pegsol.__file__)
print(pegsol.solve(board="triangle:5", start="4", end="4").to_json()["status"])'
  expect "^$prefix/$pydir/pegsol" "$tmp/python.out"
  expect "^solved$" "$tmp/python.out"
fi

step "find_package: examples/ against the installed package"
quiet "$tmp/examples.log" cmake -S "$source/examples" -B "$tmp/examples" -G "$generator" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix"
quiet "$tmp/examples.log" cmake --build "$tmp/examples"
run "$tmp/solve.out" "$tmp/examples/pegsol_example_solve"
expect "solved in 31 moves" "$tmp/solve.out"
expect "replay ok" "$tmp/solve.out"
run "$tmp/count.out" "$tmp/examples/pegsol_example_count"
expect "solutions: 29760" "$tmp/count.out"
expect "games: 568630" "$tmp/count.out"
run "$tmp/play.out" "$tmp/examples/pegsol_example_play"
expect "one peg left after" "$tmp/play.out"
expect "pegsol game" "$tmp/play.out"
# The tutorial's analysis (docs/library.md): the ways from the start are count's solutions.
run "$tmp/analysis.out" "$tmp/examples/pegsol_example_analysis"
expect "first mistake: move 5, 9-7" "$tmp/analysis.out"
expect "0 start: solvable, 29760 ways left" "$tmp/analysis.out"
expect "5 9-7: not solvable" "$tmp/analysis.out"
run "$tmp/threads.out" "$tmp/examples/pegsol_example_threads"
expect "two solves at once: solved and solved, 31 moves each, the same" "$tmp/threads.out"
expect "census: stopped, cancelled" "$tmp/threads.out"
# The json component: pegsolConfig.cmake found nlohmann-json and loaded pegsol::json.
run "$tmp/json.out" "$tmp/examples/pegsol_example_json"
expect '"result":{"board":"triangle:5"' "$tmp/json.out"
expect "no hole named 'z9'" "$tmp/json.out"

step "pkg-config: one file"
# pegsol.pc sets no standard (the headers need C++20: the consumer chooses it).
flags=$(PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig pkg-config --cflags --libs pegsol)
echo "pkg-config --cflags --libs pegsol: $flags"
# shellcheck disable=SC2086 # the flags are words
"$cxx" -std=c++20 "$tmp/pc.cpp" -o "$tmp/pc" $flags
run "$tmp/pc.out" "$tmp/pc"
expect "solved 13" "$tmp/pc.out"

step "pkg-config: pegsol-json"
cat >"$tmp/pcj.cpp" <<'CPP'
#include <iostream>

#include "pegsol/catalogue.hpp"
#include "pegsol/json.hpp"
#include "pegsol/solve.hpp"

int main() {
  const pegsol::Problem p = pegsol::default_problem(pegsol::make_board("triangle:5"));
  std::cout << pegsol::solve_json(p, pegsol::solve(p)).dump() << '\n';
}
CPP
flags=$(PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig pkg-config --cflags --libs pegsol-json)
echo "pkg-config --cflags --libs pegsol-json: $flags"
# shellcheck disable=SC2086 # the flags are words
"$cxx" -std=c++20 "$tmp/pcj.cpp" -o "$tmp/pcj" $flags
run "$tmp/pcj.out" "$tmp/pcj"
expect '"status":"solved"' "$tmp/pcj.out"

step "add_subdirectory: the library alone"
mkdir -p "$tmp/sub"
cat >"$tmp/sub/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.22)
project(consumer LANGUAGES CXX)
add_subdirectory("$source" pegsol)
add_executable(app app.cpp)
target_link_libraries(app PRIVATE pegsol::pegsol)
foreach(target IN ITEMS pegsol pegsol_json pegsol_unit_tests pegsol_gbench pegsol_example_solve)
  if(TARGET \${target})
    message(FATAL_ERROR "add_subdirectory(pegsol) built \${target}: only the library was wanted")
  endif()
endforeach()
CMAKE
cp "$tmp/pc.cpp" "$tmp/sub/app.cpp"
# Unused variables are the point here: the library never looks for those packages.
quiet "$tmp/sub.log" cmake -S "$tmp/sub" -B "$tmp/sub/build" -G "$generator" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" --no-warn-unused-cli \
  -DCMAKE_DISABLE_FIND_PACKAGE_CLI11=ON -DCMAKE_DISABLE_FIND_PACKAGE_fmt=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON
# Compiling app.cpp shows that pegsol::pegsol carries the include directory and C++20.
if [[ $generator == Ninja* ]]; then
  quiet "$tmp/sub.log" cmake --build "$tmp/sub/build" --target CMakeFiles/app.dir/app.cpp.o
else
  quiet "$tmp/sub.log" cmake --build "$tmp/sub/build" --target app
fi

echo "consumers: all passed"
