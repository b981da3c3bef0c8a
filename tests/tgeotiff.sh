#!/bin/bash
# tgeotiff: GeoTIFF output checked by GDAL itself (gdalinfo -json,
# gdallocationinfo, the COG validator) and read back through timport.
. "$(dirname "$0")/common.sh"

# grid W H [BANDS] [KEY VALUE lines]: a stream whose band b sample at (x, y)
# is (x + y*W)/1024 + b (exact in float32), NaN where x = y = 3.
grid() {
	py - "$@" <<'PYEOF'
w, h = int(sys.argv[1]), int(sys.argv[2])
bands = sys.argv[3] if len(sys.argv) > 3 else "height"
nb = len(bands.split())
a = np.zeros((h, nb, w), "<f4")
base = (np.arange(w)[None, :] + np.arange(h)[:, None] * w) / 1024.0
for b in range(nb):
    a[:, b, :] = base + b
if w > 3 and h > 3:
    a[3, :, 3] = np.nan
write(a, bands, sys.argv[4:])
PYEOF
}

# json FILE EXPR...: Python expressions on gdalinfo -json FILE (as d; b is
# band 1), one result a line.
json() {
	f=$1; shift
	gdalinfo -json "$f" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
b = d["bands"][0]
for x in sys.argv[1:]:
    print(eval(x))' "$@"
}
# at FILE [OPTIONS] < "X Y" lines: the values gdallocationinfo reads there.
at() { gdallocationinfo -valonly "$@" | tr '\n' ' '; }
ims='d["metadata"]["IMAGE_STRUCTURE"]'

geo="CELLSIZE 30|ORIGIN 500000 4649776|CRS EPSG:32633"
IFS='|' read -r -a georef <<<"$geo"
grid 600 520 height "${georef[@]}" 'HISTORY tnoise --seed "7" & <more>' >"$T/s.tp"

# --- golden: what GDAL sees ---
ok "writes a GeoTIFF" run_prog tgeotiff "$T/a.tif" <"$T/s.tp"
mapfile -t got < <(json "$T/a.tif" 'd["geoTransform"]' 'd["size"]' \
    'd["coordinateSystem"]["wkt"].rstrip().endswith("ID[\"EPSG\",32633]]")' \
    'b["noDataValue"]' 'b["type"]' "$ims[\"COMPRESSION\"], $ims[\"PREDICTOR\"]" \
    'b["block"]' 'b["description"]' 'd["metadata"][""]["AREA_OR_POINT"]' \
    'd["metadata"][""]["HISTORY_01"]' 'd["metadata"][""]["HISTORY_02"]')
assert_eq "geotransform" "${got[0]}" "[500000.0, 30.0, 0.0, 4649776.0, 0.0, -30.0]"
assert_eq "size" "${got[1]}" "[600, 520]"
assert_eq "EPSG code" "${got[2]}" True
assert_eq "nodata" "${got[3]}" NaN
assert_eq "type" "${got[4]}" Float32
assert_eq "DEFLATE, predictor 3" "${got[5]}" "('DEFLATE', '3')"
assert_eq "256x256 blocks" "${got[6]}" "[256, 256]"
assert_eq "band description" "${got[7]}" height
assert_eq "pixel is area" "${got[8]}" Area
assert_eq "history, escaped and back" "${got[9]}" 'tnoise --seed "7" & <more>'
assert_eq "own history line" "${got[10]}" "tgeotiff $T/a.tif"
# Cell (col 5, row 7) has its centre at x = 500000 + 5.5*30 = 500165,
# y = 4649776 - 7.5*30 = 4649551 and value (5 + 7*600)/1024 = 4.1064453125;
# the last cell (599 + 519*600)/1024 = 304.6865234375; cell (3, 3) is NaN.
assert_eq "gdallocationinfo at a cell centre" \
    "$(echo 500165 4649551 | at -geoloc "$T/a.tif")" "4.1064453125 "
assert_eq "gdallocationinfo by cell" "$(printf '599 519\n3 3\n600 0\n' | at "$T/a.tif")" \
    "304.6865234375 nan  "
cp "$T/a.tif" "$T/a1.tif"
ok "same bytes twice" run_prog tgeotiff "$T/a.tif" <"$T/s.tp"
assert_same "deterministic output" "$T/a.tif" "$T/a1.tif"
# -j 1 and -j 2: identical files (HISTORY leaves out -j).
for j in 1 2; do
	ok "-j $j" run_prog tgeotiff -j $j --cog "$T/j.tif" <"$T/s.tp"
	mv "$T/j.tif" "$T/j$j.tif"
done
assert_same "-j 1 vs -j 2" "$T/j1.tif" "$T/j2.tif"

# --- the other codecs, BigTIFF, zrange ---
for c in zstd lzw; do
	ok "--compress $c" run_prog tgeotiff -c $c "$T/$c.tif" <"$T/s.tp"
	assert_eq "$c in the file" "$(json "$T/$c.tif" "$ims[\"COMPRESSION\"], $ims[\"PREDICTOR\"]")" \
	    "('$(echo $c | tr a-z A-Z)', '3')"
	assert_eq "$c value" "$(echo 5 7 | at "$T/$c.tif")" "4.1064453125 "
done
ok "--compress none" run_prog tgeotiff --compress none "$T/none.tif" <"$T/s.tp"
assert_eq "uncompressed" "$(json "$T/none.tif" "'COMPRESSION' in $ims")" False
assert_eq "uncompressed size" "$(( $(stat -c %s "$T/none.tif") > 600 * 520 * 4 ))" 1
ok "--bigtiff yes" run_prog tgeotiff --bigtiff yes "$T/big.tif" <"$T/s.tp"
assert_eq "BigTIFF magic" "$(head -c 4 "$T/big.tif" | od -An -c | tr -d ' ')" 'II+\0'
assert_eq "BigTIFF value" "$(echo 5 7 | at "$T/big.tif")" "4.1064453125 "
assert_eq "classic TIFF by default" "$(head -c 4 "$T/a.tif" | od -An -c | tr -d ' ')" 'II*\0'
printf '0 0.5 1 nan' | mkstream 4 1 height >"$T/z.tp"
ok "--zrange" run_prog tgeotiff --zrange -100,1700 "$T/z.tif" <"$T/z.tp"
assert_eq "zrange values" "$(printf '0 0\n1 0\n2 0\n3 0\n' | at "$T/z.tif")" "-100 800 1700 nan "
assert_eq "no CRS, default geometry" \
    "$(json "$T/z.tif" 'd["geoTransform"], "coordinateSystem" in d')" \
    "([0.0, 1.0, 0.0, 1.0, 0.0, -1.0], False)"

# --- geographic CRS ---
grid 20 10 height "CELLSIZE 0.25" "ORIGIN -84.5 36.75" "CRS EPSG:4326" >"$T/g.tp"
ok "geographic" run_prog tgeotiff "$T/g.tif" <"$T/g.tp"
assert_eq "EPSG:4326, degrees" "$(json "$T/g.tif" 'd["geoTransform"]' \
    'd["coordinateSystem"]["wkt"].rstrip().endswith("ID[\"EPSG\",4326]]")' | tr '\n' ' ')" \
    "[-84.5, 0.25, 0.0, 36.75, 0.0, -0.25] True "

# --- COG ---
ok "--cog" run_prog tgeotiff --cog "$T/cog.tif" <"$T/s.tp"
ok "COG validator" "$PY" -m osgeo_utils.samples.validate_cloud_optimized_geotiff -q "$T/cog.tif"
assert_eq "overviews" "$(json "$T/cog.tif" '[o["size"] for o in b["overviews"]]')" \
    "[[300, 260], [150, 130]]"
# First overview, cell (0, 0): the mean of (0 + 1 + 600 + 601)/1024 =
# 0.29345703125; cell (1, 1) averages (1202 + 1203 + 1802)/3/1024 =
# 1.369466145..., cell (3, 3) being NaN.
read -r o00 o11 <<<"$(printf '0 0\n1 1\n' | at -overview 1 "$T/cog.tif")"
assert_eq "overview mean" "$o00" 0.29345703125
assert_near "overview ignores NaN" "$o11" 1.3694661458 1e-7
assert_eq "COG full resolution" "$(echo 5 7 | at "$T/cog.tif")" "4.1064453125 "
grid 100 80 height "${georef[@]}" >"$T/small.tp"
ok "--cog, small" run_prog tgeotiff --cog -c zstd "$T/cogs.tif" <"$T/small.tp"
ok "small COG valid" "$PY" -m osgeo_utils.samples.validate_cloud_optimized_geotiff -q "$T/cogs.tif"
ok "--cog --bigtiff yes" run_prog tgeotiff --cog --bigtiff yes "$T/cogb.tif" <"$T/s.tp"
ok "BigTIFF COG valid" "$PY" -m osgeo_utils.samples.validate_cloud_optimized_geotiff -q "$T/cogb.tif"

# --- the biome band ---
# biomes W H CODES [KEY VALUE lines]: bands "height biome", height as grid's,
# biome the code list CODES (comma-separated) repeated along the rows, NaN
# at (3, 3).
biomes() {
	py - "$@" <<'PYEOF'
w, h, codes = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split(",")
c = np.array([float(v) for v in codes])
a = np.zeros((h, 2, w), "<f4")
a[:, 0, :] = (np.arange(w)[None, :] + np.arange(h)[:, None] * w) / 1024.0
a[:, 1, :] = c[(np.arange(w)[None, :] + np.arange(h)[:, None] * w) % len(c)]
a[3, 1, 3] = np.nan
write(a, "height biome", sys.argv[4:])
PYEOF
}
# pam FILE EXPR...: as json, with GDAL reading FILE.aux.xml beside it.
pam() { GDAL_PAM_ENABLED=YES json "$@"; }
# qml FILE: the paletteEntry elements of a QGIS style as "value color label"
# lines, after checking it parses and is a paletted renderer of band 1.
qml() {
	"$PY" - "$1" <<'PYEOF'
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
rr = r.find("pipe/rasterrenderer")
assert r.tag == "qgis" and rr.get("type") == "paletted" and rr.get("band") == "1"
for p in rr.findall("colorPalette/paletteEntry"):
    print(p.get("value"), p.get("color"), p.get("label"), p.get("alpha"))
PYEOF
}
codes=$(seq -s, 0 18)
biomes 40 30 "$codes" "${georef[@]}" >"$T/b.tp"
ok "-b biome" run_prog tgeotiff -b biome "$T/b.tif" <"$T/b.tp"
mapfile -t got < <(pam "$T/b.tif" 'b["type"], b["colorInterpretation"], b["noDataValue"]' \
    'b["colorTable"]["entries"][2]' 'b["colorTable"]["entries"][17]' \
    'b["colorTable"]["entries"][19]' 'len(b["categories"])' \
    'b["categories"][0], b["categories"][11], b["categories"][18]')
assert_eq "biome type" "${got[0]}" "('Byte', 'Palette', 255.0)"
assert_eq "default table: beach" "${got[1]}" "[160, 144, 119, 255]"
assert_eq "default table: river" "${got[2]}" "[34, 85, 136, 255]"
assert_eq "no class: grey" "${got[3]}" "[128, 128, 128, 255]"
assert_eq "default table: 19 categories" "${got[4]}" 19
assert_eq "default table: names" "${got[5]}" "('ocean', 'temperate deciduous forest', 'marsh')"
# biome at (x, y) is (x + 40 y) mod 19: 0 at (0, 0), 10 at (36, 25), 18 at
# (18, 0); NaN at (3, 3) becomes 255.
assert_eq "biome codes" "$(printf '0 0\n36 25\n18 0\n3 3\n' | at "$T/b.tif")" "0 10 18 255 "
assert_eq "default qml" "$(qml "$T/b.qml" | sed -n '1p;12p;19p' | tr '\n' '|')" \
    "0 #44447a ocean 255|11 #679459 temperate deciduous forest 255|18 #2f6666 marsh 255|"
assert_eq "default qml: one entry a class" "$(qml "$T/b.qml" | wc -l)" 19
ok "-b biome --cog" run_prog tgeotiff -b biome --cog "$T/bc.tif" <"$T/b.tp"
ok "biome COG valid" "$PY" -m osgeo_utils.samples.validate_cloud_optimized_geotiff -q "$T/bc.tif"
assert_eq "COG sidecars" "$(cd "$T" && ls bc.*)" "bc.qml
bc.tif
bc.tif.aux.xml"

# A table of the stream's own (BIOME lines) with gaps: codes 0, 5, 200; a
# name that XML must escape.
biomes 12 8 0,5,200,nan "${georef[@]}" "BIOME 0 #102030 deep sea" \
    'BIOME 5 #a0b0c0 rock & <ice>' "BIOME 200 #ff0001 peak's top" >"$T/g.tp"
ok "-b biome, own table" run_prog tgeotiff -b biome "$T/g.tif" <"$T/g.tp"
mapfile -t got < <(pam "$T/g.tif" 'len(b["categories"])' \
    'b["categories"][0], b["categories"][5], b["categories"][200]' \
    'set(b["categories"][1:5] + b["categories"][6:200])' \
    'b["colorTable"]["entries"][0], b["colorTable"]["entries"][5], b["colorTable"]["entries"][200]' \
    'b["colorTable"]["entries"][1], b["colorTable"]["entries"][255]')
assert_eq "own table: categories up to the largest code" "${got[0]}" 201
assert_eq "own table: names" "${got[1]}" "('deep sea', 'rock & <ice>', \"peak's top\")"
assert_eq "own table: gaps are empty" "${got[2]}" "{''}"
assert_eq "own table: colours" "${got[3]}" "([16, 32, 48, 255], [160, 176, 192, 255], [255, 0, 1, 255])"
assert_eq "own table: gap grey, nodata black" "${got[4]}" "([128, 128, 128, 255], [0, 0, 0, 0])"
assert_eq "own table: codes" "$(printf '0 0\n1 0\n2 0\n3 0\n' | at "$T/g.tif")" "0 5 200 255 "
assert_eq "own table: qml" "$(qml "$T/g.qml" | tr '\n' '|')" \
    "0 #102030 deep sea 255|5 #a0b0c0 rock & <ice> 255|200 #ff0001 peak's top 255|"

# A code that is not a whole number 0..254 is an error naming its cell;
# nothing is left behind, sidecars included.
biomes 6 4 0,1,2,3,4,5 >"$T/frac.tp"
py 'h, a = read(sys.argv[1]); a = a.copy(); a[2, 1, 4] = 2.5; write(a, "height biome")' "$T/frac.tp" >"$T/frac2.tp"
py 'h, a = read(sys.argv[1]); a = a.copy(); a[1, 1, 0] = 255; write(a, "height biome")' "$T/frac.tp" >"$T/big.tp"
py 'h, a = read(sys.argv[1]); a = a.copy(); a[0, 1, 5] = -1; write(a, "height biome")' "$T/frac.tp" >"$T/neg.tp"
mkdir "$T/bout"
expect_err 1 "row 2, column 4: biome code 2.5 is not a whole number 0..254" \
    "fractional code" run_prog tgeotiff -b biome "$T/bout/f.tif" <"$T/frac2.tp"
expect_err 1 "row 1, column 0: biome code 255 is not" "code 255" \
    run_prog tgeotiff -b biome "$T/bout/f.tif" <"$T/big.tp"
expect_err 1 "row 0, column 5: biome code -1 is not" "code -1" \
    run_prog tgeotiff -b biome --cog "$T/bout/f.tif" <"$T/neg.tp"
assert_eq "nothing left after a bad code" "$(ls -A "$T/bout")" ""
# Sidecars appear whole: a failure keeps the old ones as they were.
ok "biome again" run_prog tgeotiff -b biome "$T/bout/f.tif" <"$T/frac.tp"
cp "$T/bout/f.qml" "$T/f.qml.old"
expect_exit 1 "bad code over an old map" run_prog tgeotiff -b biome "$T/bout/f.tif" <"$T/frac2.tp"
assert_same "old qml kept" "$T/bout/f.qml" "$T/f.qml.old"
assert_eq "no temporary sidecars" "$(ls -A "$T/bout" | tr '\n' ' ')" "f.qml f.tif f.tif.aux.xml "
# A height GeoTIFF over a biome map removes the stale categories and the
# style tgeotiff wrote; a style someone else wrote stays.
ok "height over biome" run_prog tgeotiff -b height "$T/bout/f.tif" <"$T/frac.tp"
assert_eq "stale sidecars removed" "$(ls -A "$T/bout")" "f.tif"
assert_eq "no categories on Float32" "$(pam "$T/bout/f.tif" 'b["type"], "categories" in b')" "('Float32', False)"
echo '<qgis/>' >"$T/bout/f.qml"
ok "height beside a user's style" run_prog tgeotiff "$T/bout/f.tif" <"$T/frac.tp"
assert_eq "user's style kept" "$(cat "$T/bout/f.qml")" "<qgis/>"
rm -f "$T/bout/f.qml"
# A name without an extension gets NAME.qml; /dev/null gets no sidecars.
ok "no extension" run_prog tgeotiff -b biome "$T/bout/map" <"$T/frac.tp"
assert_eq "sidecars of a name without an extension" "$(ls -A "$T/bout" | tr '\n' ' ')" \
    "f.tif map map.aux.xml map.qml "
ok "biome to /dev/null" run_prog tgeotiff -b biome /dev/null <"$T/frac.tp"

# --- round trip through timport ---
ok "timport reads it back" run_prog timport "$T/a.tif"
cp "$T/.out" "$T/back.tp"
values "$T/s.tp" >"$T/v1"
values "$T/back.tp" >"$T/v2"
assert_same "same values back" "$T/v1" "$T/v2"
assert_eq "same geometry back" "$(header "$T/back.tp" ORIGIN) $(header "$T/back.tp" CELLSIZE) $(header "$T/back.tp" CRS)" \
    "500000 4649776 30 EPSG:32633"
assert_eq "history back" "$(header_lines "$T/back.tp" | grep '^HISTORY' | head -2 | tr '\n' '|')" \
    "HISTORY tnoise --seed \"7\" & <more>|HISTORY tgeotiff $T/a.tif|"

# --- misuse, bad input, nothing left behind ---
expect_exit 2 "no output file" run_prog tgeotiff <"$T/s.tp"
expect_exit 2 "three files" run_prog tgeotiff "$T/s.tp" "$T/x.tif" "$T/y.tif" <"$T/s.tp"
expect_exit 2 "bad codec" run_prog tgeotiff -c jpeg "$T/x.tif" <"$T/s.tp"
expect_exit 2 "stdout" run_prog tgeotiff - <"$T/s.tp"
expect_exit 2 "bad zrange" run_prog tgeotiff --zrange 1 "$T/x.tif" <"$T/s.tp"
expect_exit 2 "zrange on biome" run_prog tgeotiff -b biome --zrange 0,1 "$T/x.tif" <"$T/b.tp"
expect_exit 2 "unknown option" run_prog tgeotiff --frobnicate "$T/x.tif" <"$T/s.tp"
ok "--help" run_prog tgeotiff --help
mkdir "$T/out"
head -c 300000 "$T/s.tp" >"$T/trunc.tp"
expect_err 1 "row" "truncated stream" run_prog tgeotiff "$T/out/t.tif" <"$T/trunc.tp"
assert_eq "no file after a failure" "$(ls -A "$T/out")" ""
expect_err 1 "band 'moisture'" "missing band" run_prog tgeotiff -b moisture "$T/out/t.tif" <"$T/s.tp"
grid 4 4 height "CRS ESRI:102003" >"$T/esri.tp"
expect_err 1 "ESRI:102003" "CRS without an EPSG code" run_prog tgeotiff "$T/out/t.tif" <"$T/esri.tp"
grid 4 4 height "CRS EPSG:99999" >"$T/unk.tp"
expect_err 1 "EPSG:99999" "unknown EPSG code" run_prog tgeotiff "$T/out/t.tif" <"$T/unk.tp"
assert_eq "PROJ stays quiet" "$(wc -l <"$T/.err")" 1
assert_eq "still nothing left" "$(ls -A "$T/out")" ""
expect_exit 1 "missing directory" run_prog tgeotiff "$T/nodir/t.tif" <"$T/s.tp"
cp "$T/s.tp" "$T/trail.tp"; printf 'xx' >>"$T/trail.tp"
expect_exit 1 "trailing bytes" run_prog tgeotiff "$T/out/t.tif" <"$T/trail.tp"
assert_eq "nothing left after trailing bytes" "$(ls -A "$T/out")" ""

# --- pipeline: a real DEM through timport and tgeotiff, as GDAL sees it ---
ok "pipeline" run_prog tgeotiff --cog "$T/j.tif" \
    < <(run_prog timport "$DATA/jacksboro_fault_dem.tif")
stat() { gdalinfo -stats "$1" | sed -n "s/^ *STATISTICS_$2=//p"; }
assert_eq "pipeline minimum" "$(stat "$T/j.tif" MINIMUM)" 236
assert_eq "pipeline maximum" "$(stat "$T/j.tif" MAXIMUM)" 1076
assert_near "pipeline mean" "$(stat "$T/j.tif" MEAN)" "$(stat "$DATA/jacksboro_fault_dem.tif" MEAN)" 1e-9
assert_eq "pipeline value" "$(gdallocationinfo -valonly -geoloc "$T/j.tif" -84.3 36.65)" \
    "$(gdallocationinfo -valonly -geoloc "$DATA/jacksboro_fault_dem.tif" -84.3 36.65)"
# --- a CRS without an EPSG code: timport's GEOKEYS line written back ---
AEA='+proj=aea +lat_0=23 +lon_0=-96 +lat_1=29.5 +lat_2=45.5 +datum=NAD83 +units=m'
gdal_translate -q -a_srs "$AEA" -a_ullr 500000 5400000 504000 5396000 -srcwin 0 0 40 40 \
    "$DATA/jacksboro_fault_dem.tif" "$T/aea.tif"
ok "Albers: timport | tflow | tgeotiff" run_prog tgeotiff -b height "$T/aea_out.tif" \
    < <(run_prog timport "$T/aea.tif" | run_prog tflow -q)
assert_eq "the same projection as the input" "$(gdalsrsinfo -o proj4 "$T/aea_out.tif")" \
    "$(gdalsrsinfo -o proj4 "$T/aea.tif")"
assert_eq "still projected, in metres" "$(gdalsrsinfo -o proj4 "$T/aea_out.tif" | tr -d '\n' | sed 's/ +no_defs//')" \
    "+proj=aea +lat_0=23 +lon_0=-96 +lat_1=29.5 +lat_2=45.5 +x_0=0 +y_0=0 +datum=NAD83 +units=m"
assert_eq "Albers geotransform" "$(json "$T/aea_out.tif" 'd["geoTransform"]')" \
    "[500000.0, 100.0, 0.0, 5400000.0, 0.0, -100.0]"
assert_eq "Albers values" "$(gdallocationinfo -valonly "$T/aea_out.tif" 7 9)" \
    "$(gdallocationinfo -valonly "$T/aea.tif" 7 9)"
# A user-defined geographic CRS (a sphere) goes round the same way.
gdal_translate -q -a_srs '+proj=longlat +R=6371000 +no_defs' -a_ullr 10 50 10.4 49.6 -srcwin 0 0 40 40 \
    "$DATA/jacksboro_fault_dem.tif" "$T/sphere.tif"
ok "sphere: timport | tgeotiff" run_prog tgeotiff "$T/sphere_out.tif" < <(run_prog timport "$T/sphere.tif")
assert_eq "the same sphere" "$(gdalsrsinfo -o proj4 "$T/sphere_out.tif")" "$(gdalsrsinfo -o proj4 "$T/sphere.tif")"
# A CRS line with an EPSG code wins over GEOKEYS (a stage changed the CRS).
run_prog timport "$T/aea.tif" | sed '0,/^GEOKEYS/s/^GEOKEYS/CRS EPSG:5070\nGEOKEYS/' >"$T/both.tp"
ok "CRS and GEOKEYS" run_prog tgeotiff "$T/both.tif" <"$T/both.tp"
assert_eq "EPSG code wins" "$(json "$T/both.tif" 'd["coordinateSystem"]["wkt"].rstrip().endswith("ID[\"EPSG\",5070]]")')" True
grid 4 4 height "GEOKEYS 1.1.0 1024=s:1 3072=x:5" >"$T/badkeys.tp"
expect_err 1 "GEOKEYS" "a GEOKEYS line that does not parse" run_prog tgeotiff "$T/out/t.tif" <"$T/badkeys.tp"
assert_eq "nothing left after bad GEOKEYS" "$(ls -A "$T/out")" ""
# --- sample types, scale and offset: what GDAL reads back ---
# Values chosen for rounding half away from zero and clamping: 2.5 -> 3,
# -2.5 -> -3, 1.49 -> 1, NaN -> nodata, 300 and -5 clamped for Byte.
echo "2.5 -2.5 1.49 nan 300 -5" | mkstream 6 1 height "CRS EPSG:32633" >"$T/r.tp"
for t in "Int16 -32768.0 3 -3 1 -32768 300 -5 0" "UInt16 65535.0 3 0 1 65535 300 0 2" \
    "Int32 -2147483648.0 3 -3 1 -2147483648 300 -5 0" "Byte 255.0 3 0 1 255 254 0 3"; do
	set -- $t
	ok "--type $1" run_prog tgeotiff -q --type "$1" "$T/t$1.tif" <"$T/r.tp"
	cp "$T/.err" "$T/t$1.err"
	assert_eq "$1 in the file" "$(json "$T/t$1.tif" 'b["type"]' 'b["noDataValue"]' | tr '\n' ' ')" "$1 $2 "
	assert_eq "$1 values, rounded half away from zero" \
	    "$(printf '0 0\n1 0\n2 0\n3 0\n4 0\n5 0\n' | gdallocationinfo -valonly "$T/t$1.tif" | tr '\n' ' ')" \
	    "$3 $4 $5 $6 $7 $8 "
	if [ "$9" = 0 ]; then assert_eq "$1: nothing clamped, nothing said" "$(cat "$T/t$1.err")" ""
	else assert_eq "$1: clamped samples counted" "$(cat "$T/t$1.err")" \
	    "tgeotiff: warning: $9 sample$([ "$9" = 1 ] || echo s) outside the range of $1 (after --scale/--offset) clamped to it; --scale and --offset fit wider values"
	fi
done
assert_eq "Int16 predictor 2" "$(json "$T/tInt16.tif" "$ims[\"PREDICTOR\"]")" 2
# The real DEM as Int16 decimetres above 200 m: gdalinfo shows the scale and
# offset, and gdal_translate -unscale gives the heights back within half a
# step (0.05 m); UNITS m is GDAL's unit type.
run_prog timport "$DATA/jacksboro_fault_dem.tif" | sed '0,/^ENDHDR$/s/^ENDHDR$/UNITS m\nENDHDR/' >"$T/dem.tp"
ok "Int16 with scale and offset" run_prog tgeotiff -t Int16 --scale 0.1 --offset 200 "$T/dem16.tif" <"$T/dem.tp"
assert_eq "gdalinfo shows offset and scale" "$(gdalinfo "$T/dem16.tif" | grep -c '^ *Offset: 200, *Scale: *0.1$')" 1
assert_eq "gdalinfo shows the unit" "$(gdalinfo "$T/dem16.tif" | grep -c '^ *Unit Type: m$')" 1
assert_eq "json: scale, offset, unit" "$(json "$T/dem16.tif" 'b["scale"], b["offset"], b["unit"]')" "(0.1, 200.0, 'm')"
gdal_translate -q -unscale -ot Float32 "$T/dem16.tif" "$T/unscaled.tif"
py - "$T/unscaled.tif" "$DATA/jacksboro_fault_dem.tif" "$T/dem16.tif" <<'PYEOF' >"$T/cmp"
from osgeo import gdal
a = gdal.Open(sys.argv[1]).ReadAsArray().astype(float)
b = gdal.Open(sys.argv[2]).ReadAsArray().astype(float)
raw = gdal.Open(sys.argv[3]).ReadAsArray().astype(float)
print(a.shape == b.shape, float(np.abs(a - b).max()) <= 0.05 + 1e-6,
      bool(((raw - (b - 200) / 0.1) == 0).all()))
PYEOF
assert_eq "unscaled heights within half a step, raw = (h - 200) / 0.1" "$(cat "$T/cmp")" "True True True"
ok "tgeotiff IN OUT" run_prog tgeotiff -q -t Int16 --scale 0.1 --offset 200 "$T/dem.tp" "$T/dem16b.tif"
assert_eq "IN OUT: the same pixels" "$(gdalinfo -checksum "$T/dem16b.tif" | grep Checksum)" \
    "$(gdalinfo -checksum "$T/dem16.tif" | grep Checksum)"
ok "IN as -: standard input" run_prog tgeotiff -q -t Int16 --scale 0.1 --offset 200 - "$T/dem16c.tif" <"$T/dem.tp"
assert_eq "IN -: the same pixels" "$(gdalinfo -checksum "$T/dem16c.tif" | grep Checksum)" \
    "$(gdalinfo -checksum "$T/dem16.tif" | grep Checksum)"
assert_eq "no UNITS, no unit type" "$(json "$T/a.tif" 'b.get("unit")')" None
expect_err 2 "-b: no band named" "an empty band list" run_prog tgeotiff -b , "$T/x.tif" <"$T/s.tp"
expect_err 1 "missing.tp: cannot open" "IN that is not there" run_prog tgeotiff "$T/missing.tp" "$T/out/m.tif"
expect_exit 2 "bad type" run_prog tgeotiff -t Float64 "$T/x.tif" <"$T/s.tp"
expect_err 2 "--scale: 0 would" "scale 0" run_prog tgeotiff --scale 0 "$T/x.tif" <"$T/s.tp"

# --- several bands, codes as Byte ---
grid 300 280 "height flow dir river" "${georef[@]}" >"$T/m.tp"
ok "-b height,flow,dir" run_prog tgeotiff -q -b height,flow,dir "$T/m.tif" <"$T/m.tp"
assert_eq "three Float32 bands, described" \
    "$(gdalinfo -json "$T/m.tif" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); print([(b["description"], b["type"]) for b in d["bands"]])')" \
    "[('height', 'Float32'), ('flow', 'Float32'), ('dir', 'Float32')]"
# No band of a file of non-colour bands is read as red, green or blue
# (PHOTOMETRIC=MINISBLACK, the extra samples unspecified, not alpha).
ok "-b flow,dir,river" run_prog tgeotiff -q -b flow,dir,river "$T/fdr.tif" <"$T/m.tp"
assert_eq "grey bands, no RGB" "$(gdalinfo "$T/fdr.tif" | sed -n 's/.*ColorInterp=//p' | tr '\n' ' ')" \
    "Gray Undefined Undefined "
# QGIS draws any file of two bands or more as red, green and blue whatever
# ColorInterp says, so tgeotiff leaves a grey style of band 1 beside it
# (recomputed to the view as QGIS draws); a single band takes it away, and
# a style of the user's is neither replaced nor removed.
assert_eq "grey style of band 1" "$("$PY" -c '
import sys, xml.dom.minidom as X
d = X.parse(sys.argv[1]); r = d.getElementsByTagName("rasterrenderer")[0]
print(r.getAttribute("type"), r.getAttribute("grayBand"),
      d.getElementsByTagName("extent")[0].firstChild.data, "written by tgeotiff" in open(sys.argv[1]).read())' "$T/fdr.qml")" \
    "singlebandgray 1 UpdatedCanvas True"
ok "one band over it" run_prog tgeotiff -q -b flow "$T/fdr.tif" <"$T/m.tp"
[ ! -e "$T/fdr.qml" ] && pass || fail "a single band left the grey style"
echo '<qgis>mine</qgis>' > "$T/fdr.qml"
ok "-b flow,dir with a style of the user's" run_prog tgeotiff -q -b flow,dir "$T/fdr.tif" <"$T/m.tp"
assert_eq "the user's style kept" "$(cat "$T/fdr.qml")" "<qgis>mine</qgis>"
ok "one band: the user's style kept" run_prog tgeotiff -q -b flow "$T/fdr.tif" <"$T/m.tp"
assert_eq "still kept" "$(cat "$T/fdr.qml")" "<qgis>mine</qgis>"
# share/qgis/tflow-flow.qml: band 1, a pseudocolour ramp of blues on stops
# a decade apart from 100 cells (a log ramp), clear below, opaque at the top.
assert_eq "flow style" "$("$PY" -c '
import sys, xml.dom.minidom as X
d = X.parse(sys.argv[1]); bad = []
r = d.getElementsByTagName("rasterrenderer")[0]
if (r.getAttribute("type"), r.getAttribute("band")) != ("singlebandpseudocolor", "1"): bad.append("renderer")
it = [(float(i.getAttribute("value")), int(i.getAttribute("alpha")), i.getAttribute("color"))
      for i in d.getElementsByTagName("item")]
v = [x for x, a, c in it if x >= 100]
if any(b / a != 10 for a, b in zip(v[2:], v[3:])) or v[0] != 100: bad.append("stops %r" % v)
if [a for x, a, c in it if x <= 100] != [0, 0] or it[-1][1] != 255: bad.append("alpha")
if any(int(c[5:7], 16) <= int(c[1:3], 16) for x, a, c in it[1:]): bad.append("not blue")
print(" ".join(bad) or "ok")' "$ROOT/share/qgis/tflow-flow.qml")" ok
# band b at (x, y) is (x + y*300)/1024 + b: cell (10, 20) is 6010/1024
assert_eq "each band's value" "$(for b in 1 2 3; do gdallocationinfo -valonly -b $b "$T/m.tif" 10 20; done | tr '\n' ' ')" \
    "5.869140625 6.869140625 7.869140625 "
assert_eq "each band's nodata at (3, 3)" "$(for b in 1 2 3; do gdallocationinfo -valonly -b $b "$T/m.tif" 3 3; done | tr '\n' ' ')" \
    "nan nan nan "
echo "1 2 4 128 nan 0 1 1 nan 0" | mkstream 5 1 "dir river" >"$T/d.tp"
ok "-b dir" run_prog tgeotiff -q -b dir "$T/dir.tif" <"$T/d.tp"
assert_eq "dir defaults to Byte, nodata 255" "$(json "$T/dir.tif" 'b["type"], b["noDataValue"]')" "('Byte', 255.0)"
assert_eq "dir codes" "$(printf '0 0\n3 0\n4 0\n' | gdallocationinfo -valonly "$T/dir.tif" | tr '\n' ' ')" "1 128 255 "
ok "-b dir,river" run_prog tgeotiff -q -b dir,river "$T/dr.tif" <"$T/d.tp"
assert_eq "two code bands: Byte" "$(gdalinfo -json "$T/dr.tif" | "$PY" -c 'import json,sys; print([b["type"] for b in json.load(sys.stdin)["bands"]])')" "['Byte', 'Byte']"
assert_eq "river codes" "$(printf '0 0\n3 0\n4 0\n' | gdallocationinfo -valonly -b 2 "$T/dr.tif" | tr '\n' ' ')" "0 255 0 "
for j in 1 2; do
	ok "multi-band Int16 COG -j $j" run_prog tgeotiff -q -j $j --cog -t Int16 --scale 0.01 -b height,flow,dir "$T/mc.tif" <"$T/m.tp"
	mv "$T/mc.tif" "$T/mc$j.tif"
done
assert_eq "the band list in HISTORY" "$(gdalinfo "$T/mc1.tif" | sed -n 's/^ *HISTORY_01=//p')" \
    "tgeotiff --cog --type Int16 --scale 0.01 --band height,flow,dir $T/mc.tif"
assert_same "multi-band COG: -j 1 vs -j 2" "$T/mc1.tif" "$T/mc2.tif"
assert_eq "scale on value bands only" "$(gdalinfo -json "$T/mc1.tif" | "$PY" -c 'import json,sys; print([b.get("scale") for b in json.load(sys.stdin)["bands"]])')" "[0.01, 0.01, None]"
# The overview cell over full-resolution (10..11, 20..21) is the mean of the
# stored 587, 587, 616, 616 (round(100 * (x + 300 y) / 1024)): 601.5 -> 602.
assert_eq "COG overview of a scaled band" "$(gdallocationinfo -valonly -b 1 -overview 1 "$T/mc1.tif" 10 20)" 602
assert_eq "COG overview of codes: nearest" "$(gdallocationinfo -valonly -b 3 -overview 1 "$T/mc1.tif" 10 20)" \
    "$(gdallocationinfo -valonly -b 3 "$T/mc1.tif" 10 20)"
expect_err 2 "none is named height" "--zrange without a height band" run_prog tgeotiff --zrange 0,1 -b flow,dir "$T/x.tif" <"$T/m.tp"

# --- a geographic CRS whose extent cannot be degrees: a warning ---
echo "1 2 3 4 5 6 7 8" | mkstream 2 4 height "CELLSIZE 30" "CRS EPSG:4326" >"$T/geo.tp"
ok "geographic CRS, 30-unit cells" run_prog tgeotiff "$T/geo.tif" <"$T/geo.tp"
assert_eq "geographic extent warning" "$(cat "$T/.err")" \
    "tgeotiff: warning: a geographic CRS EPSG:4326 in degrees, but the grid spans x 0..60, y 0..120, outside longitudes -180..360 and latitudes -90..90 (a cell size in metres needs a projected CRS, e.g. a UTM zone)"
# Without -b: the height band, or a stream's only band whatever its name;
# two bands and neither named height is an error naming height.
run_prog tnoise -q -s 6x4 -S 2 | run_prog tband -r height=slope > "$T/one.tp"
run_prog tgeotiff -q "$T/one.tp" "$T/one.tif"
assert_eq "the only band, unnamed" "$(py '
from osgeo import gdal
d = gdal.Open(sys.argv[1]); b = d.GetRasterBand(1)
print(d.RasterCount, b.GetDescription(), bool((b.ReadAsArray() == band(sys.argv[2], "slope")).all()))' \
    "$T/one.tif" "$T/one.tp")" "1 slope True"
run_prog tnoise -q -s 6x4 -S 2 | run_prog tnoise -q -b moisture | run_prog tband -r height=slope > "$T/two.tp"
expect_err 1 "tgeotiff: the input has no band 'height'" "two bands, no height" \
    run_prog tgeotiff "$T/two.tp" "$T/two.tif"
finish
