#!/bin/sh
# bench-texture: ttexture's modes in numbers on a flat ground: repetition
# (autocorrelation at whole texture periods; plain 1, the others below
# 0.3), contrast at the hex triangles' centres and edges (hex-vp 1 within
# 5%, hex-linear lower), speed on 2 threads (hex-vp within 4x plain, iq
# within 2.5x). bench-texture.c is built against the library beside
# BINDIR. Figures only: nothing here passes or fails on time.
# usage: scripts/bench-texture.sh BINDIR
set -u
bin=${1:-bin}
dir=$(cd "$(dirname "$0")" && pwd)
lib=$(cd "$bin/.." && pwd)/obj/libterrapipe.a
[ -f "$lib" ] || { echo "bench-texture: no $lib"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-bench-texture.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
    -I"$dir/../lib" -o "$tmp/bench-texture" "$dir/bench-texture.c" "$lib" \
    $(pkg-config --libs libpng 2>/dev/null || echo -lpng) -lm -pthread ||
    { echo "bench-texture: cannot build the harness"; exit 1; }
echo "2 threads; load now: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
"$tmp/bench-texture"
