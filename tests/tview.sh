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
ok "shade dem" run_prog tview --shade-only --exaggeration 1 -o "$T/dem.png" < "$T/dem.tp"
assert_eq "dem vs gdaldem" "$(gdaldem_vs "$T/dem.png" 1 30)" "True True True"
ok "shade dem z3" run_prog tview --shade-only --exaggeration 3 --azimuth 315 --altitude 45 "$T/dem3.png" < "$T/dem.tp"
assert_eq "dem z3 vs gdaldem" "$(gdaldem_vs "$T/dem3.png" 3 30)" "True True True"

# 2. a synthetic surface with steep and flat parts, at cell size 10
"$PY" -c '
import sys, numpy as np
y, x = np.mgrid[0:97, 0:131]
z = np.sin(x / 6.0) * np.cos(y / 4.0) * 30 + np.where(x > 60, 25.0, 0) + y * 0.3
z[0, 0] = np.nan; z[50, 130] = np.nan
np.save(sys.argv[1], z)' "$T/z.npy"
mkstream_npy 10 > "$T/syn.tp"
ok "shade synthetic" run_prog tview --shade-only --exaggeration 2 "$T/syn.png" < "$T/syn.tp"
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
ok "shade geographic" run_prog tview --shade-only --exaggeration 1 -o "$T/geo.png" < "$T/geo.tp"
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

# --- the sea: --sea, else the header's SEALEVEL, unless --no-sea ---
# Three flat strips 0.1 | 0.4 | 0.9, four columns each: a cell inside a strip
# is flat ground, drawn in the ramp's own colour. lo = 0.1, so below a sea
# the strip at 0.1 is deep water (20, 50, 110).
# px PNG "X Y"...: the pixels there as "r,g,b,a" words.
px() { "$PY" - "$@" <<'PY'
import sys; from osgeo import gdal
a = gdal.Open(sys.argv[1]).ReadAsArray()
print(" ".join(",".join(str(int(v)) for v in a[:, int(y), int(x)])
      for x, y in (p.split() for p in sys.argv[2:])))
PY
}
strips() { py 'y, x = np.mgrid[0:6, 0:12]
write(np.choose(x // 4, [0.1, 0.4, 0.9]).astype("f4"), "height", sys.argv[1:])' "$@"; }
strips "CELLSIZE 1" "SEALEVEL 0.3" >"$T/sea.tp"
ok "sea from the header" run_prog tview --exaggeration 1 "$T/sea.png" <"$T/sea.tp"
# 0.4 above the sea 0.3 is land 1/6 of the way to 0.9: grass to forest
assert_eq "SEALEVEL draws water" "$(px "$T/sea.png" "1 2" "5 2")" "20,50,110,255 67,120,60,255"
ok "--sea over the header" run_prog tview --exaggeration 1 --sea 0.5 "$T/sea5.png" <"$T/sea.tp"
assert_eq "--sea wins" "$(px "$T/sea5.png" "1 2" "5 2")" "20,50,110,255 65,117,174,255"
ok "--no-sea" run_prog tview --exaggeration 1 --no-sea "$T/nosea.png" <"$T/sea.tp"
strips "CELLSIZE 1" >"$T/nosealine.tp"
ok "no SEALEVEL" run_prog tview --exaggeration 1 "$T/nosealine.png" <"$T/nosealine.tp"
assert_eq "--no-sea: land" "$(px "$T/nosea.png" "1 2")" "86,140,70,255"
assert_eq "--no-sea as without SEALEVEL" "$(pngvals "$T/nosea.png")" "$(pngvals "$T/nosealine.png")"
strips "CELLSIZE 1" "SEALEVEL low" >"$T/badsea.tp"
expect_err 1 "SEALEVEL" "malformed SEALEVEL" run_prog tview --exaggeration 1 "$T/x.png" <"$T/badsea.tp"
# tisland pulls the border down: the corner is sea, drawn blue
run_prog tisland --sea 0.3 <"$T/nosealine.tp" | run_prog tview --exaggeration 1 -o "$T/pipe.png"
run_prog tisland <"$T/nosealine.tp" | run_prog tview --exaggeration 1 -o "$T/pipe0.png"
assert_eq "tisland --sea | tview draws water" "$(px "$T/pipe.png" "0 0" | awk -F, '{ print ($3 > $1 + 40) }') $(px "$T/pipe0.png" "0 0" | awk -F, '{ print ($3 > $1 + 40) }')" "1 0"

# --- biome maps ---
# bio W H CODES [RIVERCOL] [KEY VALUE lines]: bands "height biome river":
# flat height 0.5, biome the comma-separated CODES in strips four columns
# wide, river 1 in column RIVERCOL (-1: none).
bio() { py 'w, h, codes, rc = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split(","), int(sys.argv[4])
y, x = np.mgrid[0:h, 0:w]
c = np.array([float(v) for v in codes])[(x // 4) % len(codes)]
a = np.stack([np.full((h, w), 0.5), c, (x == rc) * 1.0], axis=1)
write(a.astype("f4"), "height biome river", ["CELLSIZE 1"] + sys.argv[5:])' "$@"; }
# the default table: ocean #44447a, snow #f8f8f8, grassland #88aa55,
# river #225588, a code without a class grey, NaN transparent
bio 20 8 0,6,10,99,nan 9 >"$T/bio.tp"
ok "-b biome" run_prog tview -b biome "$T/bio.png" <"$T/bio.tp"
assert_eq "biome size, RGBA" "$(pngsize "$T/bio.png")" "True 20 8 6"
assert_eq "flat: the table's colours" "$(px "$T/bio.png" "1 3" "5 3" "10 3" "13 3" "17 3")" \
    "68,68,122,255 248,248,248,255 136,170,85,255 128,128,128,255 0,0,0,0"
assert_eq "river over the class" "$(px "$T/bio.png" "9 3" "9 0")" "34,85,136,255 34,85,136,255"
# a table of the stream's own: its class named river gives the river colour;
# without one, #225588
bio 12 6 0,5 6 "BIOME 0 #102030 sea" "BIOME 5 #a0b0c0 peak" "BIOME 7 #ff0000 river" >"$T/own.tp"
ok "-b biome, own table" run_prog tview -b biome "$T/own.png" <"$T/own.tp"
assert_eq "own table colours, own river" "$(px "$T/own.png" "1 2" "5 2" "6 2")" \
    "16,32,48,255 160,176,192,255 255,0,0,255"
bio 12 6 0,5 6 "BIOME 0 #102030 sea" "BIOME 5 #a0b0c0 peak" >"$T/own2.tp"
ok "-b biome, own table without a river" run_prog tview -b biome "$T/own2.png" <"$T/own2.tp"
assert_eq "default river colour" "$(px "$T/own2.png" "6 2")" "34,85,136,255"
# without a height band: flat colours; without a river band: no rivers
run_prog tband --drop height,river <"$T/bio.tp" >"$T/codes.tp"
ok "-b biome without heights" run_prog tview -b biome "$T/codes.png" <"$T/codes.tp"
assert_eq "flat colours without heights" "$(px "$T/codes.png" "0 0" "5 7" "9 3")" \
    "68,68,122,255 248,248,248,255 136,170,85,255"
expect_err 1 "no band 'height'" "contour without heights" run_prog tview -b biome --contours 1 "$T/x.png" <"$T/codes.tp"
# the light: grassland on a plane rising east (facing the north-west sun) is
# brighter than on flat ground, and on one rising west darker
slope() { py 'y, x = np.mgrid[0:6, 0:12]
a = np.stack([x * float(sys.argv[1]), np.full((6, 12), 10.0), np.zeros((6, 12))], axis=1)
write(a.astype("f4"), "height biome river", ["CELLSIZE 1"])' "$1"; }
slope 0.5 >"$T/east.tp"
slope -0.5 >"$T/west.tp"
ok "facing the light" run_prog tview -b biome --exaggeration 1 "$T/east.png" <"$T/east.tp"
ok "facing away" run_prog tview -b biome --exaggeration 1 "$T/west.png" <"$T/west.tp"
assert_eq "lit > flat > shadow" "$("$PY" - "$T/east.png" "$T/west.png" <<'PY'
import sys; from osgeo import gdal
e, w = [gdal.Open(p).ReadAsArray()[:3, 2, 5].astype(int) for p in sys.argv[1:]]
flat = [136, 170, 85]
print(bool((e > flat).all()), bool((w < flat).all()), bool((w >= 0.3 * min(flat)).all()))
PY
)" "True True True"
# --contour 5 on heights 0..19 rising east: a multiple of 5 lies between
# columns 4|5, 9|10 and 14|15, so columns 4, 9 and 14 are drawn at half their
# colour and nothing else changes
py 'y, x = np.mgrid[0:6, 0:20]
a = np.stack([x * 1.0, np.full((6, 20), 10.0), np.zeros((6, 20))], axis=1)
write(a.astype("f4"), "height biome river", ["CELLSIZE 30"])' >"$T/ramp.tp"
ok "no contour" run_prog tview -b biome --exaggeration 1 "$T/c0.png" <"$T/ramp.tp"
ok "--contours 5" run_prog tview -b biome --exaggeration 1 --contours 5 "$T/c5.png" <"$T/ramp.tp"
assert_eq "contour columns, darker by half" "$("$PY" - "$T/c0.png" "$T/c5.png" <<'PY'
import sys, numpy as np; from osgeo import gdal
a, b = [gdal.Open(p).ReadAsArray().astype(float) for p in sys.argv[1:]]
cols = sorted(set(np.nonzero((a != b).any(axis=0))[1].tolist()))
r = b[:3, :, cols] / a[:3, :, cols]
print(cols, bool((abs(r - 0.5) < 0.01).all()))
PY
)" "[4, 9, 14] True"
ok "--contours, colour picture" run_prog tview --exaggeration 1 --contours 5 "$T/cc.png" <"$T/ramp.tp"
# --legend: the lower-left corner changes, nothing else. Codes 0..10 and a
# river: 12 lines, 4 + 12 * 11 - 2 + 4 = 138 pixels high; the longest name,
# temperate desert, 16 * 6 - 1 = 95 wide, 4 + 9 + 4 + 95 + 4 = 116 in all;
# 4 pixels from the left and bottom edges.
py 'y, x = np.mgrid[0:250, 0:300]
a = np.stack([np.sin(x / 9.0) * np.cos(y / 7.0) * 20, (x // 20 % 11) * 1.0, (y == 40) * 1.0], axis=1)
write(a.astype("f4"), "height biome river", ["CELLSIZE 10"])' >"$T/big.tp"
ok "no legend" run_prog tview -b biome "$T/l0.png" <"$T/big.tp"
ok "--legend" run_prog tview -b biome --legend "$T/l1.png" <"$T/big.tp"
assert_eq "legend in the lower-left corner only" "$("$PY" - "$T/l0.png" "$T/l1.png" <<'PY'
import sys, numpy as np; from osgeo import gdal
a, b = [gdal.Open(p).ReadAsArray() for p in sys.argv[1:]]
ys, xs = np.nonzero((a != b).any(axis=0))
print(xs.min(), xs.max(), ys.min(), ys.max())
PY
)" "4 119 108 245"
# --ppc N draws each cell as N x N pixels, nearest: the picture is the
# one of --ppc 1 with every pixel repeated, colour and grey alike, after
# --scale's mean.
ok "--ppc 3" run_prog tview --ppc 3 -o "$T/c3.png" < "$T/syn.tp"
assert_eq "--ppc 3 size" "$(pngsize "$T/c3.png")" "True 393 291 6"
ok "-s 4 --ppc 2" run_prog tview -s 4 --ppc 2 -o "$T/c42.png" < "$T/syn.tp"
ok "grey --ppc 2" run_prog tview -b height --ppc 2 -o "$T/g2.png" < "$T/syn.tp"
ok "grey" run_prog tview -b height -o "$T/g1.png" < "$T/syn.tp"
assert_eq "--ppc: each pixel an N x N square" "$("$PY" - "$T" <<'PY'
import sys, numpy as np; from osgeo import gdal
d = sys.argv[1]
rd = lambda f: gdal.Open(d + "/" + f).ReadAsArray()
up = lambda a, n: a.repeat(n, axis=1).repeat(n, axis=2)
print(bool((rd("c3.png") == up(rd("c.png"), 3)).all()), bool((rd("c42.png") == up(rd("c4.png"), 2)).all()),
      bool((rd("g2.png") == up(rd("g1.png"), 2)).all()))
PY
)" "True True True"
expect_exit 2 "--ppc 0" run_prog tview --ppc 0 -o "$T/x.png" < "$T/syn.tp"
expect_exit 2 "--ppc 65" run_prog tview --ppc 65 -o "$T/x.png" < "$T/syn.tp"
# A legend that does not fit: without --ppc the picture is drawn as many
# pixels a cell as it takes, with a note; with --ppc too small, an error
# naming the one that fits, and no picture. The 120 x 91 grid of codes
# 0..10 and a river: the legend is 116 x 138 pixels, so 2 pixels a cell
# (240 x 182), the legend at its own size in the corner and the rest the
# picture without it, every cell a 2 x 2 square.
py 'y, x = np.mgrid[0:91, 0:120]
a = np.stack([np.sin(x / 9.0) * np.cos(y / 7.0) * 20, (x // 11 % 11) * 1.0, (y == 40) * 1.0], axis=1)
write(a.astype("f4"), "height biome river", ["CELLSIZE 10"])' >"$T/small.tp"
expect_err 0 "" "--legend on 120 x 91" run_prog tview -b biome --legend -o "$T/s2.png" <"$T/small.tp"
assert_eq "the note" "$(cat "$T/.err")" "tview: note: drawn at 2 pixels a cell (--ppc 2) to hold the legend"
assert_eq "120 x 91 with its legend: 240 x 182" "$(pngsize "$T/s2.png")" "True 240 182 6"
ok "120 x 91 without" run_prog tview -b biome --ppc 2 -o "$T/s0.png" <"$T/small.tp"
assert_eq "legend in the corner, cells as squares elsewhere" "$("$PY" - "$T/s0.png" "$T/s2.png" <<'PY'
import sys, numpy as np; from osgeo import gdal
a, b = [gdal.Open(p).ReadAsArray() for p in sys.argv[1:]]
ys, xs = np.nonzero((a != b).any(axis=0))
print(xs.min(), xs.max(), ys.min(), ys.max())
PY
)" "4 119 40 177"
expect_err 1 "the picture is 120x91 pixels, too small for the legend's 116x138: --ppc 2 holds it" \
    "--ppc 1 too small" run_prog tview -b biome --legend --ppc 1 -o "$T/small.png" <"$T/small.tp"
assert_eq "no picture without its legend" "$(ls "$T" | grep -c '^small.png')" 0
ok "--legend on 20 x 8" run_prog tview -b biome --legend -o "$T/tiny.png" <"$T/bio.tp"
ok "-b biome -s 3" run_prog tview -b biome -s 3 "$T/bio3.png" <"$T/bio.tp"
assert_eq "biome scaled size" "$(pngsize "$T/bio3.png")" "True 7 3 6"
# lakes: with a lake band (tflow's ids), a lake cell is drawn in the lake
# colour over its class and over a river: the table's lake class (#336699
# in the default table, a class named lake in the stream's own); in a
# colour picture the sea's shallowest water (80, 140, 195). The other
# pixels are as without the band.
lakes() { py 'import numpy as np
a = grid(sys.argv[1]).copy(); h = header(sys.argv[1])
lake = np.zeros((a.shape[0], a.shape[2])); lake[1:4, 4:8] = 2; lake[0, 0] = np.nan
write(np.concatenate([a, lake[:, None, :]], axis=1).astype("f4"),
      h["BANDS"].split() + ["lake"], sys.argv[2:])' "$@"; }
bio 12 6 0,6,10 5 >"$T/lk.tp"
lakes "$T/lk.tp" "CELLSIZE 1" >"$T/lake.tp"
ok "-b biome, lakes" run_prog tview -b biome "$T/lake.png" <"$T/lake.tp"
assert_eq "lake over the class and the river" "$(px "$T/lake.png" "5 2" "6 2" "4 1" "5 0" "1 2")" \
    "51,102,153,255 51,102,153,255 51,102,153,255 34,85,136,255 68,68,122,255"
ok "-b biome, no lake band" run_prog tview -b biome "$T/nolake.png" <"$T/lk.tp"
assert_eq "off the lakes as without them" "$("$PY" - "$T/lake.png" "$T/nolake.png" <<'PY'
import sys, numpy as np; from osgeo import gdal
a, b = [gdal.Open(p).ReadAsArray() for p in sys.argv[1:]]
m = np.ones(a.shape[1:], bool); m[1:4, 4:8] = False
print(bool((a[:, m] == b[:, m]).all()), bool((a[:, ~m] != b[:, ~m]).any()))
PY
)" "True True"
bio 12 6 0,6 5 "BIOME 0 #102030 sea" "BIOME 6 #a0b0c0 peak" "BIOME 3 #0a0b0c lake" >"$T/lk2.tp"
lakes "$T/lk2.tp" "CELLSIZE 1" "BIOME 0 #102030 sea" "BIOME 6 #a0b0c0 peak" "BIOME 3 #0a0b0c lake" >"$T/lake2.tp"
ok "-b biome, own lake class" run_prog tview -b biome "$T/lake2.png" <"$T/lake2.tp"
assert_eq "own lake colour" "$(px "$T/lake2.png" "5 2" "1 2")" "10,11,12,255 16,32,48,255"
lakes "$T/nosealine.tp" "CELLSIZE 1" >"$T/clake.tp"
ok "colour, lakes" run_prog tview --exaggeration 1 "$T/clake.png" <"$T/clake.tp"
assert_eq "lake in the sea's water colour" "$(px "$T/clake.png" "5 2" "6 2")" \
    "80,140,195,255 80,140,195,255"
assert_eq "colour: off the lakes as without them" "$("$PY" - "$T/clake.png" "$T/nosealine.png" <<'PY'
import sys, numpy as np; from osgeo import gdal
a, b = [gdal.Open(p).ReadAsArray() for p in sys.argv[1:]]
m = np.ones(a.shape[1:], bool); m[1:4, 4:8] = False
print(bool((a[:, m] == b[:, m]).all()))
PY
)" "True"

# misuse
expect_exit 2 "no output" run_prog tview < "$T/syn.tp"
expect_exit 2 "bad range" run_prog tview --range 5,1 x.png < "$T/syn.tp"
expect_exit 2 "log without band" run_prog tview --log x.png < "$T/syn.tp"
expect_exit 2 "scale 0" run_prog tview -s 0 x.png < "$T/syn.tp"
expect_exit 2 "altitude 0" run_prog tview --altitude 0 x.png < "$T/syn.tp"
expect_exit 2 "two outputs" run_prog tview -o a.png b.png < "$T/syn.tp"
expect_exit 2 "legend without biome" run_prog tview --legend x.png < "$T/syn.tp"
expect_exit 2 "contour on grey" run_prog tview -b height --contours 1 x.png < "$T/syn.tp"
expect_exit 2 "contour 0" run_prog tview --contours 0 x.png < "$T/syn.tp"
expect_exit 2 "sea and no sea" run_prog tview --sea 1 --no-sea x.png < "$T/syn.tp"
expect_exit 2 "log on biome" run_prog tview -b biome --log x.png < "$T/syn.tp"

# failures leave no file behind, and an old picture stays as it was
head -c -100 "$T/syn.tp" > "$T/trunc.tp"
cp "$T/c.png" "$T/keep.png"
expect_err 1 "truncated stream" "truncated (whole band)" run_prog tview -o "$T/keep.png" < "$T/trunc.tp"
expect_err 1 "truncated stream" "truncated (streaming)" \
    run_prog tview --range 0,100 -o "$T/keep.png" < "$T/trunc.tp"
expect_exit 1 "truncated (shade, streaming)" run_prog tview --shade-only --exaggeration 1 -o "$T/new.png" < "$T/trunc.tp"
assert_same "old picture kept" "$T/c.png" "$T/keep.png"
assert_eq "no stray files" "$(ls "$T" | grep -c 'png\.')" 0
assert_eq "no new file" "$(ls "$T" | grep -c '^new.png')" 0
expect_err 1 "no band 'moisture'" "missing band" run_prog tview -b moisture x.png < "$T/syn.tp"
expect_exit 1 "unwritable dir" run_prog tview -o "$T/nodir/x.png" < "$T/syn.tp"

# pipeline: crop a window and look at it; same as the window of the whole
run_prog tcrop -w 10,10,40,30 < "$T/syn.tp" | run_prog tview --shade-only --exaggeration 2 -o "$T/w.png"
assert_eq "pipeline size" "$(pngsize "$T/w.png")" "True 40 30 4"
assert_eq "history in the PNG" "$("$PY" -c '
import sys; from osgeo import gdal
print(gdal.Open(sys.argv[1]).GetMetadata()["Comment"].replace(sys.argv[2], "T"))' "$T/w.png" "$T")" \
    "HISTORY tcrop --window 10,10,40,30
HISTORY tview --shade-only --exaggeration 2 --output T/w.png"
assert_eq "inner cells as the whole" "$("$PY" -c '
import sys; from osgeo import gdal
w = gdal.Open(sys.argv[1]).ReadAsArray()[0]; a = gdal.Open(sys.argv[2]).ReadAsArray()[0]
print((w[1:-1, 1:-1] == a[11:39, 11:49]).all())' "$T/w.png" "$T/syn.png")" True
finish
