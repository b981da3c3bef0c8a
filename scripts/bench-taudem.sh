#!/bin/bash
# bench-taudem.sh - terrapipe's fill and D8 accumulation beside TauDEM's
# pitremove, d8flowdir and aread8 on 1 and 2 MPI processes: wall time, CPU
# time (user + sys, every process), the peak resident memory of the
# largest process (/usr/bin/time -v), and the cell-for-cell agreement of
# the fill and of the D8 accumulation. Not part of make check or make
# bench: it needs TauDEM.
#
# usage: scripts/bench-taudem.sh [TAUDEM_BIN]   (or $TAUDEM_BIN)
#
# TAUDEM_BIN holds pitremove, d8flowdir and aread8 (TauDEM built with
# cmake from github.com/dtarb/TauDEM); under make bench (an argument
# holding tfill) it runs only with $TAUDEM_BIN set. mpiexec runs them
# (Open MPI: --oversubscribe, and --allow-run-as-root when root). Run
# from the repository root after `make`; TP_BIN (default bin) holds
# terrapipe's programs. SIZES (default "4096 8192") are the grids' sides; NPS
# (default "1 2") the process counts. Needs GNU parallel
# (scripts/tiled-hydro) and /usr/bin/python3 with numpy and GDAL.
#
# The grids: tnoise -s NxN --seed 11, 30 m cells in UTM 33N, heights 0 to
# 1 (fBm: no NaN, many depressions; filled flat, 39% of the 4096^2 grid
# lies on 14,501 flats, the largest 557,711 cells across 1392 x 2154),
# written for TauDEM as uncompressed GeoTIFFs so its reading costs no
# decompression.
#   fill   tfill --flat (Priority-Flood to flat lakes) against pitremove
#          -z: the same flat fill;
#   D8     on tfill's default fill (each filled cell a float step above
#          the cell it drains to, so no cell is flat): tflow (directions
#          and accumulation on the whole grid, its default threads: every
#          processor) against d8flowdir -fel (directions and slopes)
#          followed by aread8 -nc (no edge contamination check). On the
#          flat fill TauDEM's flat routing (Garbrecht and Martz's sweeps,
#          each a pass over a flat's cells, as many as the flat is wide)
#          had not finished the 4096^2 grid after 7 min 52 s of CPU
#          (docs/PERFORMANCE.md); tflow on the flat fill is timed here;
#   tiles  tiled-hydro -j 2 -f: tfill and tflow in 1024-cell tiles, each
#          tile phase a process, two at a time (GNU parallel).
# TauDEM runs under mpiexec -n N for each N of NPS.
# Agreement: pitremove's fel against tfill --flat's heights; d8flowdir's
# directions (on flats of the flat fill's and off them: ties in slope are
# broken in another order) and aread8's contributing area against tflow's
# on tfill's heights; the tiled bands against the whole grid's with cmp.
set -eu

# make bench runs every bench-*.sh with terrapipe's bin directory: then
# this one runs only where $TAUDEM_BIN says where TauDEM is.
tp=${TP_BIN:-bin}
tb=${1:-${TAUDEM_BIN:-}}
if [ -n "${1:-}" ] && [ ! -x "$1/pitremove" ] && [ -x "$1/tfill" ]; then
	tp=$1
	tb=${TAUDEM_BIN:-}
	[ -n "$tb" ] || { echo "bench-taudem: skipped (set TAUDEM_BIN to TauDEM's programs)"; exit 0; }
fi
[ -n "$tb" ] || { echo "usage: $0 TAUDEM_BIN (or set TAUDEM_BIN)" >&2; exit 2; }
for p in pitremove d8flowdir aread8; do
	[ -x "$tb/$p" ] || { echo "$0: no $tb/$p" >&2; exit 1; }
done
bin=$(cd "$tp" && pwd)
sizes=${SIZES:-4096 8192}
nps=${NPS:-1 2}
root=$(pwd)
t=$(mktemp -d "${TMPDIR:-/tmp}/bench-taudem.XXXXXX")
trap 'rm -rf "$t"' EXIT
mpi=(mpiexec --oversubscribe)
[ "$(id -u)" = 0 ] && mpi+=(--allow-run-as-root)
export PATH=$bin:$PATH
exec 3>&1	# the table, whatever the command's stdout is

# run LABEL CMD...: CMD under /usr/bin/time -v (stdin and stdout as
# redirected by the caller); prints a row: wall s, CPU s, peak MiB.
run() {
	local label=$1
	shift
	/usr/bin/time -v -o "$t/time" "$@" 2> "$t/err" || {
		cat "$t/err" >&2
		exit 1
	}
	awk -v label="$label" -F': ' '
	/Elapsed \(wall clock\)/ { n = split($2, p, ":"); w = 0
		for (i = 1; i <= n; i++) w = w * 60 + p[i] }
	/User time/ { u = $2 } /System time/ { s = $2 }
	/Maximum resident set size/ { m = $2 / 1024 }
	END { printf "  %-34s %8.2f %8.2f %9.0f\n", label, w, u + s, m }' \
	    "$t/time" >&3
}

echo "terrapipe against TauDEM: $(nproc) CPUs, $(uname -m), $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)"
for n in $sizes; do
	echo "${n}x$n (load before: $(uptime | sed 's/.*load average: //'))"
	printf '  %-34s %8s %8s %9s\n' command wall_s cpu_s peak_MiB
	tnoise -q -s "${n}x$n" --seed 11 -c 30 --crs EPSG:32633 \
	    --origin 500000,5000000 > "$t/g.tp"
	tgeotiff -q -c none "$t/g.tp" "$t/g.tif"
	run "tfill --flat" tfill --flat < "$t/g.tp" > "$t/flat.tp"
	run "tfill" tfill < "$t/g.tp" > "$t/fill.tp"
	run "tflow (on tfill --flat)" tflow -q < "$t/flat.tp" > /dev/null
	run "tflow" tflow -q < "$t/fill.tp" > "$t/flow.tp"
	tgeotiff -q -c none -b height "$t/fill.tp" "$t/fill.tif"
	rm -rf "$t/tiles"
	mkdir "$t/tiles"
	run "tiled-hydro -j 2 -f (tfill + tflow)" \
	    "$root/scripts/tiled-hydro" -j 2 -f "$t/tiles" \
	    < "$t/g.tp" > "$t/tiled.tp"
	for np in $nps; do
		run "pitremove -n $np" "${mpi[@]}" -n "$np" "$tb/pitremove" \
		    -z "$t/g.tif" -fel "$t/fel$np.tif" > "$t/version"
		run "d8flowdir -n $np (on tfill)" "${mpi[@]}" -n "$np" \
		    "$tb/d8flowdir" -fel "$t/fill.tif" -p "$t/p$np.tif" \
		    -sd8 "$t/sd8.tif" > /dev/null
		run "aread8 -nc -n $np" "${mpi[@]}" -n "$np" "$tb/aread8" \
		    -p "$t/p$np.tif" -ad8 "$t/ad8-$np.tif" -nc > /dev/null
	done
	"$bin/tband" --keep height,flow < "$t/flow.tp" > "$t/whole.tp"
	"$bin/tband" --keep height,flow < "$t/tiled.tp" > "$t/tiles.tp"
	cmp -s <(sed '1,/^ENDHDR$/d' "$t/whole.tp") \
	    <(sed '1,/^ENDHDR$/d' "$t/tiles.tp") &&
	    echo "  tiled = whole grid: identical fill and flow" ||
	    echo "  tiled and whole grid DIFFER"
	PYTHONPATH=$root/tests /usr/bin/python3 - "$t" $nps <<'EOF'
import sys
import numpy as np
from osgeo import gdal
import tp

t, nps = sys.argv[1], sys.argv[2:]


def tif(name):
    d = gdal.Open(f"{t}/{name}.tif")
    b = d.GetRasterBand(1)
    a = b.ReadAsArray().astype(np.float64)
    nd = b.GetNoDataValue()
    if nd is not None and not np.isnan(nd):
        a[a == nd] = np.nan
    return a


flat = tp.band(f"{t}/flat.tp", "height").astype(np.float64)
bands = tp.bands(f"{t}/flow.tp")
z, flow = bands["height"].astype(np.float64), bands["flow"].astype(np.float64)
n = z.size
# onflat: no strictly lower neighbour in the flat fill (its lakes), and
# the border; TauDEM's D8 codes 1..8 counter-clockwise from east as
# ESRI's, which tflow writes
h, w = z.shape
lower = np.zeros((h - 2, w - 2), dtype=bool)
for dy in (-1, 0, 1):
    for dx in (-1, 0, 1):
        if dx or dy:
            lower |= flat[1 + dy:h - 1 + dy, 1 + dx:w - 1 + dx] < flat[1:-1, 1:-1]
onflat = np.ones_like(z, dtype=bool)
onflat[1:-1, 1:-1] = ~lower
esri = np.array([np.nan, 1, 128, 64, 32, 16, 8, 4, 2])
step = {1: (1, 0), 2: (1, 1), 4: (0, 1), 8: (-1, 1), 16: (-1, 0),
        32: (-1, -1), 64: (0, -1), 128: (1, -1)}


def drop(y, x, c):
    """The slope from (y, x) to its neighbour of ESRI code c, in double."""
    dx, dy = step[int(c)]
    return (z[y, x] - z[y + dy, x + dx]) / np.hypot(dx, dy)


for np_ in nps:
    fel, ad8 = tif(f"fel{np_}"), tif(f"ad8-{np_}")
    same = int((fel == flat).sum())
    d = np.nanmax(np.abs(fel - flat))
    print(f"  -n {np_}: fill {same} of {n} cells equal ({100 * same / n:.4f}%), "
          f"max |difference| {d:.3g}")
    ok = ~np.isnan(ad8)
    eq = int((ad8[ok] == flow[ok]).sum())
    print(f"         D8 accumulation {eq} of {n} cells equal "
          f"({100 * eq / n:.4f}%), {n - int(ok.sum())} NoData in aread8")
    p = tif(f"p{np_}")
    code = np.where(np.isnan(p), np.nan, esri[np.nan_to_num(p).astype(int)])
    for label, m in (("off the flat fill's flats", ~onflat),
                     ("on them", onflat)):
        m = m & ~np.isnan(code)
        same = int((code[m] == bands["dir"][m]).sum())
        ties = ""
        if label != "on them":
            ys, xs = np.where(m & (code != bands["dir"]))
            nt = sum(drop(y, x, code[y, x]) == drop(y, x, bands["dir"][y, x])
                     for y, x in zip(ys, xs))
            ties = f"; of the {len(ys)} others, {nt} are ties in slope"
        print(f"         D8 directions {label}: {same} of {int(m.sum())} "
              f"equal ({100 * same / max(int(m.sum()), 1):.4f}%){ties}")
EOF
done
echo "TauDEM $(sed -n 's/.*version //p' "$t/version" | head -n 1); load after: $(uptime | sed 's/.*load average: //')"
