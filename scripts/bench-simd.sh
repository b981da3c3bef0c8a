#!/bin/sh
# bench-simd: each kernel (tshape, tterrace, tisland, tridge, tnoise, terode)
# at each vector level this processor runs, in one thread, per CPU-second,
# with the ratio of each level to the one below. bench-simd.c is built
# against the library beside BINDIR (BINDIR/../obj/libterrapipe.a). A
# vector path that buys less than 1.3x over the level below is not worth its
# code. Figures only: nothing here passes or fails on time.
# usage: scripts/bench-simd.sh BINDIR [KERNEL]   e.g. bench-simd.sh bin tshape
set -u
bin=${1:-bin}
dir=$(cd "$(dirname "$0")" && pwd)
lib=$(cd "$bin/.." && pwd)/obj/libterrapipe.a
[ -f "$lib" ] || { echo "bench-simd: no $lib"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-bench-simd.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$dir/../lib" \
    -o "$tmp/bench-simd" "$dir/bench-simd.c" "$lib" -lm -pthread ||
    { echo "bench-simd: cannot build the harness"; exit 1; }
echo "one thread; load now: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
[ $# -gt 0 ] && shift
"$tmp/bench-simd" "$@"
