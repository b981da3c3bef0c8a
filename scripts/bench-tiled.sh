#!/bin/bash
# bench-tiled: tiled depression filling.
#
# 1. Threads: tfill -j 1 against -j 2 on a 4096 x 4096 rough grid (fill
#    time from --verbose, best of 2), the same bytes.
# 1b. Border levels: the tiles' border cells in lakes and how many distinct
#    levels they take with --flat (one per lake) and the default rule
#    (scripts/border-levels.py; needs numpy).
# 2. Phases: the grid cut into 4, 16 and 64 tiles; per phase the wall time
#    (phases of many tiles run one process at a time, so wall = the sum),
#    CPU seconds, the largest peak RSS of one process, and the bytes that
#    cross between phases (edge files, levels).
# 2b. Flow: the filled grid's tiled flow accumulation (tflow's phases) at
#    4, 16 and 64 tiles beside the whole-grid tflow: wall, CPU, peak RSS
#    per process, edge and solve bytes, the same bytes as tflow.
#    Part 2 also prepares and solves each tiling with --flat, whose solve
#    runs on the tiles' ring graphs.
# 3. Scale: a SIZE x SIZE grid (default 32768: 4 GiB of float32) made by
#    tnoise straight into tiles of 4096, filled tiled (and its --flat
#    prepare and solve, the solve reading edge files only), then its flow
#    accumulated tiled from the filled tiles; each process's peak RSS
#    against 2 GiB; wall time and cells/s beside the whole-grid tfill and
#    tflow at 8192 x 8192.
# Figures only: nothing here passes or fails on time.
# usage: scripts/bench-tiled.sh BINDIR [--size N] [--quick]
#   --size N   the scale run's side (e.g. 8192 to keep CI short)
#   --quick    parts 1 and 2 at 2048 and no scale run
set -u
bin=${1:-bin}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
shift || true
size=32768 quick=0
while [ $# -gt 0 ]; do
	case $1 in
	--size) size=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	*) echo "bench-tiled: unknown argument '$1'"; exit 2 ;;
	esac
done
for p in tfill tflow tnoise ttile tmosaic; do
	[ -x "$bin/$p" ] || { echo "bench-tiled: no $bin/$p"; exit 1; }
done
[ -x /usr/bin/time ] || { echo "bench-tiled: needs /usr/bin/time"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-bench-tiled.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=4096
[ $quick = 1 ] && n=2048

# fill_time OPTS: the fill phase's wall seconds from --verbose, best of 2.
fill_time() {
	local best="" t
	for i in 1 2; do
		t=$("$bin/tfill" -v "$@" < "$tmp/g.tp" 2>&1 >"$tmp/o.tp" |
		    sed -n 's/.*fill \([0-9.]*\) s (cpu \([0-9.]*\) s).*/\1 \2/p')
		[ -z "$best" ] || awk -v a="${t% *}" -v b="${best% *}" 'BEGIN { exit !(a < b) }' && best=$t
	done
	echo "$best"
}

"$bin/tnoise" -q --size ${n}x$n --seed 7 --octaves 10 --cellsize 30 > "$tmp/g.tp"
echo "bench-tiled: ${n}x$n rough grid (tnoise, 10 octaves), $(nproc) cores"
t1=$(fill_time -j 1)
cp "$tmp/o.tp" "$tmp/j1.tp"
t2=$(fill_time -j 2)
cmp -s <(tail -c $((n * n * 4)) "$tmp/j1.tp") <(tail -c $((n * n * 4)) "$tmp/o.tp") && same=yes || same=NO
echo "  tfill -j 1: fill ${t1% *} s (cpu ${t1#* } s)"
echo "  tfill -j 2: fill ${t2% *} s (cpu ${t2#* } s), tiles of 1024: $(awk -v a="${t1% *}" -v b="${t2% *}" 'BEGIN { printf "%.2f", a / b }')x faster, same bytes: $same"

# What the solve must pass across tile edges under each rule.
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
	"$bin/tfill" -q --flat < "$tmp/g.tp" > "$tmp/flat.tp"
	/usr/bin/python3 "$(dirname "$0")/border-levels.py" "$tmp/g.tp" "$tmp/j1.tp" \
	    "$tmp/flat.tp" $((n / 2)) $((n / 4)) $((n / 8)) | sed 's/^/  /'
	rm -f "$tmp/flat.tp"
fi

me=bench-tiled
. "$(dirname "$0")/phase-timing.sh"

echo "  phases, one process at a time (whole-grid tfill: fill ${t1% *} s)"
for ts in $((n / 2)) $((n / 4)) $((n / 8)); do
	d=$tmp/t$ts
	rm -f "$tmp"/*.log
	run_phase "$tmp/cut.log" sh -c "'$bin/ttile' -q -s $ts '$d' < '$tmp/g.tp'"
	for f in "$d"/r*.tp; do run_phase "$tmp/prep.log" sh -c "'$bin/tfill' --tile-prepare '$f' > '$f.edge'"; done
	run_phase "$tmp/solve.log" sh -c "'$bin/tfill' -v --tile-solve '$d/manifest' > '$d/levels' 2> '$tmp/solve.err'"
	for f in "$d"/r*.tp; do run_phase "$tmp/fin.log" sh -c "'$bin/tfill' --tile-finish '$d/levels' '$f' > '$f.filled'"; done
	run_phase "$tmp/mos.log" sh -c "'$bin/tmosaic' -q --suffix .filled '$d/manifest' > '$tmp/m.tp'"
	cmp -s <(tail -c $((n * n * 4)) "$tmp/j1.tp") <(tail -c $((n * n * 4)) "$tmp/m.tp") && same=yes || same=NO
	edges=$(cat "$d"/*.edge | wc -c)
	echo "  $(ls "$d"/r*.tp | grep -c 'tp$') tiles of $ts: $(sed 's/^tfill: //' "$tmp/solve.err"); edge files $((edges / 1024)) KiB, levels $(($(wc -c < "$d/levels") / 1024)) KiB; same bytes as tfill: $same"
	report ttile "$tmp/cut.log"
	report prepare "$tmp/prep.log"
	report solve "$tmp/solve.log"
	report finish "$tmp/fin.log"
	report tmosaic "$tmp/mos.log"
	# the flat rule: prepare adds each tile's ring graph, the solve reads
	# only the edge files
	for f in "$d"/r*.tp; do run_phase "$tmp/fprep.log" sh -c "'$bin/tfill' --flat --tile-prepare '$f' > '$f.edge'"; done
	run_phase "$tmp/fsolve.log" sh -c "'$bin/tfill' -v --flat --tile-solve '$d/manifest' > '$d/levels' 2> '$tmp/solve.err'"
	echo "    --flat: $(sed 's/^tfill: //' "$tmp/solve.err"); edge files $(($(cat "$d"/*.edge | wc -c) / 1024)) KiB"
	report prepare "$tmp/fprep.log"
	report solve "$tmp/fsolve.log"
	rm -rf "$d" "$tmp/fprep.log" "$tmp/fsolve.log"
done

# 2b. Flow on the filled grid, whole and in tiles.
rm -f "$tmp"/*.log
run_phase "$tmp/fwhole.log" sh -c "'$bin/tflow' -q -j 1 < '$tmp/j1.tp' > '$tmp/fw.tp'"
awk '{ printf "  whole-grid tflow -j 1 on the filled grid: wall %.2f s  cpu %.2f s  peak RSS %.1f MiB\n", $1, $2, $3 / 1024 }' "$tmp/fwhole.log"
fbytes=$((n * n * 12))
for ts in $((n / 2)) $((n / 4)) $((n / 8)); do
	d=$tmp/f$ts
	rm -f "$tmp"/*.log
	"$bin/ttile" -q -s $ts "$d" < "$tmp/j1.tp"
	for f in "$d"/r*.tp; do run_phase "$tmp/prep.log" sh -c "'$bin/tflow' --tile-prepare '$f' > '$f.fedge'"; done
	run_phase "$tmp/solve.log" sh -c "'$bin/tflow' --tile-solve '$d/manifest' > '$d/flow.solve'"
	for f in "$d"/r*.tp; do run_phase "$tmp/fin.log" sh -c "'$bin/tflow' --tile-finish '$d/flow.solve' '$f' > '$f.flowed'"; done
	"$bin/tmosaic" -q --suffix .flowed "$d/manifest" > "$tmp/m.tp"
	cmp -s <(tail -c $fbytes "$tmp/fw.tp") <(tail -c $fbytes "$tmp/m.tp") && same=yes || same=NO
	echo "  flow, $(ls "$d"/r*.tp | grep -c 'tp$') tiles of $ts: edge files $(($(cat "$d"/*.fedge | wc -c) / 1024)) KiB, solve $(($(wc -c < "$d/flow.solve") / 1024)) KiB; same bytes as tflow: $same"
	report prepare "$tmp/prep.log"
	report solve "$tmp/solve.log"
	report finish "$tmp/fin.log"
	rm -rf "$d"
done
[ $quick = 1 ] && exit 0

# 3. Scale.
w=8192
"$bin/tnoise" -q --size ${w}x$w --seed 7 --octaves 10 --cellsize 30 > "$tmp/g.tp"
rm -f "$tmp"/*.log
run_phase "$tmp/whole.log" sh -c "'$bin/tfill' < '$tmp/g.tp' > '$tmp/o.tp'"
run_phase "$tmp/fwhole8.log" sh -c "'$bin/tflow' < '$tmp/o.tp' > /dev/null"
rm -f "$tmp/g.tp" "$tmp/o.tp"
awk -v n=$w '{ printf "  whole-grid tfill %dx%d: wall %.1f s, %.1f Mcells/s, peak RSS %.0f MiB\n", n, n, $1, n * n / $1 / 1e6, $3 / 1024 }' "$tmp/whole.log"
awk -v n=$w '{ printf "  whole-grid tflow %dx%d: wall %.1f s, cpu %.1f s, %.1f Mcells/s, peak RSS %.0f MiB\n", n, n, $1, $2, n * n / $1 / 1e6, $3 / 1024 }' "$tmp/fwhole8.log"
d=$tmp/big
run_phase "$tmp/bcut.log" sh -c "'$bin/tnoise' -q --size ${size}x$size --seed 7 --octaves 10 --cellsize 30 | '$bin/ttile' -q -s 4096 '$d'"
for f in "$d"/r*.tp; do run_phase "$tmp/bprep.log" sh -c "'$bin/tfill' --tile-prepare '$f' > '$f.edge'"; done
run_phase "$tmp/bsolve.log" sh -c "'$bin/tfill' -v --tile-solve '$d/manifest' > '$d/levels' 2> '$tmp/solve.err'"
# The flat rule's solve on the same tiles: ring graphs, no tile read.
for f in "$d"/r*.tp; do run_phase "$tmp/gprep.log" sh -c "'$bin/tfill' --flat --tile-prepare '$f' > '$f.gedge'"; done
mkdir "$d/g"
for f in "$d"/r*.tp; do mv "$f.gedge" "$d/g/$(basename "$f").edge"; done
cp "$d/manifest" "$d/g/" && ln "$d/r0_c0.tp" "$d/g/r0_c0.tp"
run_phase "$tmp/gsolve.log" sh -c "'$bin/tfill' -v --flat --tile-solve '$d/g/manifest' > /dev/null 2> '$tmp/gsolve.err'"
echo "  --flat at ${size}x$size: $(sed 's/^tfill: //' "$tmp/gsolve.err"); edge files $(($(cat "$d"/g/*.edge | wc -c) / 1048576)) MiB"
report prepare "$tmp/gprep.log"
report solve "$tmp/gsolve.log"
rm -rf "$d/g"
for f in "$d"/r*.tp; do
	run_phase "$tmp/bfin.log" sh -c "'$bin/tfill' --tile-finish '$d/levels' '$f' > '$f.filled'"
	rm -f "$f"
done
run_phase "$tmp/bmos.log" sh -c "'$bin/tmosaic' -q --suffix .filled '$d/manifest' | '$bin/tinfo' --no-hist > '$tmp/info'"
echo "  tiled tfill ${size}x$size in tiles of 4096, one process at a time: $(sed 's/^tfill: //' "$tmp/solve.err")"
report "tnoise|ttile" "$tmp/bcut.log"
report prepare "$tmp/bprep.log"
report solve "$tmp/bsolve.log"
report finish "$tmp/bfin.log"
report "tmosaic|tinfo" "$tmp/bmos.log"
cat "$tmp/bprep.log" "$tmp/bsolve.log" "$tmp/bfin.log" | awk -v n=$size '
    { w += $1; if ($3 > r) r = $3 }
    END { printf "  fill phases: wall %.1f s, %.1f Mcells/s on one core, largest process %.0f MiB (%s 2 GiB)\n",
	w, n * n / w / 1e6, r / 1024, r < 2097152 ? "under" : "OVER" }'

# 3b. Flow at scale, from the filled tiles (r*.tp.filled) as they are.
for f in "$d"/r*.tp.filled; do run_phase "$tmp/fprep.log" sh -c "'$bin/tflow' --tile-prepare '$f' > '$f.fedge'"; done
run_phase "$tmp/fsolve.log" sh -c "'$bin/tflow' --suffix .filled --tile-solve '$d/manifest' > '$d/flow.solve'"
# (a tile's finish reads its neighbours' edges: the filled tiles stay)
for f in "$d"/r*.tp.filled; do run_phase "$tmp/ffin.log" sh -c "'$bin/tflow' --tile-finish '$d/flow.solve' '$f' > '$f.flowed'"; done
run_phase "$tmp/fmos.log" sh -c "'$bin/tmosaic' -q --suffix .filled.flowed '$d/manifest' | '$bin/tinfo' --no-hist > '$tmp/finfo'"
echo "  tiled tflow ${size}x$size from the filled tiles, one process at a time: flow at most $(awk '/^band flow/ { f = 1 } f && $1 == "max" { print $2; exit }' "$tmp/finfo") cells"
report prepare "$tmp/fprep.log"
report solve "$tmp/fsolve.log"
report finish "$tmp/ffin.log"
report "tmosaic|tinfo" "$tmp/fmos.log"
cat "$tmp/fprep.log" "$tmp/fsolve.log" "$tmp/ffin.log" | awk -v n=$size '
    { w += $1; c += $2; if ($3 > r) r = $3 }
    END { printf "  flow phases: wall %.1f s, cpu %.1f s, %.1f Mcells/s a CPU second, largest process %.0f MiB (%s 2 GiB)\n",
	w, c, n * n / c / 1e6, r / 1024, r < 2097152 ? "under" : "OVER" }'
