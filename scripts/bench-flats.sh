#!/bin/bash
# bench-flats: tflow's flat rules and lakes beside its nearest-edge rule,
# on the same filled grids, side by side in one run.
#
# A 4096 x 4096 noise world (tisland, terraces, erosion) filled three
# ways: the default next-float fill (few flats), --flat (every lake and
# tread a flat) and --depth (the lakes tflow levels and routes). On each,
# `tflow --flats nearest --no-lakes` (the rule tflow had before: the
# shortest way to a flat's lower edge, no lakes) and `tflow` (converging
# flats, lakes from the depth band), each run twice, the best wall time
# taken; then the ratio. Figures only: nothing here passes or fails on
# time.
# usage: scripts/bench-flats.sh BINDIR [--size N]   (default 4096)
set -u
bin=${1:-bin}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
shift || true
n=4096
while [ $# -gt 0 ]; do
	case $1 in
	--size) n=$2; shift 2 ;;
	*) echo "bench-flats: unknown argument '$1'"; exit 2 ;;
	esac
done
for p in tnoise tisland tterrace terode tfill tflow; do
	[ -x "$bin/$p" ] || { echo "bench-flats: no $bin/$p"; exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-bench-flats.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

"$bin/tnoise" -q --size ${n}x$n --seed 7 --octaves 8 --warp 0.3 |
    "$bin/tisland" --sea 0.05 | "$bin/tterrace" --steps 8 --riser 0.35 |
    "$bin/terode" -q --droplets $((n * n / 2)) > "$tmp/w.tp"
"$bin/tfill" -q < "$tmp/w.tp" > "$tmp/next.tp"
"$bin/tfill" -q --flat < "$tmp/w.tp" > "$tmp/flat.tp"
"$bin/tfill" -q --depth < "$tmp/w.tp" > "$tmp/depth.tp"

# best IN ARGS...: the best wall time of two runs of tflow -j 1 ARGS < IN
best() {
	local in=$1 t b=
	shift
	for r in 1 2; do
		t=$( { /usr/bin/time -f %e "$bin/tflow" -q -j 1 "$@" < "$in" \
		    > /dev/null; } 2>&1 | tail -1)
		b=$(awk -v a="$t" -v b="${b:-$t}" 'BEGIN { print a < b ? a : b }')
	done
	echo "$b"
}

echo "bench-flats: tflow -j 1 on a ${n}x$n eroded terrace world, $(nproc) cores, best of 2"
printf "  %-22s %12s %12s %7s\n" "filled by" "nearest (s)" "default (s)" "ratio"
for f in next flat depth; do
	a=$(best "$tmp/$f.tp" --flats nearest --no-lakes)
	b=$(best "$tmp/$f.tp")
	case $f in
	next) what="tfill" ;; flat) what="tfill --flat" ;; depth) what="tfill --depth" ;;
	esac
	awk -v w="$what" -v a="$a" -v b="$b" \
	    'BEGIN { printf "  %-22s %12.2f %12.2f %6.2fx\n", w, a, b, b / a }'
done
