#!/bin/bash
# tinfo: header, per-band statistics and histogram, text and JSON.
. "$(dirname "$0")/common.sh"

# 4 x 3, values 1..10 and two NaN: hand values mean 5.5, population
# stddev sqrt(8.25) = 2.87228132.
echo 1 2 3 4 5 6 7 8 9 10 nan nan | mkstream 4 3 height "CRS EPSG:32633" \
    "HISTORY tnoise --seed 1" "FOO bar baz" > "$T/a.tp"
ok "text" run_prog tinfo "$T/a.tp"
cp "$T/.out" "$T/a.txt"
field() { awk -v k="$1" '$1 == k { print $2; exit }' "$T/a.txt"; }
assert_eq "valid" "$(field valid)" 10
assert_eq "nodata" "$(field nodata)" 2
assert_eq "min" "$(field min)" 1
assert_eq "max" "$(field max)" 10
assert_eq "mean" "$(field mean)" 5.5
assert_eq "stddev" "$(field stddev)" 2.87228132
assert_eq "header kept" "$(grep -c '^HISTORY tnoise --seed 1$\|^FOO bar baz$\|^CRS EPSG:32633$' "$T/a.txt")" 3
assert_eq "10 bins" "$(grep -c '^    \[' "$T/a.txt")" 10
# 3 bins over 1..10: [1,4) [4,7) [7,10] hold 3 3 4; the largest bar is 40 #
run_prog tinfo -n 3 < "$T/a.tp" > "$T/b.txt"
assert_eq "3 bins" "$(grep '^    \[' "$T/b.txt" | awk '{ print $1 $2, $3 }' | tr '\n' ' ')" \
    "[1,4) 3 [4,7) 3 [7,10] 4 "
assert_eq "bar scaled" "$(grep -c '########################################$' "$T/b.txt")" 1
run_prog tinfo --no-hist < "$T/a.tp" > "$T/c.txt"
assert_eq "--no-hist" "$(grep -c histogram "$T/c.txt")" 0

# JSON parses and holds the same figures
run_prog tinfo --json -n 3 "$T/a.tp" > "$T/a.json"
assert_eq "json" "$("$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
b = d["bands"][0]; h = d["header"]
print(h["width"], h["height"], h["crs"], h["history"], h["extra"], b["name"],
      b["valid"], b["nodata"], b["min"], b["max"], b["mean"],
      round(b["stddev"], 12), b["histogram"]["edges"], b["histogram"]["counts"])
' "$T/a.json")" "4 3 EPSG:32633 ['tnoise --seed 1'] ['FOO bar baz'] height 10 2 1 10 5.5 2.872281323269 [1, 4, 7, 10] [3, 3, 4]"

# Against numpy on a larger three-band stream: mean and stddev to 1e-9
# relative, and the counts exactly those of np.histogram over tinfo's edges.
py - "$T/r.tp" <<'PY'
rng = np.random.default_rng(5)
w, h = 300, 200
a = rng.normal(1000, 50, (h, w)).astype('<f4')
b = rng.random((h, w)).astype('<f4'); b[rng.random((h, w)) < 0.1] = np.nan
c = np.full((h, w), np.nan, '<f4')
write(np.stack([a, b, c], axis=1), "a b c", out=sys.argv[1])	# by line
PY
run_prog tinfo --json -n 17 < "$T/r.tp" > "$T/r.json"
assert_eq "numpy" "$(py - "$T/r.tp" "$T/r.json" <<'PY'
import json
v = floats(sys.argv[1]).reshape(200, 3, 300)
j = json.load(open(sys.argv[2]))
out = []
for k, bj in enumerate(j["bands"]):
    x = v[:, k, :].astype(np.float64); x = x[~np.isnan(x)]
    if x.size == 0:
        out.append(bj["min"] is None and bj["mean"] is None and
                   bj["nodata"] == 60000 and bj["histogram"]["counts"] == [])
        continue
    e = np.array(bj["histogram"]["edges"])
    cnt = np.histogram(x, bins=e)[0].tolist()
    out.append(abs(bj["mean"] - x.mean()) <= 1e-9 * abs(x.mean()) and
               abs(bj["stddev"] - x.std()) <= 1e-9 * x.std() and
               bj["min"] == x.min() and bj["max"] == x.max() and
               bj["valid"] == x.size and cnt == bj["histogram"]["counts"] and
               len(cnt) == 17)
print(out)
PY
)" "[True, True, True]"

# the real DEM against gdalinfo -stats (which prints 3 decimals), and the
# histogram (counts from numpy.histogram over the same edges)
DEM=$DATA/jacksboro_fault_dem.tif
py '
from osgeo import gdal
ds = gdal.Open(sys.argv[1]); gt = ds.GetGeoTransform()
write(ds.ReadAsArray().astype("<f4"), "height",
      ["CELLSIZE %r" % gt[1], "ORIGIN %r %r" % (gt[0], gt[3]), "CRS EPSG:4326"])' "$DEM" > "$T/dem.tp"
run_prog tinfo --json -n 5 < "$T/dem.tp" > "$T/dem.json"
gdalinfo -stats -json "$DEM" > "$T/gdal.json"
assert_eq "dem vs gdalinfo -stats" "$("$PY" -c '
import json, sys
t = json.load(open(sys.argv[1]))["bands"][0]; g = json.load(open(sys.argv[2]))["bands"][0]
print(t["min"] == g["minimum"], t["max"] == g["maximum"],
      abs(t["mean"] - g["mean"]) <= 5e-4, abs(t["stddev"] - g["stdDev"]) <= 5e-4)' "$T/dem.json" "$T/gdal.json")" \
    "True True True True"
assert_eq "dem histogram" "$("$PY" -c '
import json, sys; b = json.load(open(sys.argv[1]))["bands"][0]["histogram"]
print(b["edges"], b["counts"])' "$T/dem.json")" \
    "[236, 404, 572, 740, 908, 1076] [36590, 49513, 36915, 12257, 3357]"

# one value: a single bin; infinities counted apart
echo 0.25 0.25 inf 0.25 | mkstream 2 2 height > "$T/one.tp"
run_prog tinfo --json < "$T/one.tp" > "$T/one.json"
assert_eq "one value" "$("$PY" -c '
import json, sys; b = json.load(open(sys.argv[1]))["bands"][0]
print(b["valid"], b["infinite"], b["stddev"], b["histogram"])' "$T/one.json")" \
    "3 1 0 {'edges': [0.25, 0.25], 'counts': [3]}"

# misuse
expect_exit 2 "--bins 0" run_prog tinfo --bins 0 "$T/a.tp"
expect_exit 2 "--bins x" run_prog tinfo -n x "$T/a.tp"
expect_exit 2 "unknown option" run_prog tinfo --frob "$T/a.tp"
expect_exit 2 "two files" run_prog tinfo "$T/a.tp" "$T/a.tp"
ok "--help" run_prog tinfo --help
assert_eq "help shows default" "$(grep -c 'default: 10' "$T/.out")" 1

# --zones: a 4x3 checkerboard of zones 1 (x + y even) and 2, values
# y * 4 + x with (0, 0) NaN, cell size 10 (areas 100 a cell), and one
# NaN zone cell (x 3, y 2: value 11, in no zone). Worked by hand: zone 1
# holds 2 5 7 8 10 and the NaN: valid 5, nodata 1, sum 32, mean 6.4,
# stddev sqrt(37.2 / 5); zone 2 holds 1 3 4 6 9: sum 23, mean 4.6, stddev
# sqrt(37.2 / 5) as well (deviations -3.6 -1.6 -0.6 1.4 4.4).
py 'y, x = np.mgrid[0:3, 0:4]
z = np.where((x + y) % 2 == 0, 1, 2).astype(np.float32); z[2, 3] = np.nan
v = (y * 4 + x).astype(np.float32); v[0, 0] = np.nan
write(np.stack([z, v], 1), "zone value", ["CELLSIZE 10"])' > "$T/cb.tp"
run_prog tinfo --zones zone --json "$T/cb.tp" > "$T/z.json"
assert_eq "zones: checkerboard by hand" "$("$PY" -c '
import json, math, sys; j = json.load(open(sys.argv[1]))
z = {q["zone"]: q for q in j["zones"]}; s = math.sqrt(37.2 / 5)
b1, b2 = z[1]["bands"][0], z[2]["bands"][0]
print(j["zone_band"], j["skipped"], sorted(z), z[1]["cells"], z[1]["area"],
      z[2]["cells"], z[2]["area"], b1["name"], b1["valid"], b1["nodata"],
      b1["min"], b1["max"], b1["sum"], abs(b1["mean"] - 6.4) < 1e-12,
      abs(b1["stddev"] - s) < 1e-12, b2["valid"], b2["nodata"], b2["min"],
      b2["max"], b2["sum"], abs(b2["mean"] - 4.6) < 1e-12,
      abs(b2["stddev"] - s) < 1e-12, len(z[1]["bands"]))' "$T/z.json")" \
    "zone 1 [1, 2] 6 600 5 500 value 5 1 2 10 32 True True 5 0 1 9 23 True True 1"
run_prog tinfo -q --zones zone "$T/cb.tp" > "$T/z.txt"
assert_eq "zones: text" "$(sed -n '/^zones of band/p;/^zone 2/,$p' "$T/z.txt" | tr -s ' ' | tr '\n' '|')" \
    "zones of band zone: 2 zones, 1 cells in none (NaN or infinite), areas in square map units|zone 2| cells 5| area 500| band value| valid 5| nodata 0| min 1| max 9| mean 4.6| stddev 2.72763634| sum 23|"
expect_err 1 "no band 'basin'" "zones: missing band" run_prog tinfo --zones basin "$T/cb.tp"
expect_exit 2 "zones: no histogram" run_prog tinfo --zones zone -n 5 "$T/cb.tp"
# Geographic cells: areas in square metres, rows at their latitude (the
# 0.01 degree cells at 60 N span about 557 x 1113 m).
py 'write(np.ones((2, 1, 3), np.float32), "zone", ["CELLSIZE 0.01", "ORIGIN 10 60", "CRS EPSG:4326"])' > "$T/geo.tp"
run_prog tinfo --zones zone --json "$T/geo.tp" > "$T/g.json"
assert_eq "zones: geographic area" "$("$PY" -c '
import json, sys; j = json.load(open(sys.argv[1])); a = j["zones"][0]["area"] / 6
print(j["area_unit"], 610e3 < a < 630e3, j["zones"][0]["bands"])' "$T/g.json")" \
    "square metres True []"

# runtime failures
head -c -5 "$T/a.tp" > "$T/trunc.tp"
expect_err 1 "truncated stream.*row 2" "truncated" run_prog tinfo < "$T/trunc.tp"
expect_exit 1 "truncated file" run_prog tinfo "$T/trunc.tp"
cat "$T/a.tp" - <<< "x" > "$T/trail.tp"
expect_err 1 "trailing data" "trailing garbage" run_prog tinfo "$T/trail.tp"
expect_err 1 "cannot open" "missing file" run_prog tinfo "$T/nonexistent.tp"
printf 'TERRAPIPE 2\n' > "$T/bad.tp"
expect_exit 1 "bad magic" run_prog tinfo "$T/bad.tp"

# pipeline: a crop of a band, its statistics
run_prog tband --keep b < "$T/r.tp" | run_prog tcrop --window 0,0,10,10 |
    run_prog tinfo --json > "$T/p.json"
assert_eq "pipeline" "$("$PY" -c '
import json, sys; j = json.load(open(sys.argv[1]))
print(j["header"]["bands"], j["bands"][0]["valid"] + j["bands"][0]["nodata"], len(j["header"]["history"]))' "$T/p.json")" \
    "['b'] 100 2"

# --vrt: GDAL reads a saved stream in place through the VRT; each band's
# samples, the geotransform, the CRS and the band names equal those of the
# GeoTIFF tgeotiff writes, for one band and several, projected and
# geographic (and NaN is nodata).
vrt_same() {
	"$PY" - "$1" "$2" <<'PY'
import sys, numpy as np
from osgeo import gdal, osr
v, t = gdal.Open(sys.argv[1]), gdal.Open(sys.argv[2])
assert (v.RasterXSize, v.RasterYSize, v.RasterCount) == \
    (t.RasterXSize, t.RasterYSize, t.RasterCount), "sizes"
assert np.allclose(v.GetGeoTransform(), t.GetGeoTransform(), 0, 1e-9), "gt"
a, b = osr.SpatialReference(v.GetProjection()), osr.SpatialReference(
    t.GetProjection())
assert a.IsSame(b), "crs"
for i in range(1, v.RasterCount + 1):
    x, y = v.GetRasterBand(i), t.GetRasterBand(i)
    assert x.Checksum() == y.Checksum(), "checksum %d" % i
    assert np.array_equal(x.ReadAsArray(), y.ReadAsArray(), equal_nan=True)
    assert x.GetDescription() == y.GetDescription(), x.GetDescription()
    assert np.isnan(x.GetNoDataValue())
print("same")
PY
}
run_prog tnoise -q -s 70x50 -c 30 --origin 500000,4649776 --crs EPSG:32633 \
    > "$T/vp.tp"
run_prog tslope -q < "$T/vp.tp" > "$T/vp3.tp"
run_prog tnoise -q -s 40x30 -c 0.01 --origin 10,46 --crs EPSG:4326 |
    run_prog tshape -q --stretch 0.2,0.8 > "$T/vg.tp"
"$PY" -c 'import sys
d = open(sys.argv[1], "rb").read()
sys.stdout.buffer.write(d[:-4 * 200] + b"\0\0\xc0\x7f" * 200)' "$T/vg.tp" \
    > "$T/vgn.tp"	# NaN in the last rows
for s in vp:height vp3:height,slope,aspect vgn:height; do
	f=${s%%:*}
	ok "--vrt $f" run_prog tinfo --vrt "$T/$f.tp"
	cp "$T/.out" "$T/$f.vrt"
	run_prog tgeotiff -q -b "${s#*:}" "$T/$f.tp" "$T/$f.tif"
	assert_eq "--vrt $f reads as the GeoTIFF" \
	    "$(vrt_same "$T/$f.vrt" "$T/$f.tif" 2>&1 | tail -1)" same
done
assert_eq "--vrt checksum" "$(gdalinfo -checksum "$T/vp3.vrt" |
    grep -c Checksum=)" 3
# GRASS links the stream in through the VRT: r.univar's sum of the slope
# band is numpy's of the stream's.
grass --tmp-location EPSG:32633 --exec bash -c 'r.external -o input="$1" \
    output=v >/dev/null 2>&1 && g.region raster=v.2 && r.univar -g v.2' \
    _ "$T/vp3.vrt" > "$T/grass.log" 2>&1
grep -q "^sum=[0-9]" "$T/grass.log" && pass || fail "--vrt in GRASS: $(tail -3 "$T/grass.log")"
assert_near "--vrt in GRASS" \
    "$(sed -n 's/^sum=//p' "$T/grass.log")" \
    "$(py 'print(float(np.nansum(band(sys.argv[1], "slope"), dtype=float)))' \
        "$T/vp3.tp")" 1e-6
expect_err 2 "FILE" "--vrt on stdin" run_prog tinfo --vrt < "$T/vp.tp"
head -c 300 "$T/vp.tp" > "$T/vshort.tp"
expect_err 1 "bytes" "--vrt short file" run_prog tinfo --vrt "$T/vshort.tp"
finish
