#!/bin/bash
# bench-flowflat: tflow's tile phases on flats that cross tile edges.
#
# A rough grid (tnoise, 10 octaves) filled with tfill --flat, so its lakes
# are flat and many cross tile edges; the whole-grid tflow -j 1 beside the
# tile phases (one process at a time, so wall = the sum) at 16 and 64
# tiles: wall, CPU and the largest peak RSS per phase, the bytes of the
# edge and solve files, the tiles that send their flats, the same bytes.
# --flats RULE passes tflow's rule for flats to every run (the default
# rule carries a second distance across tiles: compare the two).
# Figures only: nothing here passes or fails on time.
# usage: scripts/bench-flowflat.sh BINDIR [--size N] [--flats RULE]
#   (default 4096, tflow's default rule)
set -u
bin=${1:-bin}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
shift || true
n=4096 fl=
while [ $# -gt 0 ]; do
	case $1 in
	--size) n=$2; shift 2 ;;
	--flats) fl="--flats $2"; shift 2 ;;
	*) echo "bench-flowflat: unknown argument '$1'"; exit 2 ;;
	esac
done
for p in tfill tflow tnoise ttile tmosaic; do
	[ -x "$bin/$p" ] || { echo "bench-flowflat: no $bin/$p"; exit 1; }
done
[ -x /usr/bin/time ] || { echo "bench-flowflat: needs /usr/bin/time"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-bench-flowflat.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

me=bench-flowflat
. "$(dirname "$0")/phase-timing.sh"

"$bin/tnoise" -q --size ${n}x$n --seed 7 --octaves 10 --cellsize 30 |
    "$bin/tfill" -q --flat > "$tmp/g.tp"
echo "bench-flowflat: ${n}x$n rough grid filled with tfill --flat, $(nproc) cores${fl:+, tflow $fl}"
run_phase "$tmp/whole.log" sh -c "'$bin/tflow' $fl -q -j 1 < '$tmp/g.tp' > '$tmp/w.tp'"
awk '{ printf "  whole-grid tflow -j 1: wall %.2f s  cpu %.2f s  peak RSS %.1f MiB\n", $1, $2, $3 / 1024 }' "$tmp/whole.log"
fbytes=$((n * n * 8))
for ts in $((n / 4)) $((n / 8)); do
	d=$tmp/f$ts
	rm -f "$tmp"/p.log "$tmp"/s.log "$tmp"/f.log
	"$bin/ttile" -q -s $ts "$d" < "$tmp/g.tp"
	for f in "$d"/r*.tp; do run_phase "$tmp/p.log" sh -c "'$bin/tflow' $fl --tile-prepare '$f' > '$f.fedge'"; done
	run_phase "$tmp/s.log" sh -c "'$bin/tflow' --tile-solve '$d/manifest' > '$d/flow.solve'"
	for f in "$d"/r*.tp; do run_phase "$tmp/f.log" sh -c "'$bin/tflow' $fl --tile-finish '$d/flow.solve' '$f' > '$f.flowed'"; done
	"$bin/tmosaic" -q --suffix .flowed "$d/manifest" > "$tmp/m.tp"
	cmp -s <(tail -c $fbytes "$tmp/w.tp") <(tail -c $fbytes "$tmp/m.tp") && same=yes || same=NO
	nt=$(ls "$d"/r*.tp | grep -c 'tp$')
	flat=$(for f in "$d"/r*.tp.fedge; do head -1 "$f"; done | awk '$NF == 1' | wc -l)
	echo "  $nt tiles of $ts ($flat send their flats): edge files $(($(cat "$d"/*.fedge | wc -c) / 1024)) KiB, solve $(($(wc -c < "$d/flow.solve") / 1024)) KiB; same bytes as tflow: $same"
	report prepare "$tmp/p.log"
	report solve "$tmp/s.log"
	report finish "$tmp/f.log"
	awk -v w="$(awk '{ print $1 }' "$tmp/whole.log")" '{ s += $1 } END { if (w > 0) printf "    phases / whole: %.2fx wall\n", s / w }' "$tmp/p.log" "$tmp/s.log" "$tmp/f.log"
	rm -rf "$d"
done
