#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds pegsol's Debian packages from one shared-library build (docs/library.md, "Packages"):
#   pegsol              the command, its man pages (help2man) and docs
#   libpegsol0.2        libpegsol.so.0.2, the library
#   libpegsol-json0.2   libpegsol_json.so.0.2, the JSON of results and the JSON API (pegsol::json)
#   libpegsol-dev       headers, static libraries, CMake package and pkg-config files
# Usage: scripts/package-deb.sh [BUILD_DIR [OUT_DIR]] (defaults build/deb and BUILD_DIR/packages).
# BUILD_DIR is configured here (Release, BUILD_SHARED_LIBS=ON, prefix /usr, the multiarch libdir,
# dpkg-buildflags' hardening flags) and only the packaged targets are built; PEGSOL_DEB_CMAKE_ARGS
# adds cmake arguments, and PEGSOL_DEB_OPT (say -O1) replaces the Release build's -O3 (the test
# suite's packages: their layout, lintian and consumers are tested, the optimized code elsewhere).
# Needs dpkg-dev and help2man; no network. Reproducible: the files' times and the changelog's date
# are SOURCE_DATE_EPOCH (default: the last commit's time), owners root.
# Prints the .deb files' paths.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${1:-$src/build/deb}")
out=$(realpath -m "${2:-$build/packages}")
for tool in dpkg-deb dpkg-shlibdeps dpkg-architecture dpkg-buildflags help2man; do
  command -v "$tool" >/dev/null || { echo "package-deb.sh: $tool is missing (dpkg-dev, help2man)" >&2; exit 77; }
done
cd "$src"
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || stat -c %Y CMakeLists.txt)
fi
export SOURCE_DATE_EPOCH
export LC_ALL=C.UTF-8 TZ=UTC
umask 022
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
log=$build/package-deb.log
mkdir -p "$build"
: >"$log"
quiet() {  # quiet COMMAND...: COMMAND's output into the log, shown when it fails
  "$@" >>"$log" 2>&1 || { echo "package-deb.sh: failed: $*" >&2; tail -n 40 "$log" >&2; exit 1; }
}

# Debian's flags (hardening, the build path mapped to '.'), without -g: no debug package here.
export DEB_BUILD_MAINT_OPTIONS=hardening=+all DEB_CXXFLAGS_MAINT_STRIP=-g DEB_CFLAGS_MAINT_STRIP=-g
read -ra extra <<<"${PEGSOL_DEB_CMAKE_ARGS:-}"
if [ -n "${PEGSOL_DEB_OPT:-}" ]; then
  extra+=("-DCMAKE_CXX_FLAGS_RELEASE=$PEGSOL_DEB_OPT -DNDEBUG"
    "-DCMAKE_C_FLAGS_RELEASE=$PEGSOL_DEB_OPT -DNDEBUG")
fi
quiet cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
  -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_INSTALL_LIBDIR="lib/$multiarch" -DPEGSOL_NATIVE=OFF \
  -DPEGSOL_APPS=ON -DPEGSOL_JSON=ON -DPEGSOL_INSTALL=ON -DPEGSOL_MPI=OFF -DPEGSOL_TESTS=OFF \
  -DPEGSOL_BENCH=OFF -DPEGSOL_EXAMPLES=OFF -DPEGSOL_PYTHON=OFF \
  "-DCMAKE_CXX_FLAGS=$(dpkg-buildflags --get CPPFLAGS) $(dpkg-buildflags --get CXXFLAGS)" \
  "-DCMAKE_C_FLAGS=$(dpkg-buildflags --get CPPFLAGS) $(dpkg-buildflags --get CFLAGS)" \
  "-DCMAKE_EXE_LINKER_FLAGS=$(dpkg-buildflags --get LDFLAGS)" \
  "-DCMAKE_SHARED_LINKER_FLAGS=$(dpkg-buildflags --get LDFLAGS)" "${extra[@]}"
quiet cmake --build "$build" -j"${PEGSOL_DEB_JOBS:-2}" --target pegsol pegsol_static pegsol_json_static

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
[[ $version =~ ^([0-9]+)\.([0-9]+)\.[0-9]+$ ]] || { echo "package-deb.sh: no version" >&2; exit 1; }
major=${BASH_REMATCH[1]} minor=${BASH_REMATCH[2]}
soversion=$major
[ "$major" = 0 ] && soversion=$major.$minor
debversion=$version-1
lib=libpegsol$soversion
libjson=libpegsol-json$soversion
dev=libpegsol-dev
maintainer="pegsol maintainers <maintainers@users.noreply.a-seed-a355542f.example>"

stage=$out/stage
rm -rf "$out"
mkdir -p "$out"
# The packages' components (not the Python module's, when a build has it).
for component in Runtime Development; do
  quiet env DESTDIR="$stage" cmake --install "$build" --component "$component"
done
[ -f "$stage/usr/lib/$multiarch/libpegsol.so.$soversion" ] ||
  { echo "package-deb.sh: libpegsol.so.$soversion not installed" >&2; exit 1; }

root() { echo "$out/root/$1"; }
for p in pegsol "$lib" "$libjson" "$dev"; do
  mkdir -p "$(root "$p")/DEBIAN" "$(root "$p")/usr/share/doc/$p"
done
move() {  # move PACKAGE PATH...: staged paths (relative to the stage) into PACKAGE
  local p=$1 f
  shift
  for f in "$@"; do
    mkdir -p "$(dirname "$(root "$p")/$f")"
    mv "$stage/$f" "$(root "$p")/$f"
  done
}
L=usr/lib/$multiarch
move pegsol usr/bin/pegsol
move "$lib" "$L/libpegsol.so.$soversion" "$L/libpegsol.so.$version"
move "$libjson" "$L/libpegsol_json.so.$soversion" "$L/libpegsol_json.so.$version"
move "$dev" usr/include "$L/libpegsol.so" "$L/libpegsol_json.so" "$L/libpegsol.a" \
  "$L/libpegsol_json.a" "$L/cmake" "$L/pkgconfig"
# README and docs/ go with the command (the library's pages are among them).
mkdir -p "$(root pegsol)/usr/share/doc/pegsol"
mv "$stage"/usr/share/doc/pegsol/* "$(root pegsol)/usr/share/doc/pegsol/"
rmdir "$stage/usr/share/doc/pegsol" "$stage/usr/share/doc" "$stage/usr/share" 2>/dev/null || true
leftover=$(cd "$stage" && find . ! -type d)
[ -z "$leftover" ] || { echo "package-deb.sh: installed but not packaged: $leftover" >&2; exit 1; }

# Stripped as dh_strip does; the libraries not executable.
strip --remove-section=.comment --remove-section=.note --strip-unneeded \
  "$(root "$lib")/$L/libpegsol.so.$version" "$(root "$libjson")/$L/libpegsol_json.so.$version"
strip --remove-section=.comment --remove-section=.note "$(root pegsol)/usr/bin/pegsol"
strip --strip-debug --remove-section=.comment --remove-section=.note --enable-deterministic-archives \
  "$(root "$dev")/$L/libpegsol.a" "$(root "$dev")/$L/libpegsol_json.a"
chmod 0644 "$(root "$lib")/$L"/*.so.* "$(root "$libjson")/$L"/*.so.*

# Man pages: pegsol(1) and pegsol-SUB(1) for each subcommand, from the built command's --help.
# The build tree's command finds the build tree's libraries.
man=$(root pegsol)/usr/share/man/man1
mkdir -p "$man"
bin=$build/pegsol
wrap=$out/help2man
mkdir -p "$wrap"
subs=$("$bin" --help | awk '/^Subcommands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
[ -n "$subs" ] || { echo "package-deb.sh: no subcommands in pegsol --help" >&2; exit 1; }
page() {  # page NAME DESCRIPTION ARGS...: NAME.1.gz from `pegsol ARGS --help`
  local name=$1 what=$2
  shift 2
  cat >"$wrap/$name" <<SH
#!/bin/bash
case "\$1" in
  --version) echo "$name $version" ;;
  *) exec -a pegsol "$bin" $* --help ;;
esac
SH
  chmod +x "$wrap/$name"
  quiet help2man --no-info --no-discard-stderr --section=1 --source="pegsol $version" \
    --manual="pegsol manual" --name="$what" --output="$wrap/$name.1" "$wrap/$name"
  gzip -9n <"$wrap/$name.1" >"$man/$name.1.gz"
}
page pegsol "peg solitaire engine: solver, exact census and game"
for s in $subs; do
  what=$("$bin" --help | awk -v s="$s" '$1 == s { $1 = ""; sub(/^ +/, ""); print; exit }')
  what=$(echo "$what" | sed 's/^\(.\)/\L\1/')
  page "pegsol-$s" "$what" "$s"
done

# copyright (DEP-5), the Debian changelog and the upstream one, in each package's doc directory.
date=$(date -u -R -d "@$SOURCE_DATE_EPOCH")
for p in pegsol "$lib" "$libjson" "$dev"; do
  doc=$(root "$p")/usr/share/doc/$p
  {
    echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
    echo "Upstream-Name: pegsol"
    echo "Upstream-Contact: $maintainer"
    echo
    echo "Files: *"
    echo "Copyright: 2026 the pegsol authors"
    echo "License: MIT"
    echo
    echo "License: MIT"
    tail -n +5 LICENSE | sed -e 's/^$/./' -e 's/^/ /'
  } >"$doc/copyright"
  {
    printf 'pegsol (%s) unstable; urgency=medium\n\n' "$debversion"
    printf '  * pegsol %s: CHANGELOG.md (the upstream changelog, changelog.gz).\n' "$version"
    printf '  * The command, the shared libraries and the development files in packages of\n'
    printf '    their own, built by scripts/package-deb.sh.\n\n -- %s  %s\n\n' "$maintainer" "$date"
    # The package before this script: one .deb made by CPack (commit fca180a).
    printf 'pegsol (0.1.0) unstable; urgency=medium\n\n'
    printf '  * One package (CPack): the command, library, headers, CMake and pkg-config\n'
    printf '    files.\n\n -- %s  Tue, 24 Nov 2026 18:32:55 +0000\n' "$maintainer"
  } | gzip -9n >"$doc/changelog.Debian.gz"
  gzip -9n <CHANGELOG.md >"$doc/changelog.gz"
done

# Depends from the binaries (dpkg-shlibdeps), each library package's shlibs and ldconfig trigger.
deps=$out/shlibdeps
mkdir -p "$deps/debian"
printf 'Source: pegsol\n\nPackage: pegsol\nArchitecture: any\n' >"$deps/debian/control"
{
  echo "libpegsol $soversion $lib (>= $version)"
  echo "libpegsol_json $soversion $libjson (>= $version)"
} >"$deps/debian/shlibs.local"
echo "libpegsol $soversion $lib (>= $version)" >"$(root "$lib")/DEBIAN/shlibs"
echo "libpegsol_json $soversion $libjson (>= $version)" >"$(root "$libjson")/DEBIAN/shlibs"
for p in "$lib" "$libjson"; do
  echo "activate-noawait ldconfig" >"$(root "$p")/DEBIAN/triggers"
done
shlibdeps() {  # shlibdeps FILE...: the Depends line of these binaries
  (cd "$deps" && rm -f substvars &&
    dpkg-shlibdeps -Tsubstvars -l"$(root "$lib")/$L" -l"$(root "$libjson")/$L" "$@" >>"$log" 2>&1 &&
    sed -n 's/^shlibs:Depends=//p' substvars)
}
depends_pegsol=$(shlibdeps "$(root pegsol)/usr/bin/pegsol")
depends_lib=$(shlibdeps "$(root "$lib")/$L/libpegsol.so.$version")
depends_libjson=$(shlibdeps "$(root "$libjson")/$L/libpegsol_json.so.$version")
depends_dev="$lib (= $debversion), $libjson (= $debversion), nlohmann-json3-dev"

control() {  # control PACKAGE SECTION MULTIARCH DEPENDS SYNOPSIS DESCRIPTION...
  local p=$1 section=$2 ma=$3 depends=$4 synopsis=$5 line
  shift 5
  local size
  size=$(du -sk --apparent-size --exclude=DEBIAN "$(root "$p")" | cut -f1)
  {
    echo "Package: $p"
    echo "Source: pegsol"
    echo "Version: $debversion"
    echo "Architecture: $arch"
    echo "Multi-Arch: $ma"
    echo "Maintainer: $maintainer"
    echo "Installed-Size: $size"
    echo "Depends: $depends"
    echo "Section: $section"
    echo "Priority: optional"
    echo "Description: $synopsis"
    for line in "$@"; do
      if [ -z "$line" ]; then echo " ."; else echo " $line"; fi
    done
  } >"$(root "$p")/DEBIAN/control"
}
control pegsol math foreign "$depends_pegsol" "peg solitaire solver, exact census and analysis" \
  "pegsol solves peg solitaire problems on the English, French, Wiegleb and" \
  "diamond boards, triangles, hexagons and rectangles, and boards drawn in a" \
  "file: a solution or a proof that there is none, the exact census of every" \
  "position and game, solvability tables, the fewest moves, and the analysis of" \
  "a game (hints, the first mistake). It also plays in the terminal and serves" \
  "a page and a JSON API."
control "$lib" libs same "$depends_lib" "peg solitaire engine library" \
  "libpegsol is the C++20 library behind the pegsol command: boards, positions," \
  "the solver, the exact census, solvability tables, the fewest moves and the" \
  "analysis of a game." "" "This package holds the shared library."
control "$libjson" libs same "$depends_libjson" "peg solitaire engine library (JSON of results)" \
  "libpegsol_json gives the results of libpegsol as JSON values (nlohmann-json)" \
  "and the JSON API of pegsol's server as library calls, with a C entry point." \
  "" "This package holds the shared library."
control "$dev" libdevel same "$depends_dev" "peg solitaire engine library (development files)" \
  "libpegsol is the C++20 library behind the pegsol command: boards, positions," \
  "the solver, the exact census, solvability tables, the fewest moves and the" \
  "analysis of a game." "" \
  "This package holds the headers, the static libraries, the CMake package" \
  "(find_package(pegsol), pegsol::pegsol and pegsol::json) and the pkg-config" \
  "files (pegsol, pegsol-json)."

for p in pegsol "$lib" "$libjson" "$dev"; do
  r=$(root "$p")
  (cd "$r" && find usr -type f -print0 | sort -z | xargs -0 md5sum >DEBIAN/md5sums)
  find "$r" -type d -exec chmod 0755 {} +
  find "$r" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
  deb=$out/${p}_${debversion}_$arch.deb
  quiet dpkg-deb --root-owner-group -Zxz --build "$r" "$deb"
  echo "$deb"
done
