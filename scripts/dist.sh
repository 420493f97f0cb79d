#!/usr/bin/env bash
# make dist: a self-contained esmsim for Linux x86-64: the Swift runtime and Foundation linked
# statically (--static-swift-stdlib), GNU GSL and SQLite from their static libraries, built for
# the baseline x86-64 (no -target-cpu: any x86-64 runs it; the Philox AVX2 path is chosen at
# run time), stripped, in dist/esmsim-VERSION-linux-x86_64.tar.gz with the licence, a README
# and a SHA-256 checksum. Prints the tarball's size and the glibc it needs.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=.build/dist
PC="$BUILD/pkgconfig"
mkdir -p "$PC" dist
# SwiftPM links a system library with what pkg-config says: here, .pc files that name the
# static archives (-l:libgsl.a), and the modules' own autolinking of the shared ones is off.
for lib in gsl gslcblas sqlite3; do
  [ -f "$(gcc -print-file-name="lib$lib.a")" ] || { echo "dist: lib$lib.a not found (install libgsl-dev and libsqlite3-dev: make deps)" >&2; exit 1; }
done
printf 'Name: GSL\nDescription: GNU GSL, static archives (make dist)\nVersion: 2\nLibs: -l:libgsl.a -l:libgslcblas.a -lm\nCflags:\n' >"$PC/gsl.pc"
printf 'Name: SQLite\nDescription: SQLite, static archive (make dist)\nVersion: 3\nLibs: -l:libsqlite3.a\nCflags:\n' >"$PC/sqlite3.pc"
noauto=()
for lib in gsl gslcblas sqlite3; do
  noauto+=(-Xswiftc -Xfrontend -Xswiftc -disable-autolink-library -Xswiftc -Xfrontend -Xswiftc "$lib")
done
rm -f "$BUILD/release/esmsim" "$BUILD/x86_64-unknown-linux-gnu/release/esmsim"  # never package a stale binary
PKG_CONFIG_PATH="$PWD/$PC" swift build -c release --product esmsim --build-path "$BUILD" --static-swift-stdlib \
  "${noauto[@]}" -Xswiftc -DESMSIM_DIST 2>&1 | grep -E "error|Build" >&2 || true
binary="$BUILD/release/esmsim"
[ -x "$binary" ] || { echo "dist: the build failed" >&2; exit 1; }
if ldd "$binary" | grep -Eq "libswift|libFoundation|libgsl|libsqlite"; then
  echo "dist: the binary still links a shared Swift, GSL or SQLite library:" >&2
  ldd "$binary" >&2
  exit 1
fi
version=$("$binary" --version | cut -d' ' -f1)
name="esmsim-$version-linux-x86_64"
stage="$BUILD/$name"
rm -rf "$stage"
mkdir -p "$stage"
strip -o "$stage/esmsim" "$binary"
cp LICENSE "$stage/LICENSE"
# The example scenarios and the example pilot, as the R and Python packages ship them.
mkdir -p "$stage/scenarios"
cp scenarios/*.yaml scenarios/pilot-example.csv "$stage/scenarios/"
glibc=$(objdump -T "$stage/esmsim" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)
cat > "$stage/README.md" <<README
# esmsim $version for Linux x86-64

A simulator of experience-sampling (ESM/EMA) studies: https://github.com/ (see the project's
README). This build runs without Swift, GNU GSL or SQLite installed: the Swift runtime,
Foundation, GSL and SQLite are linked in. It needs Linux on x86-64 with glibc ${glibc#GLIBC_}
or later (objdump -T shows $glibc as the newest symbol version it uses).

    tar xzf $name.tar.gz
    $name/esmsim run $name/scenarios/quickstart.yaml --output results

The scenarios/ folder holds the example scenarios (quickstart.yaml first) and an example pilot
to calibrate on: $name/esmsim calibrate $name/scenarios/pilot-example.csv --format csv

esmsim is free software under the GNU General Public License, version 3 or later (LICENSE).
It includes GNU GSL (GPL-3.0-or-later) and SQLite (public domain); the Swift runtime and
Foundation are under the Apache License 2.0 with the Runtime Library Exception.
README
tar -C "$BUILD" -czf "dist/$name.tar.gz" "$name"
(cd dist && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
echo "dist: dist/$name.tar.gz, $(du -k "dist/$name.tar.gz" | cut -f1) KiB (binary $(du -k "$stage/esmsim" | cut -f1) KiB); needs $glibc; $("$stage/esmsim" --version)"
