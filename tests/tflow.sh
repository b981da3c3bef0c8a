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
run_prog tflow -c grass < "$T/o" | run_prog tflow -c grass > "$T/o2"
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
run_prog tflow -c grass -r 500 -m -j 1 < "$T/dem" > "$T/j1"
run_prog tflow -c grass -r 500 -m -j 2 < "$T/dem" > "$T/j2"
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
	    run_prog tview --shade-only -z 1 -o "$T/g$crs.png"
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
run_prog tflow -c grass < "$T/sea" > "$T/o"
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
run_prog tflow -c grass -r 40 -m -j 1 < "$T/isl" > "$T/j1"
run_prog tflow -c grass -r 40 -m -j 2 < "$T/isl" > "$T/j2"
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

expect_exit 2 "bad codes" run_prog tflow --dir-codes arcgis
expect_exit 2 "negative threshold" run_prog tflow --rivers -1
expect_exit 2 "bad geographic" run_prog tflow -g maybe
expect_exit 2 "band is an output" run_prog tflow -b flow
head -c $(( $(body_offset "$T/east") + 10 )) "$T/east" > "$T/trunc"
expect_err 1 "tflow: .*row" "truncated input" run_prog tflow < "$T/trunc"
finish
