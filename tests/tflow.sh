#!/bin/bash
# tflow: D8 directions in ESRI and GRASS codes, accumulation on hand-built
# grids, conservation of water on the real DEM, rivers, MFD, geographic
# cells, thread independence.
. "$(dirname "$0")/common.sh"

# stat FILE EXPR: a numpy expression over the bands of a stream, each a
# 2-D array named after its band (height, flow, dir, river, mfd, ...),
# beside tests/tp.py's helpers (drain_check, GRASS).
stat() { py 'print(eval(sys.argv[2], {**globals(), **bands(sys.argv[1])}))' "$@"; }

# A plane falling 3 per cell to the east, 5x3: the flow of the cell in
# column c is c + 1; every direction is east (ESRI 1, GRASS 8), the last
# column drains off the grid (GRASS -8).
for r in 1 2 3; do echo "12 9 6 3 0"; done | mkstream 5 3 height > "$T/east"
run_prog tflow < "$T/east" > "$T/o"
assert_eq "bands" "$(header "$T/o" BANDS)" "height flow dir"
assert_eq "flow = column + 1" "$(stat "$T/o" 'flow[1].tolist()')" \
    "[1.0, 2.0, 3.0, 4.0, 5.0]"
assert_eq "flow on every row" "$(stat "$T/o" 'bool((flow == flow[0]).all())')" True
assert_eq "ESRI codes" "$(stat "$T/o" 'sorted(set(dir.ravel().tolist()))')" "[1.0]"
run_prog tflow --dir-codes grass < "$T/east" > "$T/o"
assert_eq "GRASS codes" "$(stat "$T/o" 'dir[0].tolist()')" \
    "[8.0, 8.0, 8.0, 8.0, -8.0]"

# Run again on its own output: the bands are reused, not added twice.
run_prog tflow --dir-codes grass < "$T/o" | run_prog tflow --dir-codes grass > "$T/o2"
assert_eq "rerun keeps bands" "$(header "$T/o2" BANDS)" "height flow dir"
cmp -s <(body "$T/o") <(body "$T/o2") && pass || fail "rerun changes the samples"

# A pit left unfilled is a sink (code 0) and tflow says so; the 8 cells
# around it drain into it (corners SE = ESRI 2, GRASS 7).
echo "5 5 5  5 0 5  5 5 5" | mkstream 3 3 height > "$T/pit"
run_prog tflow < "$T/pit" > "$T/o" 2> "$T/err"
assert_eq "sink" "$(stat "$T/o" '(dir[1, 1], flow[1, 1], dir[0, 0])')" \
    "(0.0, 9.0, 2.0)"
grep -q "1 cells have no outflow" "$T/err" && pass || fail "sink warning"
run_prog tflow -q < "$T/pit" > "$T/o" 2> "$T/err"
assert_eq "--quiet" "$(cat "$T/err")" ""

# Flats drain to their lower edge: a flat of 5 in a rim of 9, outlet the 1.
echo "9 9 9 9 9  9 5 5 5 9  1 5 5 5 9  9 5 5 5 9  9 9 9 9 9" |
    mkstream 5 5 height > "$T/flat"
run_prog tflow -v < "$T/flat" > "$T/o" 2> "$T/err"
assert_eq "flat: all water reaches the outlet" "$(stat "$T/o" 'flow[2, 0]')" 25.0
grep -q "6 on flats, 0 sinks" "$T/err" && pass || fail "flat counts: $(cat "$T/err")"
# The flat rules against brute forces in Python on integer heights (flats
# and sinks everywhere). Converging: scripts/flat-rule.py, the rule of
# Barnes et al. written from its statement alone (its border-first variant,
# which is what tflow and RichDEM do).
py '
rng = np.random.default_rng(5)
write(np.floor(rng.random((60, 70)) * 3), extra=["CELLSIZE 1"])' > "$T/ints"
run_prog tflow -q < "$T/ints" > "$T/o"
assert_eq "flats converge: every flat cell as flat-rule.py says" "$(py '
import importlib.util
spec = importlib.util.spec_from_file_location("fr", sys.argv[3])
fr = importlib.util.module_from_spec(spec); spec.loader.exec_module(fr)
z = band(sys.argv[1], "height"); d = band(sys.argv[2], "dir")
flat, dl, dh, want = fr.flat_rule(z, border_first=True)
print(int(flat.sum()) > 500, int((dl > 2).sum()) > 50,
    int((d[flat] != want[flat]).sum()))' "$T/ints" "$T/o" "$ROOT/scripts/flat-rule.py")" "True True 0"
# Nearest: distance d from the flat cells next to a cell of the same height
# that drains (d = 1, the first such neighbour in the order E, SE, S, SW,
# W, NW, N, NE), then the first neighbour at d - 1.
run_prog tflow -q --flats nearest < "$T/ints" > "$T/o"
assert_eq "flats nearest: every flat cell as the brute force says" "$(py '
from collections import deque
z = band(sys.argv[1], "height"); d = band(sys.argv[2], "dir")
h, w = z.shape
steps = [ESRI[c] for c in (1, 2, 4, 8, 16, 32, 64, 128)]
def nb(y, x):
    for k, (dy, dx) in enumerate(steps):
        if 0 <= y + dy < h and 0 <= x + dx < w:
            yield k, y + dy, x + dx
def flat(y, x):
    n = list(nb(y, x))
    return len(n) == 8 and all(z[v, u] >= z[y, x] for _, v, u in n)
F = {(y, x) for y in range(h) for x in range(w) if flat(y, x)}
D, want, q = {}, {}, deque()
for y, x in sorted(F):
    for k, v, u in nb(y, x):
        if z[v, u] == z[y, x] and (v, u) not in F:
            D[y, x] = 1; want[y, x] = k; q.append((y, x)); break
while q:
    y, x = q.popleft()
    for k, v, u in nb(y, x):
        if (v, u) in F and z[v, u] == z[y, x] and (v, u) not in D:
            D[v, u] = D[y, x] + 1; q.append((v, u))
for c in F:
    if c in D and D[c] > 1:
        want[c] = next(k for k, v, u in nb(*c) if D.get((v, u)) == D[c] - 1 and z[v, u] == z[c])
codes = [1, 2, 4, 8, 16, 32, 64, 128]
bad = sum(d[c] != (codes[want[c]] if c in want else 0) for c in F)
print(len(F) > 500, sum(1 for c in D if D[c] > 2) > 50, bad)' "$T/ints" "$T/o")" "True True 0"

# Rivers and area: a 4-cell ramp, 30 m cells: 900, 1800, 2700, 3600 m^2.
echo "4 3 2 1" | mkstream 4 1 height "CELLSIZE 30" > "$T/ramp"
run_prog tflow --area --rivers 2700 < "$T/ramp" > "$T/o"
assert_eq "area" "$(stat "$T/o" 'flow[0].tolist()')" "[900.0, 1800.0, 2700.0, 3600.0]"
assert_eq "river" "$(stat "$T/o" 'river[0].tolist()')" "[0.0, 0.0, 1.0, 1.0]"

# Past 2^24 cells a float32 sum stops counting (2^24 + 1 rounds back to
# 2^24): a V valley 4095 x 4098, sides falling 1 per cell to the middle
# column, which falls 0.01 per row to its outlet on the south edge. Every
# cell drains there: the flow at the outlet is all 16,781,310 cells (a
# float32 holds that exactly), never more than the grid. (MFD past 2^24
# cells is in check_flow: it takes seconds on a grid this size.)
py 'x = np.abs(np.arange(4095) - 2047.0)
y = (4097 - np.arange(4098.0)) * 0.01
write(x[None, :] + y[:, None])' | run_prog tflow | run_prog tcrop -w 0,4097,4095,1 > "$T/v"
assert_eq "V valley: flow at the outlet" "$(stat "$T/v" 'int(flow[0, 2047])')" 16781310
assert_eq "V valley: nothing drains more" "$(stat "$T/v" 'float(flow.max()) == flow[0, 2047]')" True

# The real DEM through timport | tfill | tflow: no sinks, the water leaving
# (flow on outlets, negative GRASS codes) is every cell; geographic cells:
# a source cell's area in row 0 (36.7325 N) is 74.435 m x 92.477 m
# (WGS84 radii of curvature, as in check_flow).
run_prog timport "$DATA/jacksboro_fault_dem.tif" | run_prog tfill > "$T/dem"
run_prog tflow --dir-codes grass -r 500 -m mfd -j 1 < "$T/dem" > "$T/j1"
run_prog tflow --dir-codes grass -r 500 -m mfd -j 2 < "$T/dem" > "$T/j2"
cmp -s <(body "$T/j1") <(body "$T/j2") && pass || fail "-j 1 and -j 2 differ"
assert_eq "DEM: water leaving = cells" \
    "$(stat "$T/j1" '(int(flow[dir < 0].sum()), flow.size, int((dir == 0).sum()))')" \
    "(138632, 138632, 0)"
assert_eq "DEM: MFD keeps the water" \
    "$(stat "$T/j1" 'abs(float(mfd[dir < 0].astype(float).sum()) / flow.size - 1) < 1e-5')" True
assert_eq "DEM: rivers" "$(stat "$T/j1" 'int(river.sum()) == int((flow >= 500).sum()) > 0')" True
run_prog tflow --area < "$T/dem" > "$T/o"
assert_near "DEM: area of the first row's cells" \
    "$(stat "$T/o" 'float(flow[0][flow[0] == flow[0].min()][0])')" 6883.58 0.01
run_prog tflow --area --geographic no < "$T/dem" > "$T/o"
assert_eq "--geographic no: square degrees" \
    "$(stat "$T/o" 'float(flow.min()) == float(np.float32((1 / 1200.0) ** 2))')" True

# -m dinf: D-infinity (Tarboton 1997) as TauDEM computes it (its figures
# against TauDEM itself: scripts/taudem-compare.sh, docs/GIS.md). A plane
# falling south, cells 10 wide: interior angles 3 pi / 2; the border has
# none (-1, TauDEM's NoData) and passes nothing on, so a cell of row r >= 1
# holds rows 1..r: SCA 10 r, its own width included (areadinf's 10, 20, 30,
# 40 down a column). The plane's rows are alike, so --rivers T marks whole
# rows (r >= T, interior columns: the border columns keep their own cell),
# not lines; -a counts square map units.
py 'y = np.arange(8.0)[:, None] + np.zeros(7); write(-10 * y, extra=["CELLSIZE 10"])' \
    > "$T/south"
run_prog tflow -m dinf -r 3 < "$T/south" > "$T/o"
assert_eq "dinf: bands" "$(header "$T/o" BANDS)" "height flow dir river dinf sca"
assert_eq "dinf: angles" "$(stat "$T/o" 'sorted(set(dinf[1:-1, 1:-1].ravel().tolist())), sorted(set(dinf[0].tolist() + dinf[:, 0].tolist()))')" \
    "([4.71238899230957], [-1.0])"
assert_eq "dinf: SCA down a column" "$(stat "$T/o" '[round(float(v), 4) for v in sca[:, 3]]')" \
    "[10.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0]"
assert_eq "dinf: rivers are whole rows" "$(stat "$T/o" \
    'bool((river[:, 1:-1] == (np.arange(8) >= 3)[:, None]).all()), int(river[:, [0, -1]].sum())')" \
    "(True, 0)"
run_prog tflow -m dinf -a -r 300 < "$T/south" > "$T/o"
assert_eq "dinf: -a rivers on square map units" "$(stat "$T/o" \
    'river[:, 3].tolist()')" "[0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0]"
# z = -2x + y falls 2 east and 1 north a cell: D-inf splits each cell's
# water between E and NE (angle atan2(1, 2)), so the cells above the
# threshold fill each row from some column to the east edge, one run, no
# comb of parallel lines.
py 'y, x = np.mgrid[0:10, 0:12]; write(100.0 - 2 * x + y)' > "$T/oblique"
run_prog tflow -m dinf -r 4 < "$T/oblique" > "$T/o"
assert_eq "dinf: oblique plane, one run of river a row" "$(stat "$T/o" \
    '(all(r.sum() == 0 or (r[-1] == 1 and (np.diff(r) >= 0).all()) for r in river),
    round(float(dinf[5, 5]), 7), round(float(sca[2, 10]), 4))')" "(True, 0.4636476, 9.6643)"
# The real DEM: the same bytes on 1 and 2 threads; every valid cell an
# angle in [0, 2 pi) or -1 on the border alone; SCA at least a cell's
# width (74.4 m in the north row); -m d8 is the default.
run_prog tflow -m dinf -r 300 -j 1 < "$T/dem" > "$T/d1"
run_prog tflow -m dinf -r 300 -j 2 < "$T/dem" > "$T/d2"
cmp -s <(body "$T/d1") <(body "$T/d2") && pass || fail "dinf: -j 1 and -j 2 differ"
assert_eq "dinf: DEM angles" "$(stat "$T/d1" \
    'int(((dinf >= 0) & (dinf < 2 * np.pi)).sum()), int((dinf == -1).sum()), dinf.size')" \
    "(137142, 1490, 138632)"
assert_eq "dinf: DEM SCA" "$(stat "$T/d1" 'bool(sca.min() > 74), int(river.sum()) > 0')" "(True, True)"
run_prog tflow -m d8 < "$T/dem" > "$T/o"
run_prog tflow < "$T/dem" > "$T/o2"
cmp -s <(body "$T/o") <(body "$T/o2") && pass || fail "-m d8 is not the default"
# The method's errors; --mfd, the old flag, still works with a warning.
expect_err 2 "tflow: option requires an argument" "-m alone" run_prog tflow -m
expect_err 2 "tflow: --method: '-r' is not one of d8, mfd, dinf" "old -m before an option" \
    run_prog tflow -m -r 5 < "$T/dem"
expect_err 2 "tflow: --method: 'd9' is not one of d8, mfd, dinf" "unknown method" \
    run_prog tflow --method d9 < "$T/dem"
expect_err 2 "tflow: the stream order (--order) and the river rule" "dinf with --order" \
    run_prog tflow -m dinf -r 5 --order < "$T/dem"
expect_err 2 "tflow: the tile phases make flow, dir and river only" "dinf with a tile phase" \
    run_prog tflow -m dinf --tile-prepare "$T/dem"
run_prog tflow --mfd < "$T/dem" > "$T/o" 2> "$T/err"
assert_eq "--mfd: the old spelling's warning" "$(cat "$T/err")" \
    "tflow: --mfd is now -m (--method) mfd; the old spelling will go"
run_prog tflow -m mfd < "$T/dem" > "$T/o2"
cmp -s "$T/o" "$T/o2" && pass || fail "--mfd and -m mfd differ"

# EPSG:6318 (NAD83(2011)) is geographic for tflow and tview alike. One
# arc-second cells in a row centred on 60 N measure 15.500 m x 30.948 m on
# WGS84 (a degree there spans 55800.0 m east-west, 111412.3 m north-south),
# so a source cell drains 479.69 m^2, the same bytes as under EPSG:4326;
# tview shades the grid as it shades EPSG:4326, not as a projected CRS.
geo() { echo "$2" | mkstream "$1" 1 height "CELLSIZE 0.000277777777777777778" \
    "ORIGIN 10 60.000138888888888889" "CRS EPSG:$3"; }
for crs in 6318 4326 32633; do
	geo 4 "4 3 2 1" $crs | run_prog tflow --area -v > "$T/g$crs" 2> "$T/e$crs"
done
assert_near "EPSG:6318: area of a source cell" \
    "$(stat "$T/g6318" 'float(flow[0, 0])')" 479.69 0.01
cmp -s <(body "$T/g6318") <(body "$T/g4326") && pass || fail "6318 and 4326 differ"
grep -q ", geographic;" "$T/e6318" && pass || fail "6318 not geographic: $(cat "$T/e6318")"
grep -q ", geographic;" "$T/e32633" && fail "32633 taken as geographic" || pass
# A CRS with no EPSG code travels as GEOKEYS: a user-defined sphere is still
# degrees (model type 2), a user-defined projection still metres.
echo "4 3 2 1" | mkstream 4 1 height "CELLSIZE 0.000277777777777777778" \
    "ORIGIN 10 60.000138888888888889" \
    "GEOKEYS 1.1.0 1024=s:2 2048=s:32767 2050=s:32767 2056=s:32767 2057=d:6371000 2058=d:6371000" \
    | run_prog tflow -v > /dev/null 2> "$T/esphere"
grep -q ", geographic;" "$T/esphere" && pass || fail "GEOKEYS sphere not geographic: $(cat "$T/esphere")"
echo "4 3 2 1" | mkstream 4 1 height "GEOKEYS 1.1.0 1024=s:1 3072=s:32767" \
    | run_prog tflow -v > /dev/null 2> "$T/eproj"
grep -q ", geographic;" "$T/eproj" && fail "GEOKEYS projection taken as geographic" || pass
for crs in 6318 4326 32633; do
	geo 8 "$(seq 1 8 | awk '{ printf "%g ", 3 * sin($1) }')" $crs |
	    run_prog tview --shade-only --exaggeration 1 -o "$T/g$crs.png"
done
pixels() { "$PY" -c '
import sys; from osgeo import gdal
print(gdal.Open(sys.argv[1]).ReadAsArray()[0].tolist() == gdal.Open(sys.argv[2]).ReadAsArray()[0].tolist())' "$1" "$2"; }
assert_eq "tview: 6318 shaded as 4326" "$(pixels "$T/g6318.png" "$T/g4326.png")" True
assert_eq "tview: 32633 shaded otherwise" "$(pixels "$T/g6318.png" "$T/g32633.png")" False

# A pipeline into tbiome's kind of consumer: rivers exist and are 0/1.
run_prog tnoise -q -s 128x96 -S 11 | run_prog tfill | run_prog tflow -r 50 > "$T/o"
assert_eq "pipeline rivers 0/1" "$(stat "$T/o" 'sorted(set(river.ravel().tolist()))')" "[0.0, 1.0]"

# The sea, by hand (SEALEVEL 0.5): columns 0..2 are land falling 3 a cell
# east (9 6 3), columns 3..6 sea floor (0.2 to 0.4) with a deeper pit, 0.
# Land drains east (ESRI 1, GRASS 8) into the sea; sea cells have dir 0 in
# both codes, keep their own cell plus what reaches them and pass nothing
# on: flow 1 2 3 on land, 4 on the coast's sea column, 1 on the rest of
# the sea, the pit included. Rivers (flow >= 3) stop at the coast.
for r in 0.4,0.3,0.3,0.4 0.3,0.2,0.2,0.3 0.3,0.2,0,0.3 0.3,0.2,0.2,0.3 \
    0.4,0.3,0.3,0.4; do echo "9 6 3 ${r//,/ }"; done > "$T/sea.txt"
mkstream 7 5 height "SEALEVEL 0.5" < "$T/sea.txt" > "$T/sea"
mkstream 7 5 height < "$T/sea.txt" > "$T/nosea"
run_prog tflow -r 3 -v < "$T/sea" > "$T/o" 2> "$T/err"
assert_eq "sea: flow" "$(stat "$T/o" 'flow.tolist() == [[1, 2, 3, 4, 1, 1, 1]] * 5')" True
assert_eq "sea: ESRI dir" "$(stat "$T/o" 'dir.tolist() == [[1, 1, 1, 0, 0, 0, 0]] * 5')" True
assert_eq "sea: rivers stop at the coast" \
    "$(stat "$T/o" 'river.tolist() == [[0, 0, 1, 0, 0, 0, 0]] * 5')" True
grep -q "outlets (20 sea), 0 on flats, 0 sinks" "$T/err" && pass ||
    fail "sea counts: $(cat "$T/err")"
run_prog tflow --dir-codes grass < "$T/sea" > "$T/o"
assert_eq "sea: GRASS dir, +0 on the sea" \
    "$(stat "$T/o" '(dir.tolist() == [[8, 8, 8, 0, 0, 0, 0]] * 5, bool(np.signbit(dir).any()))')" \
    "(True, False)"
run_prog tflow -r 3 --sea 0.5 < "$T/nosea" > "$T/p"
run_prog tflow -r 3 < "$T/sea" > "$T/o"
cmp -s <(body "$T/o") <(body "$T/p") && pass || fail "--sea 0.5 differs from SEALEVEL 0.5"
assert_eq "--sea is recorded" "$(header "$T/p" SEALEVEL) | $(header "$T/p" HISTORY)" \
    "0.5 | tflow --rivers 3 --sea 0.5"
# --no-sea: the old routing, everything drains into the sea-floor pit, a
# sink.
run_prog tflow --no-sea < "$T/sea" > "$T/o" 2> "$T/err"
assert_eq "--no-sea: the pit collects every cell" "$(stat "$T/o" 'int(flow[2, 5])')" 35
grep -q "1 cells have no outflow" "$T/err" && pass || fail "--no-sea sink warning"
run_prog tflow < "$T/nosea" > "$T/p" 2> /dev/null
cmp -s <(body "$T/o") <(body "$T/p") && pass || fail "--no-sea differs from no SEALEVEL"

# An island pipeline: every land cell's D8 path (rivers included) ends in
# the sea or leaves the grid; no river on the sea; the water that leaves
# (the sea's flow and the border outlets', negative GRASS codes) is every
# cell, exactly; 1 and 2 threads agree.
run_prog tnoise -q -s 200x150 -S 5 | run_prog tisland --sea 0.3 | run_prog tfill > "$T/isl"
run_prog tflow --dir-codes grass -r 40 -m mfd -j 1 < "$T/isl" > "$T/j1"
run_prog tflow --dir-codes grass -r 40 -m mfd -j 2 < "$T/isl" > "$T/j2"
cmp -s <(body "$T/j1") <(body "$T/j2") && pass || fail "sea: -j 1 and -j 2 differ"
assert_eq "island: drains to the sea or off the grid" \
    "$(stat "$T/j1" 'drain_check(dir, height >= np.float32(0.3), GRASS)')" ok
assert_eq "island: rivers on land only, some reach the sea" \
    "$(stat "$T/j1" '(int(river[height < np.float32(0.3)].sum()), bool(river.sum() > 0), bool(((dir == 0) & (flow >= 40)).any()))')" \
    "(0, True, True)"
assert_eq "island: water leaving = cells" \
    "$(stat "$T/j1" 'int(flow[height < np.float32(0.3)].sum() + flow[dir < 0].sum()) == flow.size')" True
assert_eq "island: MFD keeps the water" \
    "$(stat "$T/j1" 'abs(float(mfd[(height < np.float32(0.3)) | (dir < 0)].astype(float).sum()) / flow.size - 1) < 1e-5')" True
echo "1 2 3 4" | mkstream 2 2 height "SEALEVEL x" > "$T/badsea"
expect_err 1 "^tflow: SEALEVEL: 'x' is not a number$" "malformed SEALEVEL" \
    run_prog tflow < "$T/badsea"
assert_eq "malformed SEALEVEL: one line" "$(wc -l < "$T/.err")" 1
expect_exit 2 "--sea with --no-sea" run_prog tflow --no-sea --sea 1

# Stream order and basins, by hand: the east plane (5x3) is three parallel
# rivers, each a chain: Strahler 1 and Shreve 1 on every river cell; three
# basins, one per row, numbered by their outlets (column 4) top to bottom.
run_prog tflow -r 1 --order --basins < "$T/east" > "$T/o"
assert_eq "order and basin bands" "$(header "$T/o" BANDS)" \
    "height flow dir river order basin"
assert_eq "chains: Strahler 1" "$(stat "$T/o" 'sorted(set(order.ravel().tolist()))')" "[1.0]"
assert_eq "three basins by row" "$(stat "$T/o" 'basin[:, 0].tolist() + basin[0].tolist()')" \
    "[1.0, 2.0, 3.0, 1.0, 1.0, 1.0, 1.0, 1.0]"
run_prog tflow -r 3 --order=shreve < "$T/east" > "$T/o"
assert_eq "order 0 off the rivers" "$(stat "$T/o" 'order[1].tolist()')" "[0.0, 0.0, 1.0, 1.0, 1.0]"
# The sea by hand: every row's land drains into the sea from column 2, an
# outlet per row: basins 1..5 on land, 0 on the sea.
run_prog tflow --basins < "$T/sea" > "$T/o"
assert_eq "sea: basins" \
    "$(stat "$T/o" 'basin.tolist() == [[r, r, r, 0, 0, 0, 0] for r in range(1, 6)]')" True
# A sink is an outlet: the unfilled pit's 9 cells are one basin. Around a
# NaN hole in a flat every cell drains into the hole, each its own basin,
# numbered row by row; the hole is NaN.
run_prog tflow -q --basins < "$T/pit" > "$T/o"
assert_eq "pit: one basin" "$(stat "$T/o" 'basin.ravel().tolist()')" \
    "[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]"
echo "5 5 5  5 nan 5  5 5 5" | mkstream 3 3 height | run_prog tflow --basins > "$T/o"
assert_eq "hole: 8 basins" "$(stat "$T/o" 'basin.ravel().tolist()')" \
    "[1.0, 2.0, 3.0, 4.0, nan, 5.0, 6.0, 7.0, 8.0]"
# --order KIND and --order=KIND are one option, recorded with its kind.
run_prog tflow -r 3 --order shreve -q < "$T/east" > "$T/p"
run_prog tflow -r 3 --order=shreve -q < "$T/east" > "$T/o"
cmp -s <(body "$T/o") <(body "$T/p") && pass || fail "--order shreve differs from --order=shreve"
assert_eq "--order recorded" "$(header_lines "$T/p" | grep '^HISTORY tflow')" \
    "HISTORY tflow --rivers 3 --order shreve"

# The real DEM (filled): Strahler and Shreve against a brute-force
# reference, the recursive definitions on the GRASS-coded dir band: a
# river cell's order from the river cells whose direction points at it.
run_prog tflow --dir-codes grass -r 100 --order --basins -j 1 < "$T/dem" > "$T/ob1"
run_prog tflow --dir-codes grass -r 100 --order --basins -j 2 < "$T/dem" > "$T/ob2"
cmp -s <(body "$T/ob1") <(body "$T/ob2") && pass || fail "order, basins: -j 1 and -j 2 differ"
run_prog tflow --dir-codes grass -r 100 --order shreve < "$T/dem" > "$T/sh"
orders() { py - "$1" "$2" <<'EOF'
import functools
sys.setrecursionlimit(100000)
b, sh = bands(sys.argv[1]), bands(sys.argv[2])
d, riv = b["dir"], b["river"] == 1
rows, cols = d.shape
@functools.lru_cache(maxsize=None)
def donors(r, c):
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            rr, cc = r + dr, c + dc
            if (dr or dc) and 0 <= rr < rows and 0 <= cc < cols and \
               riv[rr, cc] and GRASS.get(float(d[rr, cc])) == (-dr, -dc):
                out.append((rr, cc))
    return out
@functools.lru_cache(maxsize=None)
def strahler(r, c):
    up = [strahler(*p) for p in donors(r, c)]
    if not up:
        return 1
    m = max(up)
    return m + 1 if up.count(m) > 1 else m
@functools.lru_cache(maxsize=None)
def shreve(r, c):
    up = [shreve(*p) for p in donors(r, c)]
    return sum(up) if up else 1
ref_st = np.zeros(d.shape, np.float32)
ref_sh = np.zeros(d.shape, np.float32)
for r, c in zip(*np.nonzero(riv)):
    ref_st[r, c] = strahler(r, c)
    ref_sh[r, c] = shreve(r, c)
print(bool((ref_st == b["order"]).all()), bool((ref_sh == sh["order"]).all()),
      int(ref_st.max()) >= 4, int(riv.sum()) > 1000)
EOF
}
assert_eq "DEM: Strahler and Shreve = brute force" "$(orders "$T/ob1" "$T/sh")" \
    "True True True True"

# Basins on the DEM: every cell carries the label of the cell it drains
# into; outlets (cells draining off the grid, GRASS code < 0; the filled
# DEM has no sinks and no sea) are numbered 1, 2, ... in row-major order.
assert_eq "DEM: basins follow dir, outlets in row-major order" \
    "$(py - "$T/ob1" <<'EOF'
b = bands(sys.argv[1]); d, lab = b["dir"], b["basin"]
rows, cols = d.shape
ok = True
for r in range(rows):
    for c in range(cols):
        if d[r, c] > 0:
            dr, dc = GRASS[float(d[r, c])]
            ok &= bool(lab[r, c] == lab[r + dr, c + dc])
outs = lab[d < 0]		# row-major, as numpy's boolean indexing is
print(ok, outs.tolist() == list(range(1, outs.size + 1)),
      int(lab.max()) == outs.size, bool((lab >= 1).all()))
EOF
)" "True True True True"
# --min-basin 1000: the basins of fewer cells become 0, the rest keep
# their order, numbered again 1, 2, ...
run_prog tflow --dir-codes grass --basins --min-basin 1000 < "$T/dem" > "$T/mb"
assert_eq "DEM: --min-basin 1000" "$(py - "$T/ob1" "$T/mb" <<'EOF'
a, m = band(sys.argv[1], "basin"), band(sys.argv[2], "basin")
sizes = np.bincount(a.astype(int).ravel())
big = [l for l in range(1, sizes.size) if sizes[l] >= 1000]
new = {l: i + 1 for i, l in enumerate(big)}
want = np.vectorize(lambda l: new.get(int(l), 0))(a)
print(bool((want == m).all()), 0 < len(big) < sizes.size - 1)
EOF
)" "True True"

# GRASS r.water.outlet on the same direction map (the dir band in GRASS
# codes): the basins of the 6 largest and the 2 smallest outlets equal its
# watersheds cell for cell, and so does tflow --outlet: once with --snap 5
# (GRASS given the centre of the snapped cell tflow prints), once at a
# point as it is.
run_prog tgeotiff -q -b dir "$T/dir.tif" < "$T/ob1"
py - "$T/ob1" > "$T/outlets" <<'EOF'
h, b = header(sys.argv[1]), bands(sys.argv[1])
x0, y0 = map(float, h["ORIGIN"].split()); cs = float(h["CELLSIZE"])
lab, flow = b["basin"].astype(int), b["flow"]
sizes = np.bincount(lab.ravel())[1:]
order = np.argsort(-sizes, kind="stable") + 1
for l in list(order[:6]) + list(order[-2:]):
    r, c = np.unravel_index(np.argmax(np.where(lab == l, flow, -1)), lab.shape)
    print("b%d %.12f,%.12f" % (l, x0 + (c + 0.5) * cs, y0 - (r + 0.5) * cs))
EOF
run_prog tflow --dir-codes grass --outlet -84.2,36.6 --snap 5 < "$T/dem" > "$T/p1" 2> "$T/p1.err"
run_prog tflow --dir-codes grass --outlet -84.3,36.65 < "$T/dem" > "$T/p2" 2> "$T/p2.err"
assert_eq "--snap: the snapped cell on stderr" "$(cat "$T/p1.err")" \
    "tflow: outlet at -84.20333333,36.6025 (column 252, row 156, flow 1341): 1341 cells drain there"
echo "p1 $(sed 's/.* at \([^ ]*\) .*/\1/' "$T/p1.err")" >> "$T/outlets"
echo "p2 -84.3,36.65" >> "$T/outlets"
cat > "$T/ws.sh" <<'EOF'
r.in.gdal -o input="$1/dir.tif" output=dirf --quiet && g.region raster=dirf || exit 1
r.mapcalc "dir = int(dirf)" --quiet
while read -r name xy; do
	r.water.outlet input=dir output=$name coordinates=$xy --quiet
	r.out.gdal input=$name output="$1/$name.tif" format=GTiff type=Float32 --quiet -c
done < "$1/outlets"
EOF
grass --tmp-location EPSG:4326 --exec bash "$T/ws.sh" "$T" > "$T/grass.log" 2>&1 ||
    fail "GRASS r.water.outlet: $(tail -3 "$T/grass.log")"
assert_eq "GRASS r.water.outlet = basins and --outlet" "$(py - "$T" <<'EOF'
from osgeo import gdal
t = sys.argv[1]
lab = band(t + "/ob1", "basin")
out = []
for line in open(t + "/outlets"):
    name = line.split()[0]
    g = gdal.Open("%s/%s.tif" % (t, name)).ReadAsArray() == 1
    ours = lab == int(name[1:]) if name[0] == "b" else \
        band("%s/%s" % (t, name), "basin") == 1
    out.append("%s %s" % (name, "same" if (g == ours).all() and g.any() else
                           "differs in %d cells" % (g != ours).sum()))
print(", ".join(out))
EOF
)" "$(cut -d' ' -f1 "$T/outlets" | sed 's/$/ same/' | paste -sd, | sed 's/,/, /g')"
# the snap: the highest flow within 5 cells of the point's cell, by brute force
assert_eq "--snap 5 by brute force" "$(py - "$T/p1" <<'EOF'
h, f = header(sys.argv[1]), band(sys.argv[1], "flow")
x0, y0 = map(float, h["ORIGIN"].split()); cs = float(h["CELLSIZE"])
c0, r0 = int((-84.2 - x0) // cs), int((y0 - 36.6) // cs)
best = max((f[r, c], -r, -c) for r in range(r0 - 5, r0 + 6)
           for c in range(c0 - 5, c0 + 6) if (r - r0) ** 2 + (c - c0) ** 2 <= 25)
print("column %d, row %d" % (-best[2], -best[1]))
EOF
)" "column 252, row 156"
assert_eq "--outlet: 0 outside the watershed, NaN nowhere" \
    "$(stat "$T/p2" '(sorted(set(basin.ravel().tolist())), int(basin.sum()) > 1)')" \
    "([0.0, 1.0], True)"
# Errors: options that need another, a point off the grid, no land near.
expect_err 2 "^tflow: the stream order (--order) needs the river threshold (--rivers)$" "--order alone" run_prog tflow --order
expect_err 2 "^tflow: the smallest basin (--min-basin) needs basin labels (--basins)$" "--min-basin alone" \
    run_prog tflow --min-basin 5
expect_err 2 "^tflow: the snap radius (--snap) needs an outlet point (--outlet)$" "--snap alone" run_prog tflow --snap 2
expect_err 2 "^tflow: basin labels (--basins) and an outlet point (--outlet) both make the band 'basin'$" \
    "--basins and --outlet" run_prog tflow --basins --outlet 1,1
expect_err 2 "^tflow: --order: " "bad order kind" run_prog tflow -r 5 --order=horton
expect_err 2 "^tflow: --min-basin: " "--min-basin 0" run_prog tflow --basins --min-basin 0
expect_err 2 "^tflow: --outlet: " "--outlet with one number" run_prog tflow --outlet 5
expect_err 2 "^tflow: --band: 'order' is an output band$" "-b order" \
    run_prog tflow -r 1 --order -b order
expect_err 1 "^tflow: the outlet point (--outlet) 5,2 lies outside the grid: x 0 to 5, y 0 to 3$" \
    "--outlet off the grid" run_prog tflow --outlet 5,2 < "$T/east"
assert_eq "--outlet off the grid: one line" "$(wc -l < "$T/.err")" 1
expect_err 1 "^tflow: the outlet point (--outlet) 6.5,2.5: no land within 1 cells$" "--outlet in the sea" \
    run_prog tflow --outlet 6.5,2.5 --snap 1 < "$T/sea"
run_prog tflow -q --outlet 6.5,2.5 --snap 4 < "$T/sea" > "$T/o" 2> "$T/err"
assert_eq "--snap 4 from the sea reaches the coast, quietly" \
    "$(stat "$T/o" 'basin.tolist()')|$(cat "$T/err")" \
    "[[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]|"

expect_exit 2 "bad codes" run_prog tflow --dir-codes arcgis
expect_exit 2 "negative threshold" run_prog tflow --rivers -1
# --carve on the unfilled DEM: the directions equal a brute-force Python
# flood written from tflow(1)'s description (heapq, lowest first, equal
# heights in push order; each cell takes the steepest drop to a cell taken
# before it, else the cell that reached it), on square cells (-g no, so
# the distances are the cell size and its diagonal); no sinks, and the
# water leaving is every cell. On a filled surface --carve changes nothing.
run_prog timport "$DATA/jacksboro_fault_dem.tif" > "$T/raw"
run_prog tflow --carve -g no -r 150 < "$T/raw" > "$T/carve"
assert_eq "--carve = brute-force flood" "$(py - "$T/raw" "$T/carve" <<'EOF'
import heapq, math
z = band(sys.argv[1], "height").astype(np.float64)
got = band(sys.argv[2], "dir")
cs = float(header(sys.argv[1])["CELLSIZE"])
H, W = z.shape
DX = [0, 1, 1, 0, -1, -1, -1, 0, 1]; DY = [0, 0, 1, 1, 1, 0, -1, -1, -1]
ESRI = [0, 1, 2, 4, 8, 16, 32, 64, 128]
inv = [0] + [1 / (cs if k % 2 else math.sqrt(cs * cs + cs * cs)) for k in range(1, 9)]
d = np.zeros((H, W), int); seen = np.zeros((H, W), bool)
taken = np.zeros((H, W), bool); heap = []; seq = 0
for y in range(H):
    for x in range(W):
        out = [k for k in range(1, 9) if not (0 <= x + DX[k] < W and 0 <= y + DY[k] < H)]
        if out:
            d[y, x] = out[0]; seen[y, x] = True
            heapq.heappush(heap, (z[y, x], seq, y, x)); seq += 1
while heap:
    zc, _, y, x = heapq.heappop(heap)
    best, bk = 0.0, 0
    for k in range(1, 9):
        ny, nx = y + DY[k], x + DX[k]
        if not (0 <= nx < W and 0 <= ny < H):
            continue
        if not seen[ny, nx]:
            seen[ny, nx] = True; d[ny, nx] = (k + 3) % 8 + 1
            heapq.heappush(heap, (z[ny, nx], seq, ny, nx)); seq += 1
        elif taken[ny, nx]:
            drop = (zc - z[ny, nx]) * inv[k]
            if drop > best:
                best, bk = drop, k
    if bk:
        d[y, x] = bk
    taken[y, x] = True
want = np.array([[ESRI[k] for k in row] for row in d], np.float32)
print(bool((want == got).all()))
EOF
)" True
run_prog tflow --carve --dir-codes grass < "$T/raw" > "$T/carveg"
assert_eq "--carve: no sinks, water leaving = cells" "$(stat "$T/carveg" \
    'int((dir == 0).sum()), int(flow[dir < 0].sum())')" "(0, 138632)"
run_prog tflow --carve -r 500 < "$T/dem" > "$T/c1"
run_prog tflow -r 500 < "$T/dem" > "$T/c2"
cmp -s <(body "$T/c1") <(body "$T/c2") && pass ||
    fail "--carve changed the flow of a filled surface"
expect_err 2 "tflow: carving (--carve) routes single-flow D8 only" "--carve with -m mfd" \
    run_prog tflow --carve -m mfd < "$T/raw"
expect_err 2 "tflow: --carve needs the whole grid" "--carve with a tile phase" \
    run_prog tflow --carve --tile-prepare "$T/raw"

# Against GRASS r.stream.extract on the same unfilled DEM, threshold 150
# cells, D8 everywhere (d8cut=0), which routes out of depressions by its
# own least-cost search and measures slopes in degrees (hence -g no): at
# least 95% of its stream cells are tflow --carve's river cells, and tflow
# has at most 5% more. The filled route, tfill | tflow, shares about 82%:
# it sends rivers across the filled lakes.
cat > "$T/se.sh" <<'EOF'
r.in.gdal -o input="$1" output=z --quiet && g.region raster=z || exit 1
r.stream.extract elevation=z threshold=150 d8cut=0 stream_raster=st --quiet
r.out.gdal input=st output="$2" format=GTiff type=Int32 --quiet -c
EOF
grass --tmp-location EPSG:4326 --exec bash "$T/se.sh" "$DATA/jacksboro_fault_dem.tif" \
    "$T/st.tif" > "$T/grass2.log" 2>&1 ||
    fail "GRASS r.stream.extract: $(tail -3 "$T/grass2.log")"
assert_eq "--carve rivers against r.stream.extract" "$(py - "$T/carve" "$T/st.tif" <<'EOF'
from osgeo import gdal
ours = band(sys.argv[1], "river") == 1
g = gdal.Open(sys.argv[2]).ReadAsArray() > 0
print((ours & g).sum() >= 0.95 * g.sum(), ours.sum() <= 1.05 * g.sum(), g.sum() > 5000)
EOF
)" "True True True"

# --carve first and --river-rule trace on grids worked by hand (the same
# as tests/check_carve.c and tests/check_rivers.c; r.stream.extract
# agrees, below). The centre 10 of a 3x3: the flood takes NE 2 first, and
# from there the centre is 5.66 up per unit of distance, more than its rise
# from the side cells N and E (2), so NE reaches it and the first rule
# drains it NE (ESRI 128); the steepest drop is W 3 (16). With E 3, the
# centre rises 7 from E: NE leaves it for E, which reaches it next (1).
mkstream 3 3 height <<< "12 8 2 3 10 8 12 12 12" > "$T/f1"
mkstream 3 3 height <<< "12 8 2 12 10 3 12 12 12" > "$T/f2"
assert_eq "--carve first: the neighbour that reached it, not the steepest" \
    "$(run_prog tflow --carve first < "$T/f1" | stat /dev/stdin 'int(dir[1, 1])') $(run_prog tflow --carve < "$T/f1" | stat /dev/stdin 'int(dir[1, 1])') $(run_prog tflow --carve=first < "$T/f2" | stat /dev/stdin 'int(dir[1, 1])')" \
    "128 16 1"
run_prog tflow --carve steepest -g no -r 150 < "$T/raw" > "$T/cs"
cmp -s <(body "$T/carve") <(body "$T/cs") && pass ||
    fail "--carve steepest and --carve differ"
# A tributary from the north-east: (3,1) 80, flow 4, is the head; (2,1) 30,
# reached by the flood from W (flow 6), has lower neighbours W and SW of
# flow 6 and S of flow 4: the last of the largest in the order S, N, W, E,
# NE, SW, SE, NW is SW, so the river and its dir leave the flood's W for SW
# (ESRI 8) and end at the outlet 0. Threshold 4 marks the six cells of
# flow >= 4 instead.
mkstream 6 5 height <<< "99 99 99 99 99 99 99 10 30 80 85 99 0 5 10 90 90 99
99 99 95 95 95 99 99 99 99 99 99 99" > "$T/tr"
run_prog tflow --carve first -r 4 --river-rule trace < "$T/tr" > "$T/tr1"
run_prog tflow --carve first -r 4 < "$T/tr" > "$T/tr2"
assert_eq "--river-rule trace: the largest flow, not dir" "$(stat "$T/tr1" \
    'np.argwhere(river == 1).tolist(), int(dir[1, 2]), int(dir[1, 3])')|$(stat \
    "$T/tr2" 'int(river.sum()), int(dir[1, 2])')" \
    "([[1, 2], [1, 3], [2, 0], [2, 1]], 8, 16)|(6, 16)"
# Thinning: a pit of two 5s drains over 6 to the notch 3; the river runs
# from (1,2) E to (2,2), then S up to 6; 6 is a neighbour of (1,2), so
# (2,2) is left out and (1,2) points SE (2) past it.
mkstream 5 5 height <<< "9 9 9 9 9 9 7 7 7 9 9 5 5 7 9 9 7 6 7 9 9 9 3 9 9" > "$T/th"
run_prog tflow --carve first -r 2 --river-rule trace < "$T/th" > "$T/th1"
assert_eq "--river-rule trace: thinned" "$(stat "$T/th1" \
    'np.argwhere(river == 1).tolist(), int(dir[2, 1]), int(dir[2, 2])')" \
    "([[2, 1], [3, 2], [4, 2]], 2, 4)"
# The traced river on the real DEM: the same bytes on 1 and 2 threads;
# order and basins follow the moved directions: every river cell's dir
# leads to a river cell or out (drain_check: every cell reaches an outlet).
run_prog tflow --carve first -r 150 --river-rule trace --order --basins -j 1 --dir-codes grass < "$T/raw" > "$T/t1"
run_prog tflow --carve first -r 150 --river-rule trace --order --basins -j 2 --dir-codes grass < "$T/raw" > "$T/t2"
cmp -s <(body "$T/t1") <(body "$T/t2") && pass ||
    fail "--river-rule trace: -j 1 and -j 2 differ"
assert_eq "--river-rule trace: dir along the rivers" "$(py - "$T/t1" <<'EOF2'
b = bands(sys.argv[1]); r = b["river"] == 1; d = b["dir"]
H, W = r.shape; bad = 0
for y, x in zip(*np.nonzero(r)):
    if d[y, x] > 0:
        dy, dx = GRASS[float(d[y, x])]
        bad += not r[y + dy, x + dx]
print(bad, drain_check(d, np.isfinite(b["height"]), GRASS), bool((b["order"][r] >= 1).all()))
EOF2
)" "0 ok True"
# Traced on the steepest rule too, whose border cells may drain inward:
# rivers end at the border all the same, and dir still drains everywhere.
run_prog tflow --carve -r 150 --river-rule trace --dir-codes grass < "$T/raw" > "$T/ts"
assert_eq "--carve --river-rule trace: drains, rivers continue inside" \
    "$(py - "$T/ts" <<'EOF2'
b = bands(sys.argv[1]); r = b["river"] == 1; d = b["dir"]; bad = 0
for y, x in zip(*np.nonzero(r[1:-1, 1:-1])):
    dy, dx = GRASS[float(d[y + 1, x + 1])]
    bad += not r[y + 1 + dy, x + 1 + dx]
print(drain_check(d, np.isfinite(b["height"]), GRASS), bad, int(r.sum()) > 5000)
EOF2
)" "ok 0 True"
expect_err 2 "^tflow: the trace river rule (--river-rule) needs carving (--carve)" "trace without --carve" \
    run_prog tflow -r 5 --river-rule trace < "$T/tr"
expect_err 2 "^tflow: the river rule (--river-rule) needs the river threshold (--rivers)" "--river-rule without -r" \
    run_prog tflow --carve --river-rule trace < "$T/tr"
expect_err 2 "^tflow: --river-rule: 'x' is not one of threshold, trace" \
    "bad river rule" run_prog tflow --carve -r 5 --river-rule x < "$T/tr"
expect_err 2 "^tflow: --carve: 'deepest' is not one of steepest, first" \
    "bad carve rule" run_prog tflow --carve=deepest < "$T/tr"
expect_err 2 "^tflow: --carve: 'deepest' is not one of steepest, first" \
    "bad carve rule, own word" run_prog tflow --carve deepest < "$T/tr"
expect_err 2 "^tflow: --order: 'horton' is not one of strahler, shreve" \
    "bad order kind, own word" run_prog tflow -r 5 --order horton < "$T/tr"

# --river-rule trace against r.stream.extract on the same unfilled DEM,
# threshold 150, d8cut=0, square cells (-g no, as GRASS measures in
# degrees here): the same stream cells, and on the river cells off the
# border the same directions (r.stream.extract's direction map; on the
# border GRASS codes the way out by the side, tflow by the first
# neighbour off the grid). Total length counted the same way on both:
# each stream cell's step (1 or sqrt 2 cells) to the stream cell its
# direction leads to. Then in metres: tvector --rivers (lines continued to
# the confluence below) against v.to.db on r.stream.extract's own
# stream_vector (the same rule) and on r.to.vect of its stream raster
# (which does not join lines at confluences), both within 1%. The hand
# grids above give the same stream cells in r.stream.extract.
run_prog tflow --carve first -g no -r 150 --river-rule trace --dir-codes grass < "$T/raw" > "$T/tg"
rm -f "$T/tg.gpkg"
ok "tvector --rivers on the traced rivers" run_prog tvector -q -r --dir-codes grass "$T/tg.gpkg" < "$T/tg"
py - "$T" <<'EOF2'
from osgeo import gdal
for name in ("tr", "th"):
    z = band(sys.argv[1] + "/" + name, "height")
    d = gdal.GetDriverByName("GTiff").Create(sys.argv[1] + "/" + name + ".tif",
        z.shape[1], z.shape[0], 1, gdal.GDT_Int16)
    d.SetGeoTransform((0, 1, 0, z.shape[0], 0, -1))
    d.GetRasterBand(1).WriteArray(z.astype(np.int16))
    d = None
EOF2
cat > "$T/se3.sh" <<'EOF2'
len() { v.to.db -p map="$1" type=line option=length units=meters --quiet |
    awk -F'|' '$1 ~ /^[0-9]+$/ { s += $2 } END { printf "%.1f\n", s }'; }
r.in.gdal -o input="$1" output=z --quiet && g.region raster=z || exit 1
r.stream.extract elevation=z threshold=150 d8cut=0 stream_raster=st \
    direction=sd stream_vector=sv --quiet || exit 1
r.to.vect input=st output=rv type=line --quiet || exit 1
r.out.gdal input=st output="$2/gst.tif" format=GTiff type=Int32 --quiet -c
r.out.gdal input=sd output="$2/gsd.tif" format=GTiff type=Int32 --quiet -c
echo "$(len sv) $(len rv)" > "$2/glen"
for g in tr:4 th:2; do
    r.in.gdal -o input="$2/${g%:*}.tif" output=h --quiet --o &&
        g.region raster=h || exit 1
    r.stream.extract elevation=h threshold=${g#*:} d8cut=0 stream_raster=hs \
        --quiet --o || exit 1
    r.out.gdal input=hs output="$2/${g%:*}.st.tif" format=GTiff type=Int32 \
        --quiet -c --o
done
EOF2
grass --tmp-location EPSG:4326 --exec bash "$T/se3.sh" "$DATA/jacksboro_fault_dem.tif" \
    "$T" > "$T/grass3.log" 2>&1 ||
    fail "GRASS r.stream.extract (trace): $(tail -3 "$T/grass3.log")"
assert_eq "--river-rule trace = r.stream.extract" "$(py - "$T" <<'EOF2'
import sqlite3
from osgeo import gdal
t = sys.argv[1]
b = bands(t + "/tg"); ours = b["river"] == 1; d = b["dir"]
g = gdal.Open(t + "/gst.tif").ReadAsArray() > 0
gd = gdal.Open(t + "/gsd.tif").ReadAsArray()
H, W = ours.shape
inner = np.zeros_like(ours); inner[1:-1, 1:-1] = True
def length(riv, dd):
    n = 0.0
    for y, x in zip(*np.nonzero(riv)):
        if dd[y, x] > 0:
            dy, dx = GRASS[float(dd[y, x])]
            if 0 <= y + dy < H and 0 <= x + dx < W and riv[y + dy, x + dx]:
                n += np.sqrt(2) if dx and dy else 1
    return n
lo, lg = length(ours, d), length(g, gd)
sv, rv = map(float, open(t + "/glen").read().split())
tv = sqlite3.connect(t + "/tg.gpkg").execute("select sum(length_m) from rivers").fetchone()[0]
hand = [(band(t + "/" + n + "1", "river") == 1).tolist() ==
        (gdal.Open(t + "/" + n + ".st.tif").ReadAsArray() > 0).tolist() for n in ("tr", "th")]
print(int(g.sum()) > 5000, int((ours & g).sum()) == int(g.sum()) == int(ours.sum()),
      bool((d[ours & inner] == gd[ours & inner]).all()), abs(lo / lg - 1) < 0.01,
      abs(tv / sv - 1) < 0.01, abs(tv / rv - 1) < 0.01, hand)
EOF2
)" "True True True True True True [True, True]"
# Lakes. A rim of 9 holding a pit, pour point the 5 on the east border
# (check_lake works it by hand): six cells below 5 fill to 5, one lake.
echo "9 9 9 9 9  9 3 2 7 9  9 1 4 6 5  9 2 8 3 9  9 9 9 9 9" |
    mkstream 5 5 height > "$T/rim"
run_prog tfill --depth < "$T/rim" | run_prog tflow -v --rivers 3 --min-lake 6 > "$T/o" 2> "$T/err"
assert_eq "lakes: bands" "$(header "$T/o" BANDS)" "height depth flow dir river lake"
assert_eq "lakes: one lake of six cells, no river on it" "$(stat "$T/o" \
    '(lake.ravel().tolist(), int(((river == 1) & (lake > 0)).sum()), float(flow[2, 4]))')" \
    "([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], 0, 25.0)"
grep -q ", 1 lakes" "$T/err" && pass || fail "lake count: $(cat "$T/err")"
run_prog tfill --depth < "$T/rim" | run_prog tflow > "$T/o"
assert_eq "of fewer than 16 cells, a puddle is no lake" "$(stat "$T/o" 'float(lake.max())')" 0.0
run_prog tfill --depth < "$T/rim" | run_prog tflow --min-lake 6 --lake-depth 4.5 > "$T/o"
assert_eq "--lake-depth: 4 deep at most, a puddle" "$(stat "$T/o" 'float(lake.max())')" 0.0
run_prog tfill --depth < "$T/rim" | run_prog tflow --no-lakes > "$T/o"
assert_eq "--no-lakes: no lake band" "$(header "$T/o" BANDS)" "height depth flow dir"
run_prog tfill < "$T/rim" | run_prog tflow > "$T/o"
assert_eq "no depth band, no lakes" "$(header "$T/o" BANDS)" "height flow dir"
# On a world: the default fill and --flat route alike through the lakes
# (tflow levels the first to the second's water), rivers stop at the
# shores, the flow sums exactly, and two threads give one's bytes.
run_prog tnoise --size 160x128 -S 3 --octaves 6 | run_prog tisland --sea 0.05 |
    run_prog tterrace --steps 6 | run_prog terode --droplets 20000 > "$T/world"
run_prog tfill --depth < "$T/world" | run_prog tflow -j 1 --rivers 40 --min-lake 4 > "$T/wn"
run_prog tfill --depth < "$T/world" | run_prog tflow -j 2 --rivers 40 --min-lake 4 > "$T/wn2"
run_prog tfill --depth --flat < "$T/world" | run_prog tflow --rivers 40 --min-lake 4 > "$T/wf"
assert_eq "lakes: next-float and flat fills route alike" "$(py '
a, b = bands(sys.argv[1]), bands(sys.argv[2])
print([bool(np.array_equal(a[k], b[k], equal_nan=True)) for k in ("flow", "dir", "river", "lake")],
      int(a["lake"].max()) > 3, int(((a["river"] == 1) & (a["lake"] > 0)).sum()))' "$T/wn" "$T/wf")" \
    "[True, True, True, True] True 0"
cmp -s <(body "$T/wn") <(body "$T/wn2") && pass || fail "lakes: -j 1 and -j 2 differ"
assert_eq "lakes: every cell's water reaches an outlet" "$(py '
b = bands(sys.argv[1]); valid = b["height"] >= np.float32(0.05)
print(drain_check(b["dir"], valid))' "$T/wn")" "ok"
# The tile phases find no lakes: a tile with a depth band needs --no-lakes.
run_prog tfill --depth < "$T/rim" | run_prog ttile -q --size 3 "$T/rimt"
expect_err 1 "tflow: .*--no-lakes" "tile phase with a depth band" \
    run_prog tflow --tile-prepare "$T/rimt/r0_c0.tp"
# A threshold above every cell's flow leaves no river, and says so.
run_prog tflow --rivers 100 < "$T/east" > "$T/o" 2> "$T/err"
grep -q "warning: no river: no cell has a flow of 100 or more (the largest is 5)" "$T/err" &&
    pass || fail "empty river band: $(cat "$T/err")"
run_prog tflow -q --rivers 100 < "$T/east" > "$T/o" 2> "$T/err"
assert_eq "empty river band, --quiet" "$(cat "$T/err")" ""
expect_exit 2 "bad geographic" run_prog tflow -g maybe
expect_exit 2 "band is an output" run_prog tflow -b flow
head -c $(( $(body_offset "$T/east") + 10 )) "$T/east" > "$T/trunc"
expect_err 1 "tflow: .*row" "truncated input" run_prog tflow < "$T/trunc"
# The vector directions (tp_simd.h) are the scalar ones byte for byte: the
# world has sea, shores, flats and a NaN hole; widths leave odd cells over.
for wd in 157 160; do
	run_prog tnoise --size ${wd}x90 -S 4 --octaves 6 | run_prog tisland --sea 0.05 |
	    run_prog tterrace --steps 5 > "$T/vw"
	py 'h, a = read(sys.argv[1]); a = a.copy(); a[40:44, 0, 50:53] = np.nan
write(a, h["BANDS"], ["SEALEVEL " + h["SEALEVEL"]], sys.argv[1])' "$T/vw"
	run_prog tflow -q -j 1 --no-lakes < "$T/vw" > "$T/v1"
	TP_SIMD=scalar run_prog tflow -q -j 1 --no-lakes < "$T/vw" > "$T/v2"
	assert_same "TP_SIMD=scalar directions, width $wd" "$T/v1" "$T/v2"
done
finish
