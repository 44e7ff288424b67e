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
#   4. with the command built and dpkg-deb at hand: cpack's .deb holds the command, library, headers,
#      CMake package and pkg-config file, and its pegsol runs after `dpkg -x` into a scratch root.
# Usage: consumer_test.sh BUILD_DIR SOURCE_DIR GENERATOR. The compiler is $CXX (default c++).
set -euo pipefail
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

step "install into $prefix"
quiet "$tmp/install.log" cmake --install "$build" --prefix "$prefix"
for f in lib/cmake/pegsol/pegsolConfig.cmake lib/pkgconfig/pegsol.pc lib/pkgconfig/pegsol-json.pc \
  include/pegsol/solve.hpp; do
  [ -f "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
# The public headers exactly: none of the internal ones in src/.
if ! diff <(cd "$source/include" && find . -type f | sort) \
  <(cd "$prefix/include" && find . -type f | sort); then
  echo "FAIL: the installed headers are not include/ (< source, > installed)"
  exit 1
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
# The json component: pegsolConfig.cmake found nlohmann-json and loaded pegsol::json.
run "$tmp/json.out" "$tmp/examples/pegsol_example_json"
expect '"result":{"board":"triangle:5"' "$tmp/json.out"
expect "no hole named 'z9'" "$tmp/json.out"

step "pkg-config: one file"
cat >"$tmp/pc.cpp" <<'CPP'
#include <iostream>

#include "pegsol/catalogue.hpp"
#include "pegsol/solve.hpp"

int main() {
  const pegsol::Problem p = pegsol::default_problem(pegsol::make_board("triangle:5"));
  const pegsol::SolveResult r = pegsol::solve(p);
  std::cout << pegsol::status_name(r.status) << ' ' << r.moves.size() << '\n';
  return r.status == pegsol::Status::Solved ? 0 : 1;
}
CPP
flags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs pegsol)
echo "pkg-config --cflags --libs pegsol: $flags"
# shellcheck disable=SC2086 # the flags are words
"$cxx" "$tmp/pc.cpp" -o "$tmp/pc" $flags
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
flags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs pegsol-json)
echo "pkg-config --cflags --libs pegsol-json: $flags"
# shellcheck disable=SC2086 # the flags are words
"$cxx" "$tmp/pcj.cpp" -o "$tmp/pcj" $flags
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

if [ -x "$prefix/bin/pegsol" ] && command -v dpkg-deb >/dev/null; then
  step "cpack: the .deb"
  quiet "$tmp/cpack.log" cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp/deb"
  deb=$(echo "$tmp"/deb/pegsol_*.deb)
  dpkg-deb -c "$deb" >"$tmp/deb.list"
  for f in usr/bin/pegsol usr/lib/libpegsol usr/lib/libpegsol_json usr/include/pegsol/json.hpp \
    usr/include/pegsol/solve.hpp \
    usr/lib/cmake/pegsol/pegsolConfig.cmake usr/lib/cmake/pegsol/pegsolTargets.cmake \
    usr/lib/pkgconfig/pegsol.pc usr/share/doc/pegsol/README.md; do
    expect "$f" "$tmp/deb.list"
  done
  dpkg -x "$deb" "$tmp/root"
  run "$tmp/deb.out" "$tmp/root/usr/bin/pegsol" solve --no-draw
  expect "solved in 31 moves" "$tmp/deb.out"
fi

echo "consumers: all passed"
