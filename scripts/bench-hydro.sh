#!/bin/bash
# bench-hydro: tfill and tflow beside GRASS and SAGA.
#
# 1. Correctness on the real DEM (tests/data/jacksboro_fault_dem.tif):
#    tfill --flat against SAGA Planchon-Darboux (MINSLOPE 0) and GRASS
#    r.fill.dir repeated until it changes nothing: cells raised and the
#    largest height difference; tfill's default against --flat.
# 2. Speed on a 4096 x 4096 rough DEM (tnoise, 10 octaves, 30 m cells):
#    tfill and tflow, each twice, algorithm time (wall and CPU, from
#    --verbose) apart from reading and writing, whole-run wall time and
#    peak RSS against the grid's bytes; GRASS r.fill.dir (one pass) and
#    SAGA Planchon-Darboux on its 1024 x 1024 corner, where they take
#    seconds; SAGA Wang & Liu and GRASS r.watershed -s at 4096 (--quick
#    skips SAGA and r.watershed). GIS figures are the tool's whole run (import, algorithm,
#    export: they expose no algorithm time), so their ratios flatter them.
# 3. tflow --order --basins on the same 4096 x 4096 grid against tflow
#    alone, medians of 2 runs, and the same bytes on -j 1 and -j 2.
# Figures only: nothing here passes or fails on time. CPU seconds are the
# steadier figure on a shared machine.
# Takes 3 to 6 minutes on 2 cores (--quick: about one).
# usage: scripts/bench-hydro.sh BINDIR [--quick]
set -u
bin=${1:-bin}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
quick=0
[ "${2:-}" = --quick ] && quick=1
PY=/usr/bin/python3
root=$(cd "$(dirname "$0")/.." && pwd)
dem=$root/tests/data/jacksboro_fault_dem.tif
for p in tfill tflow tnoise timport tgeotiff tcrop; do
	[ -x "$bin/$p" ] || { echo "bench-hydro: no $bin/$p"; exit 1; }
done
[ -x /usr/bin/time ] || { echo "bench-hydro: needs /usr/bin/time"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-bench-hydro.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export GDAL_PAM_ENABLED=NO
have_saga=0 have_grass=0
command -v saga_cmd >/dev/null 2>&1 && have_saga=1
command -v grass >/dev/null 2>&1 && have_grass=1

# --- 1. the real DEM ------------------------------------------------------
"$bin/timport" "$dem" > "$tmp/jb.tp" || { echo "bench-hydro: cannot read $dem"; exit 1; }
"$bin/tfill" --flat < "$tmp/jb.tp" > "$tmp/jb-flat.tp"
"$bin/tfill" < "$tmp/jb.tp" > "$tmp/jb-next.tp"
echo "bench-hydro: real DEM $(basename "$dem") (403 x 344, EPSG:4326)"
# compare NAME FILE: raised cells and height differences against tfill.
compare() {
	"$PY" - "$dem" "$2" "$tmp/jb-flat.tp" "$tmp/jb-next.tp" "$1" <<'PYEOF'
import sys, numpy as np
from osgeo import gdal
def stream(p):
    d = open(p, "rb").read(); i = d.index(b"\nENDHDR\n") + 8
    h = dict(l.split(" ", 1) for l in d[:i].decode().splitlines()[1:-1])
    w, hh = int(h["WIDTH"]), int(h["HEIGHT"]); nb = len(h["BANDS"].split())
    return np.frombuffer(d[i:], "<f4").reshape(hh, nb, w)[:, 0, :]
o = gdal.Open(sys.argv[1]).ReadAsArray().astype(np.float64)
g = gdal.Open(sys.argv[2]).ReadAsArray().astype(np.float64)
f = stream(sys.argv[3])
print("  %-24s raised %d cells, tfill --flat %d: same cells %s, max |height"
      " difference| %g m" % (sys.argv[5], (g > o).sum(), (f > o).sum(),
      bool(((g > o) == (f > o)).all()), np.abs(g - f).max()))
PYEOF
}
"$PY" - "$tmp/jb.tp" "$tmp/jb-flat.tp" "$tmp/jb-next.tp" <<'PYEOF'
import sys, numpy as np
def stream(p):
    d = open(p, "rb").read(); i = d.index(b"\nENDHDR\n") + 8
    h = dict(l.split(" ", 1) for l in d[:i].decode().splitlines()[1:-1])
    w, hh = int(h["WIDTH"]), int(h["HEIGHT"]); nb = len(h["BANDS"].split())
    return np.frombuffer(d[i:], "<f4").reshape(hh, nb, w)[:, 0, :]
o, f, n = (stream(p) for p in sys.argv[1:4])
steps = n.view(np.int32).astype(np.int64) - f.view(np.int32).astype(np.int64)
print("  tfill --flat raises %d cells; tfill (next float) %d (all of --flat's:"
      " %s), at most %d float steps = %.2g m above --flat" % ((f > o).sum(),
      (n > o).sum(), bool((~(f > o) | (n > o)).all()), steps.max(),
      (n - f).max()))
PYEOF
if [ $have_saga = 1 ]; then
	saga_cmd -f=q ta_preprocessor 3 -DEM "$dem" -RESULT "$tmp/saga.sdat" \
	    -MINSLOPE 0 >/dev/null 2>&1 &&
	    compare "SAGA Planchon-Darboux" "$tmp/saga.sdat"
else
	echo "  skip SAGA (saga_cmd not installed)"
fi
if [ $have_grass = 1 ]; then
	cat > "$tmp/fill.sh" <<'EOF'
r.in.gdal -o input="$1" output=dem --quiet && g.region raster=dem || exit 1
cur=dem
for i in 1 2 3 4 5 6 7 8 9 10; do
	r.fill.dir input=$cur output=f$i direction=d$i --quiet
	r.mapcalc "c$i = f$i != $cur" --quiet
	n=$(r.univar -g map=c$i | sed -n 's/^sum=//p'); cur=f$i
	[ "$n" = 0 ] && break
done
echo "$i" > "$3"
r.out.gdal input=$cur output="$2" format=GTiff type=Float64 --quiet -c
EOF
	grass --tmp-location EPSG:4326 --exec bash "$tmp/fill.sh" "$dem" \
	    "$tmp/grass.tif" "$tmp/passes" >/dev/null 2>&1 &&
	    compare "GRASS r.fill.dir x$(cat "$tmp/passes")" "$tmp/grass.tif"
else
	echo "  skip GRASS (grass not installed)"
fi

# --- 2. speed ---------------------------------------------------------------
N=4096
echo "bench-hydro: making a ${N}x$N rough DEM (tnoise -O 10, 30 m cells)"
"$bin/tnoise" -q -s ${N}x$N -S 7 -O 10 -c 30 --crs EPSG:32633 > "$tmp/big.tp"
"$bin/tfill" < "$tmp/big.tp" > "$tmp/big-filled.tp"
grid_mib=$(( N * N * 4 / 1048576 ))

# stage PROG ARGS: twice; phase times from --verbose, wall and RSS from time.
stage() {
	local prog=$1 in=$2 i; shift 2
	for i in 1 2; do
		/usr/bin/time -f '%e %M' -o "$tmp/t" "$bin/$prog" -v "$@" \
		    < "$in" > /dev/null 2> "$tmp/v"
		read -r wall rss < "$tmp/t"
		printf '  %s run %d: %s\n    whole run %s s wall, peak RSS %d MiB = %.2fx the grid (%d MiB)\n' \
		    "$prog $*" $i "$(sed 's/^[a-z]*: //' "$tmp/v")" "$wall" \
		    $((rss / 1024)) "$(echo "$rss $grid_mib" | awk '{print $1 / 1024 / $2}')" \
		    $grid_mib
		sed -n 's/.*fill \([0-9.]*\) s (cpu \([0-9.]*\) s.*/\1 \2/p; s/.*directions \([0-9.]*\) s (cpu \([0-9.]*\) s), accumulation \([0-9.]*\) s (cpu \([0-9.]*\) s).*/\1 \2 \3 \4/p' \
		    "$tmp/v" >> "$tmp/$prog.times"
	done
}
: > "$tmp/tfill.times"; : > "$tmp/tflow.times"
echo "bench-hydro: ${N}x$N"
stage tfill "$tmp/big.tp"
stage tflow "$tmp/big-filled.tp" -j 1
stage tflow "$tmp/big-filled.tp"
# best of the runs (the least disturbed), wall and CPU
read -r fw fc <<< "$(sort -n "$tmp/tfill.times" | head -1)"
read -r dw dc aw ac <<< "$(awk '{ print $1 + $3, $2 + $4, $0 }' "$tmp/tflow.times" | sort -n | head -1 | cut -d' ' -f3-)"
tw=$(echo "$dw $aw" | awk '{print $1 + $2}')
tc=$(echo "$dc $ac" | awk '{print $1 + $2}')
awk -v fw="$fw" -v fc="$fc" -v tw="$tw" -v tc="$tc" -v n=$((N * N)) 'BEGIN {
	printf "  tfill algorithm, best run: %.2f s wall (%.1f Mcells/s), %.2f s CPU (%.1f Mcells/s);\n", fw, n / fw / 1e6, fc, n / fc / 1e6
	printf "    RichDEM Priority-Flood+epsilon 3.6 s: %.1fx (wall), %.1fx (CPU)\n", 3.6 / fw, 3.6 / fc
	printf "  tflow algorithm (directions + accumulation), best run: %.2f s wall, %.2f s CPU;\n", tw, tc
	printf "    RichDEM D8 + accumulation 2.2 s: %.1fx (wall), %.1fx (CPU)\n", 2.2 / tw, 2.2 / tc
}'

# --- 3. stream order and basins ------------------------------------------------
# tflow --rivers with --order --basins against the same without them, and
# against plain tflow: medians of 2 runs (the mean of the two) of the whole
# run (wall and CPU, from time) and of the algorithm (directions,
# accumulation, order and basins: wall and CPU from --verbose); the bytes
# on 1 and 2 threads compared.
# hydro_runs NAME ARGS...: 2 runs of tflow ARGS; the medians, "wall cpu
# algo-wall algo-cpu", in $tmp/NAME.med.
hydro_runs() {
	local name=$1 i; shift
	: > "$tmp/$name.runs"
	for i in 1 2; do
		/usr/bin/time -f '%e %U %S' -o "$tmp/t" "$bin/tflow" -v "$@" \
		    < "$tmp/big-filled.tp" > /dev/null 2> "$tmp/v"
		echo "$(cat "$tmp/t") $(sed 's/.*directions \([0-9.]*\) s (cpu \([0-9.]*\) s), accumulation \([0-9.]*\) s (cpu \([0-9.]*\) s)\(, order and basins \([0-9.]*\) s (cpu \([0-9.]*\) s)\)\{0,1\}.*/\1 \2 \3 \4 \6 \7/' "$tmp/v")" |
		    awk '{ print $1, $2 + $3, $4 + $6 + $8, $5 + $7 + $9 }' >> "$tmp/$name.runs"
	done
	awk '{ for (i = 1; i <= 4; i++) m[i] += $i / 2 }
	    END { printf "%.2f %.2f %.3f %.3f\n", m[1], m[2], m[3], m[4] }' \
	    "$tmp/$name.runs" > "$tmp/$name.med"
	printf '  tflow %s: median whole run %s s wall, %s s CPU; algorithm %s s wall, %s s CPU\n' \
	    "$*" $(cat "$tmp/$name.med")
}
echo "bench-hydro: ${N}x$N stream order and basins (medians of 2 runs)"
hydro_runs plain -q
hydro_runs rivers -q -r 100
hydro_runs full -q -r 100 --order --basins
# ratio A B: B's four figures over A's
ratio() {
	paste -d' ' "$tmp/$1.med" "$tmp/$2.med" | awk '{
		printf "whole run %.2fx wall, %.2fx CPU; algorithm %.2fx wall, %.2fx CPU\n",
		    $5 / $1, $6 / $2, $7 / $3, $8 / $4 }'
}
echo "  --order --basins over tflow -r 100: $(ratio rivers full)"
echo "  --order --basins over plain tflow:  $(ratio plain full)"
"$bin/tflow" -q -j 1 -r 100 --order --basins < "$tmp/big-filled.tp" > "$tmp/j1.tp"
"$bin/tflow" -q -j 2 -r 100 --order --basins < "$tmp/big-filled.tp" > "$tmp/j2.tp"
cmp -s "$tmp/j1.tp" "$tmp/j2.tp" && echo "  -j 1 and -j 2: same bytes" ||
    echo "  -j 1 and -j 2: DIFFERENT bytes"
rm -f "$tmp/j1.tp" "$tmp/j2.tp"

# gis LABEL RUNS CMD...: RUNS times, wall seconds of the whole command;
# gis_last = the best.
gis() {
	local label=$1 runs=$2 i all=""; shift 2
	for i in $(seq 1 "$runs"); do
		/usr/bin/time -f '%e' -o "$tmp/g" "$@" >/dev/null 2>&1 ||
		    { echo "  $label: failed"; return 1; }
		all="$all $(cat "$tmp/g")"
	done
	echo "  $label:$(echo "$all" | sed 's/ /, /g; s/^, / /') s (whole run)"
	gis_last=$(echo "$all" | tr ' ' '\n' | sed '/^$/d' | sort -n | head -1)
}
M=1024
"$bin/tcrop" -w 0,0,$M,$M < "$tmp/big.tp" > "$tmp/small.tp"
"$bin/tgeotiff" "$tmp/small.tif" < "$tmp/small.tp"
"$bin/tgeotiff" "$tmp/big.tif" < "$tmp/big.tp"
: > "$tmp/st"
for i in 1 2; do
	"$bin/tfill" -v < "$tmp/small.tp" 2>&1 >/dev/null |
	    sed -n 's/.*fill \([0-9.]*\) s.*/\1/p' >> "$tmp/st"
done
small=$(sort -n "$tmp/st" | head -1)
echo "bench-hydro: ${M}x$M corner; tfill algorithm $(tr '\n' ' ' < "$tmp/st")s"
if [ $have_grass = 1 ]; then
	cat > "$tmp/g1.sh" <<'EOF'
r.in.gdal -o input="$1" output=dem --quiet && g.region raster=dem || exit 1
/usr/bin/time -f '%e' -o "$2" r.fill.dir input=dem output=f direction=d --quiet
EOF
	for i in 1 2; do
		grass --tmp-location EPSG:32633 --exec bash "$tmp/g1.sh" \
		    "$tmp/small.tif" "$tmp/rf$i" >/dev/null 2>&1
	done
	echo "  GRASS r.fill.dir, one pass (module only): $(cat "$tmp/rf1") s, $(cat "$tmp/rf2") s;" \
	    "tfill is $(awk -v a="$(cat "$tmp/rf1" "$tmp/rf2" | sort -n | head -1)" -v b="$small" 'BEGIN { printf "%.0f", a / b }')x faster"
fi
if [ $have_saga = 1 ] && [ $quick = 0 ]; then
	# once: about a minute on a rough DEM
	gis "SAGA Planchon-Darboux (once)" 1 saga_cmd -f=q ta_preprocessor 3 \
	    -DEM "$tmp/small.tif" -RESULT "$tmp/s.sdat" -MINSLOPE 0 &&
	    echo "    tfill is $(awk -v a="$gis_last" -v b="$small" 'BEGIN { printf "%.0f", a / b }')x faster"
fi
if [ $quick = 1 ]; then
	echo "bench-hydro: --quick: skipped SAGA Planchon-Darboux, SAGA Wang & Liu and GRASS r.watershed"
	exit 0
fi
echo "bench-hydro: ${N}x$N GIS tools"
if [ $have_saga = 1 ]; then
	gis "SAGA Fill Sinks XXL (Wang & Liu)" 2 saga_cmd -f=q ta_preprocessor 5 \
	    -ELEV "$tmp/big.tif" -FILLED "$tmp/wl.sdat" -MINSLOPE 0 &&
	    echo "    tfill algorithm is $(awk -v a="$gis_last" -v b="$fw" 'BEGIN { printf "%.1f", a / b }')x faster"
fi
if [ $have_grass = 1 ]; then
	cat > "$tmp/g2.sh" <<'EOF'
r.in.gdal -o input="$1" output=dem --quiet && g.region raster=dem || exit 1
/usr/bin/time -f '%e' -o "$2" r.watershed -s elevation=dem accumulation=acc drainage=dir --quiet
EOF
	for i in 1 2; do
		grass --tmp-location EPSG:32633 --exec bash "$tmp/g2.sh" \
		    "$tmp/big.tif" "$tmp/rw$i" >/dev/null 2>&1
	done
	echo "  GRASS r.watershed -s (module only): $(cat "$tmp/rw1") s, $(cat "$tmp/rw2") s;" \
	    "tflow is $(awk -v a="$(cat "$tmp/rw1" "$tmp/rw2" | sort -n | head -1)" -v b="$tw" 'BEGIN { printf "%.1f", a / b }')x faster"
fi
