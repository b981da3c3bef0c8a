#!/bin/bash
# tcrop: windows by cells and by world box, georeference kept.
. "$(dirname "$0")/common.sh"

# 6 x 5 grid, two bands: h = 10*row + col, m = -(10*row + col);
# CELLSIZE 30, ORIGIN 500000 4649776 (the north-west corner).
py '
r, c = np.mgrid[0:5, 0:6]
h = (10 * r + c).astype("<f4")
write(np.stack([h, -h], axis=1), "h m",
      ["CELLSIZE 30", "ORIGIN 500000 4649776", "CRS EPSG:32633", "HISTORY tnoise"])' > "$T/in.tp"
vals() { values "$1" | tr '\n' ' '; }

run_prog tcrop --window 1,2,3,2 < "$T/in.tp" > "$T/w.tp"
assert_eq "size" "$(header "$T/w.tp" WIDTH)x$(header "$T/w.tp" HEIGHT)" 3x2
# origin: 500000 + 1*30, 4649776 - 2*30
assert_eq "origin" "$(header "$T/w.tp" ORIGIN)" "500030 4649716"
assert_eq "values" "$(vals "$T/w.tp")" \
    "21 22 23 -21 -22 -23 31 32 33 -31 -32 -33 "
assert_eq "keys kept" "$(header "$T/w.tp" CRS) $(header "$T/w.tp" CELLSIZE)" "EPSG:32633 30"
assert_eq "history" "$(sed -n '/^HISTORY/p' "$T/w.tp" | tr '\n' '|')" \
    "HISTORY tnoise|HISTORY tcrop --window 1,2,3,2|"

# crop of a crop = the crop of the whole
run_prog tcrop -w 1,1,2,1 < "$T/w.tp" > "$T/ww.tp"
run_prog tcrop -w 2,3,2,1 < "$T/in.tp" > "$T/d.tp"
assert_eq "crop of crop values" "$(vals "$T/ww.tp")" "$(vals "$T/d.tp")"
assert_eq "crop of crop origin" "$(header "$T/ww.tp" ORIGIN)" "$(header "$T/d.tp" ORIGIN)"

# 1 x 1 at the south-east corner; the full window is the input
run_prog tcrop -w 5,4,1,1 < "$T/in.tp" > "$T/one.tp"
assert_eq "1x1" "$(vals "$T/one.tp")/$(header "$T/one.tp" ORIGIN)" "45 -45 /500150 4649656"
run_prog tcrop -w 0,0,6,5 < "$T/in.tp" > "$T/all.tp"
assert_same "full window" <(body "$T/in.tp") <(body "$T/all.tp")

# --bbox: cells covering the box, snapped outward; edges on cell lines stay.
# x 500035..500085 touches cols 1..2; y 4649700..4649750 touches rows 0..2
run_prog tcrop --bbox 500035,4649700,500085,4649750 < "$T/in.tp" > "$T/b.tp"
assert_eq "bbox outward" "$(header "$T/b.tp" WIDTH)x$(header "$T/b.tp" HEIGHT) $(header "$T/b.tp" ORIGIN)" \
    "2x3 500030 4649776"
run_prog tcrop --bbox 500030,4649656,500120,4649716 < "$T/in.tp" > "$T/be.tp"
assert_eq "bbox on edges = window" "$(vals "$T/be.tp")" "$(vals "$T/w.tp" | cut -d' ' -f1-12) "
assert_eq "bbox on edges origin" "$(header "$T/be.tp" ORIGIN)" "500030 4649716"
# a tenth-metre grid, where x/cellsize is not exact in binary
echo 1 2 3 4 5 6 7 8 9 | mkstream 3 3 height "CELLSIZE 0.1" "ORIGIN 0 0.3" > "$T/t.tp"
run_prog tcrop --bbox 0.1,0,0.3,0.2 < "$T/t.tp" > "$T/tb.tp"
assert_eq "bbox tenths" "$(vals "$T/tb.tp")" "5 6 8 9 "

# the same window as GDAL cuts it (gdal_translate -srcwin)
py - "$T/in.tp" "$T/in.tif" <<'PY'
from osgeo import gdal
v = band(sys.argv[1], "h")
ds = gdal.GetDriverByName("GTiff").Create(sys.argv[2], 6, 5, 1, gdal.GDT_Float32)
ds.SetGeoTransform([500000, 30, 0, 4649776, 0, -30]); ds.GetRasterBand(1).WriteArray(v); ds = None
PY
gdal_translate -q -srcwin 1 2 3 2 "$T/in.tif" "$T/gw.tif"
assert_eq "as gdal_translate" "$("$PY" -c '
import sys, numpy as np
from osgeo import gdal
g = gdal.Open(sys.argv[1]); gt = g.GetGeoTransform(); a = g.ReadAsArray().ravel()
print(gt[0], gt[3], " ".join("%g" % x for x in a))' "$T/gw.tif")" \
    "500030.0 4649716.0 $(run_prog tband -k h < "$T/w.tp" > "$T/wh.tp"; vals "$T/wh.tp" | sed 's/ $//')"

# a larger stream, read in batches of 187 rows: full-width windows are
# written straight from the batch, narrower ones cut; both cross batches
py 'write(np.arange(700 * 300 * 2, dtype="<f4").reshape(300, 2, 700), "p q")' > "$T/big.tp"
run_prog tcrop -w 0,100,700,150 < "$T/big.tp" > "$T/bf.tp"
run_prog tcrop -w 650,150,50,100 < "$T/big.tp" > "$T/bn.tp"
assert_eq "big windows" "$(py '
v = grid(sys.argv[1])
print((floats(sys.argv[2]).reshape(150, 2, 700) == v[100:250]).all(),
      (floats(sys.argv[3]).reshape(100, 2, 50) == v[150:250, :, 650:700]).all())' "$T/big.tp" "$T/bf.tp" "$T/bn.tp")" "True True"

# outside the grid: an error unless --clip
expect_err 1 "reaches outside the 6x5 grid" "outside" run_prog tcrop -w 4,3,3,3 < "$T/in.tp"
expect_exit 1 "negative corner" run_prog tcrop -w -1,0,2,2 < "$T/in.tp"
expect_exit 1 "bbox outside" run_prog tcrop --bbox 0,0,10,10 < "$T/in.tp"
# A box outside says where the grid is, in world units, and its CRS: the
# 6 x 5 cells of 30 span x 500000..500180, y 4649626..4649776.
expect_exit 1 "bbox wholly outside: message" run_prog tcrop --bbox 0,0,10,10 < "$T/in.tp"
assert_eq "bbox wholly outside: extent and CRS" "$(cat "$T/.err")" \
    "tcrop: box 0,0,10,10 lies wholly outside the grid, which spans x 500000..500180, y 4649626..4649776 (CRS EPSG:32633)"
expect_exit 1 "bbox partly outside" run_prog tcrop --bbox 500100,4649700,500200,4649750 < "$T/in.tp"
assert_eq "bbox partly outside: extent, CRS, --clip" "$(cat "$T/.err")" \
    "tcrop: box 500100,4649700,500200,4649750 reaches outside the grid, which spans x 500000..500180, y 4649626..4649776 (CRS EPSG:32633); clipping (--clip) keeps the part inside"
expect_exit 1 "bbox outside with --clip" run_prog tcrop --clip --bbox -84.5,36.6,-84.4,36.7 < "$T/in.tp"
assert_eq "bbox with --clip, nothing left" "$(cat "$T/.err")" \
    "tcrop: box -84.5,36.6,-84.4,36.7 lies wholly outside the grid, which spans x 500000..500180, y 4649626..4649776 (CRS EPSG:32633)"
sed '/^CRS /d' "$T/in.tp" >"$T/nocrs.tp"
expect_err 1 "y 4649626..4649776 (no CRS)" "bbox outside a grid without a CRS" \
    run_prog tcrop --bbox 0,0,10,10 < "$T/nocrs.tp"
run_prog tcrop -w 4,3,3,3 --clip < "$T/in.tp" > "$T/c.tp"
assert_eq "clip" "$(vals "$T/c.tp")/$(header "$T/c.tp" ORIGIN)" \
    "34 35 -34 -35 44 45 -44 -45 /500120 4649686"
expect_err 1 "wholly outside" "clip nothing left" run_prog tcrop -w 6,0,2,2 --clip < "$T/in.tp"

# misuse
expect_exit 2 "no window" run_prog tcrop < "$T/in.tp"
expect_exit 2 "both" run_prog tcrop -w 0,0,1,1 --bbox 0,0,1,1 < "$T/in.tp"
expect_exit 2 "three numbers" run_prog tcrop -w 0,0,1 < "$T/in.tp"
expect_exit 2 "zero width" run_prog tcrop -w 0,0,0,1 < "$T/in.tp"
expect_exit 2 "not integer" run_prog tcrop -w 0,0,1.5,1 < "$T/in.tp"
expect_exit 2 "empty box" run_prog tcrop --bbox 5,0,5,1 < "$T/in.tp"
expect_exit 2 "unknown option" run_prog tcrop --frob < "$T/in.tp"

# the whole input is checked, also the rows after the window
head -c -4 "$T/in.tp" > "$T/trunc.tp"
expect_err 1 "truncated stream.*row 4" "truncated after window" \
    run_prog tcrop -w 0,0,2,2 < "$T/trunc.tp"
{ cat "$T/in.tp"; printf 'x'; } > "$T/trail.tp"
expect_err 1 "trailing data" "trailing" run_prog tcrop -w 0,0,2,2 < "$T/trail.tp"

# pipeline: crop then keep a band, statistics of the window
run_prog tcrop -w 2,1,2,2 < "$T/in.tp" | run_prog tband -k m | run_prog tinfo --no-hist > "$T/p.txt"
assert_eq "pipeline" "$(awk '$1 == "min" || $1 == "max" { printf "%s ", $2 }' "$T/p.txt")" "-23 -12 "
finish
