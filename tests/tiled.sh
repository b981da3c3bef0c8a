#!/bin/bash
# Tiled filling: ttile, then tfill --tile-prepare / --tile-solve /
# --tile-finish as separate processes in shuffled tile order, then tmosaic,
# equals the whole-grid tfill byte for byte; and tfill -j N equals -j 1.
. "$(dirname "$0")/common.sh"

# tiled NAME IN SIZE [TFILL OPTIONS]: the tiled fill of IN into $T/NAME.t
tiled() {
	local name=$1 in=$2 size=$3 f a
	shift 3
	local nodepth=()
	for a in "$@"; do [ "$a" = --depth ] || nodepth+=("$a"); done
	rm -rf "$T/$name"
	run_prog ttile -q --size "$size" "$T/$name" < "$in" || return 1
	for f in $(ls "$T/$name"/r*.tp | shuf --random-source=<(yes)); do
		run_prog tfill "${nodepth[@]}" --tile-prepare "$f" > "$f.edge" || return 1
	done
	run_prog tfill "${nodepth[@]}" --tile-solve "$T/$name/manifest" > "$T/$name/levels" || return 1
	for f in $(ls "$T/$name"/r*.tp | shuf --random-source=<(yes 2)); do
		run_prog tfill "$@" --tile-finish "$T/$name/levels" "$f" > "$f.filled" || return 1
	done
	run_prog tmosaic -q --suffix .filled "$T/$name/manifest" > "$T/$name.t"
}

# same NAME IN SIZE [TFILL OPTIONS]: tiled equals whole, the whole file:
# the tiles' HISTORY carried, the finish's line the whole-grid command's.
same() {
	local name=$1 in=$2 size=$3
	shift 3
	run_prog tfill "$@" < "$in" > "$T/$name.w"
	if tiled "$name" "$in" "$size" "$@"; then
		assert_same "$name: tiled = whole" "$T/$name.w" "$T/$name.t"
	else fail "$name: a tiled phase failed"; fi
}

# Fractal grids: tile sizes 64 and 100 (which divides neither side), and
# 1024 (tiles wider than the grid in one direction), every rule.
run_prog tnoise --size 600x500 --seed 11 --octaves 7 > "$T/frac.tp"
run_prog tnoise --size 1100x700 --seed 12 --octaves 8 > "$T/frac2.tp"
# the test means something only if lakes cross tile edges: count the
# cells whose tile-alone fill differs from the whole fill
same frac64 "$T/frac.tp" 64
same frac100 "$T/frac.tp" 100
same frac100flat "$T/frac.tp" 100 --flat
same frac64eps "$T/frac.tp" 64 --epsilon 0.001
same frac1024 "$T/frac2.tp" 1024
# --flat solves on the tiles' ring graphs alone: 30 tiles of 33 with lakes
# across many of them, and the solve again with every tile but r0_c0
# (whose header names the sea) taken away gives the same levels.
same frac33flat "$T/frac.tp" 33 --flat
mkdir "$T/away"
mv "$T"/frac100flat/r*_c*.tp "$T/away/" && mv "$T/away/r0_c0.tp" "$T/frac100flat/"
run_prog tfill -v --flat --tile-solve "$T/frac100flat/manifest" > "$T/lvg" 2> "$T/err"
assert_same "--flat: the solve reads no tile" "$T/frac100flat/levels" "$T/lvg"
assert_eq "--flat: the solve says so" "$(cat "$T/err")" \
    "tfill: 30 tiles solved on their ring graphs (12000 ring cells, $(py 'import struct
n = 0
for r in range(5):
    for c in range(6):
        d = open("%s/frac100flat/r%d_c%d.tp.edge" % (sys.argv[1], r, c), "rb").read()
        w, h = (int(v) for v in d[:d.index(b"\n")].split()[4:6])
        n += struct.unpack("<q", d[d.index(b"\n") + 1 + 8 * (w + h) * 2:][:8])[0]
print(n)' "$T") edges), no tile read"
mv "$T"/away/*.tp "$T/frac100flat/"
assert_eq "levels: a ring level per border cell of each tile" \
    "$(py 'import os
n = sum(2 * min(100, 600 - c) + 2 * min(100, 500 - r) for r in range(0, 500, 100) for c in range(0, 600, 100))
print(os.path.getsize(sys.argv[1]) - len(open(sys.argv[1], "rb").readline()) == 4 * n)' "$T/frac100/levels")" True
# the finish changes what each tile alone would give: lakes cross edges
for f in "$T"/frac64/r*.tp; do run_prog tfill < "$f"; done > "$T/alone"
assert_eq "tiles alone differ from the tiled fill" \
    "$(py 'import glob, os
d = os.path.dirname(sys.argv[1])
n = 0
for f in sorted(glob.glob(d + "/r*.tp")):
    n += int(np.sum(band(f + ".filled", "height") != band(f, "height")))
print(n > 0)' "$T/frac64/r0_c0.tp")" True

# The real DEM (metres, EPSG:4326 with decimal cell size and origin), with
# NaN holes and a NaN strip along the west: nodata is an outlet.
run_prog timport "$DATA/jacksboro_fault_dem.tif" > "$T/dem0.tp"
py '
h, a = read(sys.argv[1])
z = a[:, 0, :].copy()
z[:, :3] = np.nan
z[100:130, 200:240] = np.nan
z[300, 50] = np.nan
sys.stdout.buffer.write(stream_bytes(z.shape[1], z.shape[0], "height",
    ["CELLSIZE " + h["CELLSIZE"], "ORIGIN " + h["ORIGIN"], "CRS EPSG:4326"],
    z.astype("<f4").tobytes()))' "$T/dem0.tp" > "$T/dem.tp"
same dem64 "$T/dem.tp" 64
same dem100 "$T/dem.tp" 100
same dem100flat "$T/dem.tp" 100 --flat

# A long winding valley: walls across the grid leave a serpentine channel
# with one outlet at its far end; its lake crosses every tile many times,
# and each cell's level is the next float above the one before it, counted
# along the channel from the outlet.
py '
w, h = 300, 240
rng = np.random.default_rng(5)
z = 1 + 0.001 * rng.random((h, w))
for i, y in enumerate(range(8, h - 1, 8)):
    z[y, :] = 100
    z[y, (w - 3) if i % 2 == 0 else 2] = 1
z[0, :] = z[-1, :] = 100
z[:, 0] = z[:, -1] = 100
z[h - 4, 0] = 0
sys.stdout.buffer.write(stream_bytes(w, h, "height", [], z.astype("<f4").tobytes()))' > "$T/valley.tp"
same valley64 "$T/valley.tp" 64
same valley100eps "$T/valley.tp" 100 --epsilon 1e-6
assert_eq "valley: the channel is filled (levels climb)" \
    "$(py 'z = band(sys.argv[1], "height"); print(z[4, 150] > 1.001)' "$T/valley64.t")" True

# The sea: SEALEVEL in the header, and --sea given to every phase.
py '
rng = np.random.default_rng(3)
z = rng.random((130, 170)).astype("<f4")
z[60:70, :] -= 1
sys.stdout.buffer.write(stream_bytes(170, 130, "height", ["SEALEVEL 0.05"], z.tobytes()))' > "$T/sea.tp"
same sea64 "$T/sea.tp" 64
same seaopt "$T/sea.tp" 50 --sea 0.3
assert_eq "--sea recorded by --tile-finish" "$(header "$T/seaopt/r0_c0.tp.filled" SEALEVEL)" 0.3

# --depth with the finish; the other bands pass through
run_prog tnoise --band moisture --seed 3 < "$T/frac.tp" > "$T/fm.tp"
same depth "$T/fm.tp" 100 --depth
assert_eq "depth: bands" "$(header "$T/depth.t" BANDS)" "height moisture depth"

# Threads: tiles in one process, every tile size, the same bytes.
for a in "1 64" "2 64" "2 100" "3 37"; do
	set -- $a
	run_prog tfill -j "$1" --tile-size "$2" < "$T/dem.tp" > "$T/j.tp"
	assert_same "-j $1 --tile-size $2 = whole" "$T/dem64.w" "$T/j.tp"
done
run_prog tfill -j 2 --tile-size 64 --epsilon 1e-6 < "$T/valley.tp" > "$T/j.tp"
assert_same "-j 2 valley epsilon" "$T/valley100eps.w" "$T/j.tp"
run_prog tfill -j 2 --tile-size 64 < "$T/valley.tp" > "$T/j.tp"
assert_eq "-j keeps HISTORY free of threads" "$(header_lines "$T/j.tp" | grep -c threads)" 0

# The solve on threads gives the same levels
run_prog tfill -j 2 --tile-solve "$T/frac64/manifest" > "$T/lv2"
assert_same "--tile-solve -j 2 = -j 1" "$T/frac64/levels" "$T/lv2"

# Tiled flow: ttile a filled grid, then tflow --tile-prepare / --tile-solve
# / --tile-finish as separate processes in shuffled tile order, then
# tmosaic, equals the whole-grid tflow (flow, dir, river) byte for byte.
# flowtiled NAME IN SIZE [TFLOW OPTIONS]: the tiled flow of IN in $T/NAME.t
flowtiled() {
	local name=$1 in=$2 size=$3 f a
	shift 3
	local prep=() skip=
	for a in "$@"; do	# the options prepare takes: all but -r T, -c C
		if [ -n "$skip" ]; then skip=; continue; fi
		case $a in -r|-c) skip=1 ;; *) prep+=("$a") ;; esac
	done
	rm -rf "$T/$name"
	run_prog ttile -q --size "$size" "$T/$name" < "$in" || return 1
	for f in $(ls "$T/$name"/r*.tp | shuf --random-source=<(yes 3)); do
		run_prog tflow "${prep[@]}" --tile-prepare "$f" > "$f.fedge" || return 1
	done
	run_prog tflow --tile-solve "$T/$name/manifest" > "$T/$name/solve" || return 1
	for f in $(ls "$T/$name"/r*.tp | shuf --random-source=<(yes 4)); do
		run_prog tflow "$@" --tile-finish "$T/$name/solve" "$f" > "$f.flowed" || return 1
	done
	run_prog tmosaic -q --suffix .flowed "$T/$name/manifest" > "$T/$name.t"
}

# fsame NAME IN SIZE [TFLOW OPTIONS]: tiled flow equals whole, the whole
# file.
fsame() {
	local name=$1 in=$2 size=$3
	shift 3
	run_prog tflow -q "$@" < "$in" > "$T/$name.w"
	if flowtiled "$name" "$in" "$size" "$@"; then
		assert_same "$name: tiled flow = whole" "$T/$name.w" "$T/$name.t"
	else fail "$name: a tiled flow phase failed"; fi
}

fsame ffrac64 "$T/frac64.w" 64
fsame ffrac100 "$T/frac100.w" 100 -r 50 -c grass
fsame ffrac1024 "$T/frac1024.w" 1024
fsame fdem64 "$T/dem64.w" 64 -r 100
fsame fdem100 "$T/dem64.w" 100
fsame fdemarea "$T/dem64.w" 100 --area -g no
fsame fsea "$T/sea64.w" 64
fsame fseaopt "$T/sea64.w" 50 --sea 0.3 -r 20
fsame fvalley "$T/valley64.w" 64
assert_eq "flow crosses tile edges: inflows in the solve file" "$(py '
d = open(sys.argv[1], "rb").read()
v = np.frombuffer(d[d.index(b"\n") + 1:], [("in", "<u8"), ("a", "<u4"), ("b", "<u4"), ("dir", "u1")])["in"]
print(int(np.count_nonzero(v)) > 100, int(v.max()) > 1000)' "$T/fdem64/solve")" "True True"
assert_eq "ffrac100: the flow at the outlets sums to the cells" "$(py '
f = band(sys.argv[1], "flow"); d = band(sys.argv[1], "dir")
print(int(np.sum(f[d < 0], dtype=np.float64)), f.size)' "$T/ffrac100.t")" "300000 300000"
# The real pipeline: the fill's own tiles (r*.tp.filled), no mosaic between
for f in $(ls "$T/frac64"/r*.tp.filled | shuf --random-source=<(yes 5)); do
	run_prog tflow --tile-prepare "$f" > "$f.fedge"
done
run_prog tflow --suffix .filled --tile-solve "$T/frac64/manifest" > "$T/frac64/fsolve"
for f in "$T/frac64"/r*.tp.filled; do
	run_prog tflow --tile-finish "$T/frac64/fsolve" "$f" > "$f.flowed"
done
run_prog tmosaic -q --suffix .filled.flowed "$T/frac64/manifest" > "$T/ff.t"
assert_same "tfill tiles then tflow tiles = whole tflow" "$T/ffrac64.w" "$T/ff.t"

# Flats: inside a tile, and across tile edges (each ring cell's distance
# through the flat to its lower edge crosses in the solve), tile sizes 50,
# 64, 100 and 73 (which divides no side).
py '
z = np.add.outer(np.arange(150.0), np.arange(170.0)).astype("<f4")
z[20:30, 20:30] = 40
z[110:120, 60:70] = 170
sys.stdout.buffer.write(stream_bytes(170, 150, "height", [], z.tobytes()))' > "$T/flat.tp"
fsame fflat "$T/flat.tp" 50
fsame fflat64 "$T/flat.tp" 64 -r 20
# tfill --flat's lakes on the fractal and on the real DEM (nodata, sea)
for s in 50 64 100 73; do fsame "fflatfrac$s" "$T/frac100flat.w" "$s" -r 200; done
for s in 64 73; do fsame "fflatdem$s" "$T/dem100flat.w" "$s"; done
fsame fflatsea "$T/dem100flat.w" 100 --sea 400
# integer heights (plateaus and sinks, unfilled)
py '
h, a = read(sys.argv[1])
write(np.round(a[:, 0, :] / 3), extra=["CELLSIZE 30"])' "$T/dem.tp" > "$T/int.tp"
for s in 50 64 100 73; do fsame "fint$s" "$T/int.tp" "$s" -c grass; done
# a flat zigzag corridor through 3x3 tiles of 64, walls 1 cell thick,
# its only outlet in the south-east corner tile: shortest paths cross the
# tile edges at x = 64 and 128 back and forth
py '
z = np.full((192, 192), 10.0)
z[0, :] = z[-1, :] = z[:, 0] = z[:, -1] = 20
for k, r in enumerate(range(16, 191, 16)):
    z[r, 1:191] = 20
    if k % 2: z[r, 2:6] = 10
    else: z[r, 186:190] = 10
z[190, 191] = 5
write(z, extra=["CELLSIZE 1"])' > "$T/zz.tp"
for s in 64 50 100 73; do fsame "fzz$s" "$T/zz.tp" "$s" -r 1000; done
# tiles of one cell (a tile's two-cell halo reaches two tiles away) and of
# two, on a small grid of plateaus
py '
z = np.array([[3, 3, 3, 3, 2, 2, 2, 2, 4], [3, 1, 1, 3, 2, 2, 2, 2, 4],
              [3, 1, 1, 1, 1, 2, 5, 5, 4], [3, 3, 3, 3, 1, 2, 5, 5, 4],
              [6, 6, 6, 6, 1, 1, 1, 1, 0], [6, 6, 6, 6, 6, 6, 6, 6, 6],
              [6, 2, 2, 2, 2, 2, 2, 2, 6]])
write(z, extra=["CELLSIZE 1"])' > "$T/small.tp"
for s in 1 2 3; do fsame "fsmall$s" "$T/small.tp" "$s"; done
# the other rule (--flats nearest): the plateaus, the corridor, the lakes
for s in 1 2 3; do fsame "fsmalln$s" "$T/small.tp" "$s" --flats nearest; done
for s in 64 73; do fsame "fintn$s" "$T/int.tp" "$s" --flats nearest; done
fsame fzzn64 "$T/zz.tp" 64 -r 1000 --flats nearest
fsame fflatfracn50 "$T/frac100flat.w" 50 -r 200 --flats nearest
assert_eq "zigzag: every tile of 64 sends its flats to the solve" \
    "$(for f in "$T"/fzz64/r*.tp.fedge; do head -1 "$f" | awk '{print $NF}'; done | sort | uniq -c | awk '{print $1, $2}')" "9 1"
assert_eq "zigzag: all 192 x 192 = 36864 cells reach the outlet, none without a direction" "$(py '
f = band(sys.argv[1], "flow"); d = band(sys.argv[1], "dir")
print(int(f[190, 191]), int(np.count_nonzero(d == 0)))' "$T/fzz64.t")" "36864 0"

# Threads: the whole grid on 1 and 2 threads (rows), and in tiles on
# threads (-j 4, or --tile-size), every tile size, the same bytes; with
# flats (the directions come from the whole grid), nodata, sea and area.
for in in "$T/dem64.w" "$T/flat.tp" "$T/sea64.w" "$T/zz.tp" "$T/int.tp" "$T/frac100flat.w"; do
	run_prog tflow -q -j 1 -r 100 < "$in" > "$T/fj1"
	for a in "2" "4" "2 --tile-size 64" "3 --tile-size 37" "2 --tile-size 1"; do
		run_prog tflow -q -j $a -r 100 < "$in" > "$T/fj2"
		assert_same "tflow -j $a = -j 1 ($(basename "$in"))" "$T/fj1" "$T/fj2"
	done
done
run_prog tflow -q -j 1 --area -g no < "$T/dem64.w" > "$T/fj1"
run_prog tflow -q -j 2 --tile-size 50 --area -g no < "$T/dem64.w" > "$T/fj2"
assert_same "tflow -j 2 --tile-size 50 --area = -j 1" "$T/fj1" "$T/fj2"
run_prog tflow -q -j 2 --tile-size 50 --area < "$T/dem64.w" > "$T/fj2"
run_prog tflow -q -j 1 --area < "$T/dem64.w" > "$T/fj1"
assert_same "tflow -j 2 --tile-size 50 --area geographic (whole sums) = -j 1" "$T/fj1" "$T/fj2"
expect_err 2 "tflow: --tile-size goes with --threads" "tile size without threads" \
    run_prog tflow --tile-size 64

# Errors of the flow phases
f=$T/ffrac64/r1_c1.tp
expect_err 2 "tflow: give one TILE" "flow prepare without tile" run_prog tflow --tile-prepare
expect_err 2 "tflow: give one of --tile-prepare, --tile-solve and --tile-finish" "two flow phases" \
    run_prog tflow --tile-prepare --tile-solve "$f"
expect_err 2 "tflow: the tile phases make flow, dir and river only" "mfd with a phase" \
    run_prog tflow -m mfd --tile-finish "$T/ffrac64/solve" "$f"
expect_err 2 "tflow: --threads and --tile-size go with a whole grid, not a tile phase" "threads with a phase" \
    run_prog tflow -j 2 --tile-prepare "$f"
expect_err 2 "tflow: --suffix goes with --tile-solve" "suffix with prepare" \
    run_prog tflow --suffix .x --tile-prepare "$f"
expect_err 2 "tflow: --rivers and --dir-codes go with --tile-finish" "rivers with prepare" \
    run_prog tflow -r 5 --tile-prepare "$f"
expect_err 2 "tflow: unexpected argument" "whole grid with an operand" run_prog tflow "$f"
expect_err 1 "tflow: accumulated area (--area) on a geographic grid is not exact tile by tile (its sums depend on their order)" \
    "area geographic" run_prog tflow --area --tile-prepare "$T/fdem64/r0_c0.tp"
mv "$T/ffrac64/r2_c1.tp" "$T/ffrac64/x"
expect_err 1 "tflow: $f: $T/ffrac64/r2_c1.tp: No such file or directory (a neighbour tile)" \
    "missing neighbour" run_prog tflow --tile-prepare "$f"
mv "$T/ffrac64/x" "$T/ffrac64/r2_c1.tp"
cp "$T/frac.tp" "$T/ffrac64/whole.tp"
expect_err 1 "tflow: $T/ffrac64/whole.tp: tile r0_c0 should be 64x64, not 600x500" "flow: not a tile" \
    run_prog tflow --tile-prepare "$T/ffrac64/whole.tp"
expect_err 1 "tflow: $T/ffrac100/solve: made for 5x6 tiles, the manifest has 8x10" \
    "solve of another tiling" run_prog tflow --tile-finish "$T/ffrac100/solve" "$f"
head -c 100 "$f.fedge" > "$T/fe" && mv "$T/fe" "$f.fedge"
expect_err 1 "tflow: $f.fedge: flow edge file: 43 bytes of ring cells and flats, 3276 expected" "truncated flow edge" \
    run_prog tflow --tile-solve "$T/ffrac64/manifest"
cp "$T/ffrac64/r0_c0.tp.fedge" "$f.fedge"
expect_err 1 "tflow: $f.fedge: the edge of tile 0,0 (64x64), not of this manifest's tile 1,1" \
    "edge of another tile" run_prog tflow --tile-solve "$T/ffrac64/manifest"
rm "$f.fedge"
expect_err 1 "tflow: $f.fedge: No such file or directory" "missing flow edge" \
    run_prog tflow --tile-solve "$T/ffrac64/manifest"
# every phase checks the sea, geometry and flat rule the others used
run_prog tflow --sea 0.5 --tile-prepare "$f" > "$f.fedge"
expect_err 1 "tflow: $f.fedge: this edge file's sea level 0.5 differs from tile 0,0's (none): the tile is from another run, or the phases were given different --sea" \
    "edge with another sea" run_prog tflow --tile-solve "$T/ffrac64/manifest"
run_prog tflow --flats nearest --tile-prepare "$f" > "$f.fedge"
expect_err 1 "tflow: $f.fedge: this edge file's flat rule nearest differs from tile 0,0's (converge): give every phase the same --flats" \
    "edge with another flat rule" run_prog tflow --tile-solve "$T/ffrac64/manifest"
run_prog tflow --tile-prepare "$f" > "$f.fedge"
expect_err 1 "tflow: $T/ffrac64/solve: this tile's geometry (-g) geographic differs from the one the flow was solved with (projected): give every phase the same -g" \
    "finish with another geometry" run_prog tflow -g yes --tile-finish "$T/ffrac64/solve" "$f"
expect_err 1 "tflow: $T/ffrac64/solve: this tile's flat rule nearest differs from the one the flow was solved with (converge): give every phase the same --flats" \
    "finish with another flat rule" run_prog tflow --flats nearest --tile-finish "$T/ffrac64/solve" "$f"
sed '1s/FLOWEDGE 3/FLOWEDGE 2/' "$T/ffrac64/r0_c0.tp.fedge" > "$f.fedge"
expect_err 1 "tflow: $f.fedge: a flow edge file of version 2, not 3: prepare the tile again" \
    "flow edge of another version" run_prog tflow --tile-solve "$T/ffrac64/manifest"
run_prog tflow --tile-prepare "$f" > "$f.fedge"
sed '1s/FLOWSOLVE 3/FLOWSOLVE 2/' "$T/ffrac64/solve" > "$T/fs"
expect_err 1 "tflow: $T/fs: a flow solve file of version 2, not 3: solve again" \
    "flow solve of another version" run_prog tflow --tile-finish "$T/fs" "$f"
# a flat tile's edge swapped for one without flats: the flat's neighbours
# on the tiles around it disagree
run_prog ttile -q --size 64 "$T/zzx" < "$T/frac64.w"
run_prog tflow --tile-prepare "$T/zzx/r1_c1.tp" > "$T/fzz64/r1_c1.tp.fedge"
expect_err 1 "tflow: the edge files disagree about the flat at cell 63,127 (column, row): made from different grids?" \
    "flat edges that disagree" run_prog tflow --tile-solve "$T/fzz64/manifest"
head -c 1000 "$T/ffrac64/solve" > "$T/fs"
expect_err 1 "tflow: $T/fs: a flow solve file of the wrong size" "truncated solve" \
    run_prog tflow --tile-finish "$T/fs" "$f"

# The drivers. GNU parallel on this host, 2 jobs, options passed through.
if command -v parallel >/dev/null; then
	PATH=$TP_BIN:$PATH "$ROOT/scripts/tiled-hydro" -j 2 -s 100 "$T/th" --flat \
	    < "$T/frac.tp" > "$T/th.tp" 2>"$T/th.err" || fail "tiled-hydro: $(cat "$T/th.err")"
	assert_same "tiled-hydro --flat = tfill --flat" "$T/frac100flat.w" "$T/th.tp"
	assert_eq "tiled-hydro cleans up" "$(ls "$T/th" 2>/dev/null | wc -l)" 0
	PATH=$TP_BIN:$PATH "$ROOT/scripts/tiled-hydro" -j 2 --sshlogin : -s 64 -k "$T/th2" \
	    < "$T/dem.tp" > "$T/th2.tp" 2>"$T/th.err" || fail "tiled-hydro --sshlogin: $(cat "$T/th.err")"
	assert_same "tiled-hydro --sshlogin : = tfill" "$T/dem64.w" "$T/th2.tp"
	assert_eq "tiled-hydro -k keeps the tiles" "$(ls "$T/th2"/*.filled | wc -l)" 42
	PATH=$TP_BIN:$PATH "$ROOT/scripts/tiled-hydro" -j 2 -s 100 -f -r 100 "$T/th3" \
	    < "$T/dem.tp" > "$T/th3.tp" 2>"$T/th.err" || fail "tiled-hydro -f: $(cat "$T/th.err")"
	assert_same "tiled-hydro -f -r = tfill | tflow -r" "$T/fdem64.w" "$T/th3.tp"
	assert_eq "tiled-hydro -f cleans up" "$(ls "$T/th3" 2>/dev/null | wc -l)" 0
	# --flat: the lakes' flats cross the tiles of 64 in the flow phases too
	PATH=$TP_BIN:$PATH "$ROOT/scripts/tiled-hydro" -j 2 -s 64 -f -r 200 "$T/th4" --flat \
	    < "$T/frac.tp" > "$T/th4.tp" 2>"$T/th.err" || fail "tiled-hydro -f --flat: $(cat "$T/th.err")"
	assert_same "tiled-hydro -f --flat = tfill --flat | tflow" "$T/fflatfrac64.w" "$T/th4.tp"
else fail "GNU parallel is not installed (scripts/install-deps)"; fi

# Slurm: the job script's modes run by hand with the array index set as
# Slurm sets it (3 array tasks for 42 tiles), then submit with a stand-in
# sbatch that records its arguments: arrays and the dependency chain.
slurm=$ROOT/scripts/tiled-hydro.slurm
run_prog ttile -q -s 64 "$T/sl" < "$T/dem.tp"
for i in 2 0 1; do
	SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=3 PATH=$TP_BIN:$PATH "$slurm" prepare "$T/sl"
done
PATH=$TP_BIN:$PATH "$slurm" solve "$T/sl"
for i in 1 2 0; do
	SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=3 PATH=$TP_BIN:$PATH "$slurm" finish "$T/sl"
done
PATH=$TP_BIN:$PATH "$slurm" mosaic "$T/sl" "$T/sl.tp"
assert_same "slurm phases by hand = tfill" "$T/dem64.w" "$T/sl.tp"
for i in 1 0 2; do
	SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=3 PATH=$TP_BIN:$PATH "$slurm" flow-prepare "$T/sl"
done
PATH=$TP_BIN:$PATH "$slurm" flow-solve "$T/sl"
for i in 2 1 0; do
	SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=3 PATH=$TP_BIN:$PATH "$slurm" flow-finish "$T/sl"
done
PATH=$TP_BIN:$PATH "$slurm" mosaic "$T/sl" "$T/slf.tp" .filled.flowed
assert_same "slurm flow phases by hand = tflow" "$T/fdem100.w" "$T/slf.tp"
mkdir -p "$T/fake"
cat > "$T/fake/sbatch" <<'SB'
#!/bin/sh
n=$(( $(cat "$SBLOG.n" 2>/dev/null || echo 100) + 1 )); echo $n > "$SBLOG.n"
echo "$*" | sed "s|[^ ]*/tiled-hydro.slurm|SCRIPT|; s|$SBDIR|DIR|g" >> "$SBLOG"
echo "$n;cluster"
SB
chmod +x "$T/fake/sbatch"
SBLOG=$T/sb.log SBDIR=$T TH_ARRAY_MAX=16 PATH=$T/fake:$PATH "$slurm" submit "$T/sl" "$T/out.tp" --flat 2>/dev/null
assert_eq "slurm submit: four jobs chained by afterok" "$(tr '\n' '|' < "$T/sb.log")" \
"--parsable --array=0-15 SCRIPT prepare DIR/sl --flat|--parsable --dependency=afterok:101 SCRIPT solve DIR/sl --flat|\
--parsable --array=0-15 --dependency=afterok:102 SCRIPT finish DIR/sl --flat|--parsable --dependency=afterok:103 SCRIPT mosaic DIR/sl DIR/out.tp|"
rm -f "$T/sb.log" "$T/sb.log.n"
SBLOG=$T/sb.log SBDIR=$T TH_ARRAY_MAX=16 TH_FLOW=1 TH_RIVERS=9 PATH=$T/fake:$PATH "$slurm" submit "$T/sl" "$T/out.tp" 2>/dev/null
assert_eq "slurm submit TH_FLOW=1: seven jobs chained" "$(tr '\n' '|' < "$T/sb.log")" \
"--parsable --array=0-15 SCRIPT prepare DIR/sl|--parsable --dependency=afterok:101 SCRIPT solve DIR/sl|\
--parsable --array=0-15 --dependency=afterok:102 SCRIPT finish DIR/sl|\
--parsable --array=0-15 --dependency=afterok:103 SCRIPT flow-prepare DIR/sl|\
--parsable --dependency=afterok:104 SCRIPT flow-solve DIR/sl|\
--parsable --array=0-15 --dependency=afterok:105 SCRIPT flow-finish DIR/sl -r 9|\
--parsable --dependency=afterok:106 SCRIPT mosaic DIR/sl DIR/out.tp .filled.flowed|"
expect_err 1 "tiled-hydro.slurm: $T/none/manifest: no such manifest" "slurm without manifest" "$slurm" solve "$T/none"

# A tile cache of 0 (every relax from the tile file) and of 1 MiB (about
# 12 of the 30 tiles of 100; the rest written out as .solve files and read
# back): the same levels, and no .solve file is left.
run_prog tfill --tile-cache 0 --tile-solve "$T/frac100/manifest" > "$T/lv0"
assert_same "--tile-cache 0: same levels" "$T/frac100/levels" "$T/lv0"
run_prog tfill --tile-cache 1 --tile-solve "$T/frac100/manifest" > "$T/lv1"
assert_same "--tile-cache 1: same levels" "$T/frac100/levels" "$T/lv1"
run_prog tfill -j 2 --tile-cache 1 --tile-solve "$T/frac100/manifest" > "$T/lv1"
assert_same "-j 2 --tile-cache 1: same levels" "$T/frac100/levels" "$T/lv1"
assert_eq "no .solve files left" "$(ls "$T/frac100" | grep -c 'solve$')" 0
# Killed at any moment of a spilling solve (SIGKILL too), it leaves no
# file: the spill file never has a name.
ls -a "$T/frac100" > "$T/before"
for d in 0.02 0.05 0.1 0.2 0.4; do
	for s in KILL TERM; do	# (the subshell keeps bash's "Killed" quiet)
		( timeout -s $s $d $MEMCHECK "$TP_BIN/tfill" -q --tile-cache 1 \
		    --tile-solve "$T/frac100/manifest"; true ) > /dev/null 2>&1
	done
done
ls -a "$T/frac100" > "$T/after"
assert_same "a killed solve leaves no file" "$T/before" "$T/after"
expect_err 2 "tfill: --tile-cache goes with --tile-solve" "cache with prepare" \
    run_prog tfill --tile-cache 5 --tile-prepare "$T/frac100/r0_c0.tp"

# Errors
f=$T/frac64/r1_c1.tp
expect_err 2 "tfill: the TILE operand is missing" "prepare without tile" run_prog tfill --tile-prepare
expect_err 2 "tfill: give one of --tile-prepare, --tile-solve and --tile-finish" "two phases" \
    run_prog tfill --tile-prepare --tile-solve "$f"
expect_err 2 "tfill: --depth goes with --tile-finish, not this phase" "depth with prepare" \
    run_prog tfill --depth --tile-prepare "$f"
expect_err 2 "tfill: --threads goes with --tile-solve, not this phase" "threads with finish" \
    run_prog tfill -j 2 --tile-finish "$T/frac64/levels" "$f"
expect_err 2 "tfill: --tile-size goes with a whole grid, not a tile phase" "tile size with a phase" \
    run_prog tfill --tile-size 64 --tile-prepare "$f"
expect_err 2 "tfill: --method: the tile phases use priority-flood" "method with phase" \
    run_prog tfill -m planchon-darboux --tile-prepare "$f"
expect_err 2 "tfill: unexpected argument" "two operands" run_prog tfill --tile-prepare "$f" "$f"
expect_err 1 "tfill: $T/nope.tp: No such file" "missing tile" run_prog tfill --tile-prepare "$T/nope.tp"
cp "$T/frac.tp" "$T/frac64/whole.tp"
expect_err 1 "tfill: $T/frac64/whole.tp: tile r0_c0 should be 64x64, not 600x500" "not a tile" \
    run_prog tfill --tile-prepare "$T/frac64/whole.tp"
expect_err 1 "tfill: $T/frac64/levels: this run's fill rule, --flat, differs from the one the levels were solved with (the next float, the default): give every phase the same rule" \
    "finish with another rule" run_prog tfill --flat --tile-finish "$T/frac64/levels" "$f"
expect_err 1 "tfill: $T/frac100/levels: the levels are of another tiling" "levels of another tiling" \
    run_prog tfill --tile-finish "$T/frac100/levels" "$f"
# a tile of another grid (its own manifest beside it): the levels were
# solved for another cut; and with the run ids taken out of both
# manifests, its sea level still tells
expect_err 1 "tfill: $T/frac64/levels: the levels were solved for another cut (run [0-9a-f]*, this manifest's [0-9a-f]*): solve again" \
    "a tile of another run" run_prog tfill --tile-finish "$T/frac64/levels" "$T/sea64/r0_c0.tp"
cp -r "$T/sea64" "$T/sea64norun"
sed -i '/^RUN /d' "$T/sea64norun/manifest"
expect_err 1 "tfill: $T/frac64/levels: this tile's sea level 0.05 differs from the one the levels were solved with (none): the tile is from another run, or the phases were given different --sea" \
    "a tile of another run, no run ids" run_prog tfill --tile-finish "$T/frac64/levels" "$T/sea64norun/r0_c0.tp"
run_prog tfill --flat --tile-prepare "$f" > "$f.edge"
expect_err 1 "tfill: $f.edge: the edge file's fill rule, --flat, differs from the one this solve takes from tile r0_c0 and its options (the next float, the default): give every phase the same rule" \
    "an edge of another rule" run_prog tfill --tile-solve "$T/frac64/manifest"
head -c 100 "$T/frac64/r0_c0.tp.edge" > "$f.edge"
expect_err 1 "tfill: $f.edge: edge file: the ring is truncated" "truncated edge" \
    run_prog tfill --tile-solve "$T/frac64/manifest"
rm "$f.edge"
expect_err 1 "tfill: $f.edge: No such file" "missing edge" run_prog tfill --tile-solve "$T/frac64/manifest"
head -c $(( $(head -1 "$T/frac64/levels" | wc -c) + 1000 )) "$T/frac64/levels" > "$T/lv"
expect_err 1 "tfill: $T/lv: the levels file is truncated" "truncated levels" \
    run_prog tfill --tile-finish "$T/lv" "$f"
finish
