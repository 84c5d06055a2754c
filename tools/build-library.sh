#!/usr/bin/env bash
# Builds libdrumlin.so, the C library, exactly as it ships: every build of it (make, CMake, the
# Python package) goes through this script.
#
#   tools/build-library.sh [extra `swift build` arguments, e.g. --scratch-path DIR]
#
# - The Swift runtime is linked statically (-static-stdlib): the library needs only libc, libm,
#   libstdc++, libgcc_s and libsqlite3 at run time, and no RUNPATH points into a toolchain.
# - SONAME libdrumlin.so.<DRUMLIN_ABI_VERSION> (from include/drumlin.h); the symlink of that name is
#   made beside the library, so programs linked against it run from the build tree.
# - Only the drumlin_* functions are exported (tools/libdrumlin.map).
# - The product includes Sources/DrumlinLinkCompat, which binds the runtime's one glibc 2.35 symbol
#   (hypotf) to its oldest version: the library needs glibc 2.34 (docs/packaging.md). Its C is
#   compiled with DWARF 4 debug info, which valgrind 3.19 (Debian 12) reads; it rejects DWARF 5.
# Prints the library's path as its last line.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
abi=$(sed -n 's/^#define DRUMLIN_ABI_VERSION[[:space:]]\{1,\}\([0-9]\{1,\}\).*/\1/p' "$root/include/drumlin.h")
if [ -z "$abi" ]; then
    echo "build-library.sh: no DRUMLIN_ABI_VERSION in $root/include/drumlin.h" >&2
    exit 1
fi
flags=(-c release --package-path "$root"
       -Xswiftc -static-stdlib
       -Xlinker "-soname=libdrumlin.so.$abi"
       -Xlinker "--version-script=$root/tools/libdrumlin.map"
       -Xcc -gdwarf-4
       "$@")
swift build --product drumlin "${flags[@]}" >&2
bin=$(swift build --show-bin-path "${flags[@]}")
ln -sf libdrumlin.so "$bin/libdrumlin.so.$abi"
echo "$bin/libdrumlin.so"
