#!/bin/bash
# tview: hillshaded colour PNG; the plain shade against gdaldem hillshade.
. "$(dirname "$0")/common.sh"

# mkstream_npy CELLSIZE: a stream of the float32 array in $T/z.npy
mkstream_npy() {
	py 'write(np.load(sys.argv[1]), "height", ["CELLSIZE " + sys.argv[2], "ORIGIN 1000 5000"])' \
	    "$T/z.npy" "$1"
}
# gdaldem_vs PNG ZFACTOR CELLSIZE: whether the PNG's grey band is within
# one level of gdaldem hillshade -compute_edges of $T/z.npy everywhere
# (gdaldem approximates 1/sqrt, so a value on a rounding boundary may
# differ), equal on 99.9 % of the cells, and alpha 0 exactly on the NaN cells.
gdaldem_vs() {
	"$PY" - "$T/z.npy" "$1" "$2" "$3" "$T" <<'PY'
import sys, numpy as np
from osgeo import gdal
gdal.UseExceptions()
z = np.load(sys.argv[1]).astype("float32"); png, zf, cs, t = sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
h, w = z.shape
ds = gdal.GetDriverByName("GTiff").Create(t + "/z.tif", w, h, 1, gdal.GDT_Float32)
ds.SetGeoTransform([1000, cs, 0, 5000, 0, -cs]); b = ds.GetRasterBand(1)
b.SetNoDataValue(float("nan")); b.WriteArray(z); ds = None
gdal.DEMProcessing(t + "/hs.tif", t + "/z.tif", "hillshade", zFactor=zf, computeEdges=True)
g = gdal.Open(t + "/hs.tif").ReadAsArray().astype(int)
p = gdal.Open(png).ReadAsArray().astype(int)
d = np.abs(g - p[0])
print(bool(d.max() <= 1), bool((d == 0).mean() >= 0.999), bool(((p[1] == 0) == np.isnan(z)).all()))
PY
}

# 1. a real DEM (the Jacksboro fault, metres) on a 30 m grid, with a hole
"$PY" -c '
import sys, numpy as np
from osgeo import gdal
z = gdal.Open(sys.argv[1]).ReadAsArray().astype("float32")
z[100:104, 200:203] = np.nan
np.save(sys.argv[2], z)' "$DATA/jacksboro_fault_dem.tif" "$T/z.npy"
mkstream_npy 30 > "$T/dem.tp"
ok "shade dem" run_prog tview --shade-only -z 1 -o "$T/dem.png" < "$T/dem.tp"
assert_eq "dem vs gdaldem" "$(gdaldem_vs "$T/dem.png" 1 30)" "True True True"
ok "shade dem z3" run_prog tview --shade-only -z 3 --azimuth 315 --altitude 45 "$T/dem3.png" < "$T/dem.tp"
assert_eq "dem z3 vs gdaldem" "$(gdaldem_vs "$T/dem3.png" 3 30)" "True True True"

# 2. a synthetic surface with steep and flat parts, at cell size 10
"$PY" -c '
import sys, numpy as np
y, x = np.mgrid[0:97, 0:131]
z = np.sin(x / 6.0) * np.cos(y / 4.0) * 30 + np.where(x > 60, 25.0, 0) + y * 0.3
z[0, 0] = np.nan; z[50, 130] = np.nan
np.save(sys.argv[1], z)' "$T/z.npy"
mkstream_npy 10 > "$T/syn.tp"
ok "shade synthetic" run_prog tview --shade-only -z 2 "$T/syn.png" < "$T/syn.tp"
assert_eq "synthetic vs gdaldem" "$(gdaldem_vs "$T/syn.png" 2 10)" "True True True"

# 3. a geographic grid: EPSG:4326, 1 arc-second cells, 30 rows around
# 60 N. Each row is measured in metres at its own latitude on WGS84
# (a = 6378137 m, f = 1/298.257223563): east-west a cos(lat) / W, north-south
# a (1 - e2) / W^3 per radian, W = sqrt(1 - e2 sin^2 lat); at 60 N that is
# 15.500 m x 30.948 m (a degree there spans 55800.0 m and 111412.3 m).
# gdaldem shades a projected grid of one spacing, so row y of the picture
# is compared with row y of gdaldem's shade at row y's spacing.
"$PY" -c '
import sys, numpy as np
y, x = np.mgrid[0:30, 0:160]
z = np.sin(x / 3.0) * 20 + np.cos(y / 2.0) * 15 + x * 0.5
z[7, 9] = np.nan
np.save(sys.argv[1], z.astype("float32"))
sys.stdout.buffer.write(b"TERRAPIPE 1\nWIDTH 160\nHEIGHT 30\nBANDS height\n"
    b"CELLSIZE 0.000277777777777777778\nORIGIN 10 60.004166666666666667\n"
    b"CRS EPSG:4326\nENDHDR\n" + z.astype("<f4").tobytes())' "$T/z.npy" > "$T/geo.tp"
ok "shade geographic" run_prog tview --shade-only -z 1 -o "$T/geo.png" < "$T/geo.tp"
assert_eq "geographic rows vs gdaldem" "$("$PY" - "$T/z.npy" "$T/geo.png" "$T" <<'PY'
import sys, math, numpy as np
from osgeo import gdal
gdal.UseExceptions()
z = np.load(sys.argv[1]); h, w = z.shape; t = sys.argv[3]
a, f = 6378137.0, 1 / 298.257223563; e2 = f * (2 - f); d = math.radians(1 / 3600)
def spacing(lat):
    lat = math.radians(lat); W = math.sqrt(1 - e2 * math.sin(lat) ** 2)
    return a * math.cos(lat) / W * d, a * (1 - e2) / W ** 3 * d
g = np.zeros((h, w), int)
for y in range(h):
    ew, ns = spacing(60 + (15 - y - 0.5) / 3600)
    ds = gdal.GetDriverByName("GTiff").Create(t + "/z.tif", w, h, 1, gdal.GDT_Float32)
    ds.SetGeoTransform([1000, ew, 0, 5000, 0, -ns]); b = ds.GetRasterBand(1)
    b.SetNoDataValue(float("nan")); b.WriteArray(z); ds = None
    gdal.DEMProcessing(t + "/hs.tif", t + "/z.tif", "hillshade", zFactor=1, computeEdges=True)
    g[y] = gdal.Open(t + "/hs.tif").ReadAsArray()[y]
p = gdal.Open(sys.argv[2]).ReadAsArray().astype(int)
dd = np.abs(g - p[0])
print(["%.3f" % v for v in spacing(60)], bool(dd.max() <= 1),
      bool((dd == 0).mean() >= 0.999), bool(((p[1] == 0) == np.isnan(z)).all()))
PY
)" "['15.500', '30.948'] True True True"

# picture sizes: full, and ceil(W/N) x ceil(H/N) with --scale
pngsize() { "$PY" -c '
import sys, struct
d = open(sys.argv[1], "rb").read(33)
print(d[:8] == b"\x89PNG\r\n\x1a\n", *struct.unpack(">II", d[16:24]), d[25])' "$1"; }
ok "colour" run_prog tview -o "$T/c.png" < "$T/syn.tp"
assert_eq "colour size, RGBA" "$(pngsize "$T/c.png")" "True 131 97 6"
ok "scaled" run_prog tview -s 4 -o "$T/c4.png" < "$T/syn.tp"
assert_eq "scaled size" "$(pngsize "$T/c4.png")" "True 33 25 6"
assert_eq "grey + alpha" "$(pngsize "$T/syn.png")" "True 131 97 4"

# colour: the NaN cell is transparent, the rest opaque
assert_eq "alpha" "$("$PY" -c '
import sys; from osgeo import gdal
a = gdal.Open(sys.argv[1]).ReadAsArray()[3]
print(a[0, 0], a[50, 130], int((a == 255).sum()))' "$T/c.png")" "0 0 $((131 * 97 - 2))"

# one band in grey. flow 0..1000 with --log: 255 log(1+v) / log(1001);
# height with --range 0,198: 255 v / 198; NaN transparent.
echo 0 50 100 0 9 999 150 198 nan 99 nan 1000 | mkstream 3 2 "height flow" > "$T/f.tp"
pngvals() { "$PY" -c '
import sys; from osgeo import gdal
print(gdal.Open(sys.argv[1]).ReadAsArray().ravel().tolist())' "$1"; }
ok "grey log" run_prog tview -b flow --log "$T/f.png" < "$T/f.tp"
assert_eq "grey log values" "$(pngvals "$T/f.png")" \
    "[0, 85, 255, 170, 0, 255, 255, 255, 255, 255, 0, 255]"
ok "grey range" run_prog tview -b height --range 0,198 "$T/g.png" < "$T/f.tp"
assert_eq "grey range values" "$(pngvals "$T/g.png")" \
    "[0, 64, 129, 193, 255, 0, 255, 255, 255, 255, 255, 0]"

# misuse
expect_exit 2 "no output" run_prog tview < "$T/syn.tp"
expect_exit 2 "bad range" run_prog tview --range 5,1 x.png < "$T/syn.tp"
expect_exit 2 "log without band" run_prog tview --log x.png < "$T/syn.tp"
expect_exit 2 "scale 0" run_prog tview -s 0 x.png < "$T/syn.tp"
expect_exit 2 "altitude 0" run_prog tview --altitude 0 x.png < "$T/syn.tp"
expect_exit 2 "two outputs" run_prog tview -o a.png b.png < "$T/syn.tp"

# failures leave no file behind, and an old picture stays as it was
head -c -100 "$T/syn.tp" > "$T/trunc.tp"
cp "$T/c.png" "$T/keep.png"
expect_err 1 "truncated stream" "truncated (whole band)" run_prog tview -o "$T/keep.png" < "$T/trunc.tp"
expect_err 1 "truncated stream" "truncated (streaming)" \
    run_prog tview --range 0,100 -o "$T/keep.png" < "$T/trunc.tp"
expect_exit 1 "truncated (shade, streaming)" run_prog tview --shade-only -z 1 -o "$T/new.png" < "$T/trunc.tp"
assert_same "old picture kept" "$T/c.png" "$T/keep.png"
assert_eq "no stray files" "$(ls "$T" | grep -c 'png\.')" 0
assert_eq "no new file" "$(ls "$T" | grep -c '^new.png')" 0
expect_err 1 "no band 'moisture'" "missing band" run_prog tview -b moisture x.png < "$T/syn.tp"
expect_exit 1 "unwritable dir" run_prog tview -o "$T/nodir/x.png" < "$T/syn.tp"

# pipeline: crop a window and look at it; same as the window of the whole
run_prog tcrop -w 10,10,40,30 < "$T/syn.tp" | run_prog tview --shade-only -z 2 -o "$T/w.png"
assert_eq "pipeline size" "$(pngsize "$T/w.png")" "True 40 30 4"
assert_eq "history in the PNG" "$("$PY" -c '
import sys; from osgeo import gdal
print(gdal.Open(sys.argv[1]).GetMetadata()["Comment"].replace(sys.argv[2], "T"))' "$T/w.png" "$T")" \
    "HISTORY tcrop --window 10,10,40,30
HISTORY tview --shade-only --zfactor 2 --output T/w.png"
assert_eq "inner cells as the whole" "$("$PY" -c '
import sys; from osgeo import gdal
w = gdal.Open(sys.argv[1]).ReadAsArray()[0]; a = gdal.Open(sys.argv[2]).ReadAsArray()[0]
print((w[1:-1, 1:-1] == a[11:39, 11:49]).all())' "$T/w.png" "$T/syn.png")" True
finish
