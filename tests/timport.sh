#!/bin/bash
# timport: GeoTIFFs (from GDAL and the real DEM), raw float32, PNG and PGM
# heightmaps into streams, checked against what GDAL reports.
. "$(dirname "$0")/common.sh"
DEM=$DATA/jacksboro_fault_dem.tif

# gt FILE EXPR: a Python expression on gdalinfo -json -stats FILE (as d, b).
gt() {
	gdalinfo -json -stats "$1" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
b = d["bands"][0]
print(eval(sys.argv[1]))' "$2"
}

# stats STREAM: min max mean stddev nodata-count of the samples (numpy).
stats() {
	py '
a = floats(sys.argv[1]).astype(np.float64)
v = a[~np.isnan(a)]
print("%.17g %.17g %.17g %.17g %d" % (v.min(), v.max(), v.mean(), v.std(), np.isnan(a).sum()))' "$1"
}

# --- the real DEM: geometry and statistics as gdalinfo -stats says ---
ok "the real DEM" run_prog timport "$DEM"
cp "$T/.out" "$T/j.tp"
assert_eq "size" "$(header "$T/j.tp" WIDTH)x$(header "$T/j.tp" HEIGHT)" 403x344
assert_eq "CRS" "$(header "$T/j.tp" CRS)" EPSG:4326
assert_eq "bands" "$(header "$T/j.tp" BANDS)" height
assert_eq "history" "$(header "$T/j.tp" HISTORY)" "timport $DEM"
read -r ox oy <<<"$(header "$T/j.tp" ORIGIN)"
cs=$(header "$T/j.tp" CELLSIZE)
# gdalinfo -json rounds to 16 decimals: ask GDAL's Python API for the exact
# geotransform and compare every double.
assert_eq "geometry is GDAL's geotransform, exactly" "$("$PY" -c "
from osgeo import gdal
print(gdal.Open('$DEM').GetGeoTransform() == ($ox, $cs, 0.0, $oy, 0.0, -$cs))")" True
assert_near "west edge" "$ox" -84.41375 1e-12
assert_near "north edge" "$oy" 36.73291666666667 1e-12
assert_near "3 arc-seconds" "$cs" 0.000833333333333333 1e-15
read -r mn mx mean sd nn <<<"$(stats "$T/j.tp")"
assert_eq "minimum" "$mn" 236
assert_eq "maximum" "$mx" 1076
assert_eq "GDAL minimum" "$(gt "$DEM" 'b["minimum"]')" 236.0
assert_eq "GDAL maximum" "$(gt "$DEM" 'b["maximum"]')" 1076.0
assert_near "mean as GDAL" "$mean" "$(gt "$DEM" 'b["metadata"][""]["STATISTICS_MEAN"]')" 1e-9
assert_near "stddev as GDAL" "$sd" "$(gt "$DEM" 'b["metadata"][""]["STATISTICS_STDDEV"]')" 1e-9
assert_near "mean by hand" "$mean" 531.0311688499 1e-9
assert_eq "no nodata" "$nn" 0
# The same numbers from tinfo, down the pipe.
assert_eq "tinfo agrees" "$(run_prog timport "$DEM" | run_prog tinfo --json | "$PY" -c '
import json, sys
b = json.load(sys.stdin)["bands"][0]
print(b["min"], b["max"], round(b["mean"], 9), round(b["stddev"], 9), b["nodata"])')" \
    "236 1076 $("$PY" -c "print(round($mean, 9), round($sd, 9))") 0"
# gdallocationinfo and the stream agree at a cell: (col 200, row 100).
assert_eq "a cell as GDAL reads it" "$(values "$T/j.tp" | sed -n "$((100 * 403 + 200 + 1))p")" \
    "$(gdallocationinfo -valonly "$DEM" 200 100)"

# --- GDAL-written variants of it come back with the same values ---
values "$T/j.tp" >"$T/jv"
variant() {	# NAME GDAL_TRANSLATE_OPTIONS...
	name=$1; shift
	gdal_translate -q "$@" "$DEM" "$T/$name.tif"
	ok "$name" run_prog timport "$T/$name.tif"
	values "$T/.out" >"$T/$name.v"
	assert_same "$name values" "$T/jv" "$T/$name.v"
	assert_eq "$name geometry" "$(header "$T/.out" ORIGIN) $(header "$T/.out" CELLSIZE) $(header "$T/.out" CRS)" \
	    "$ox $oy $cs EPSG:4326"
}
variant int16_strips -ot Int16 -co TILED=NO -co COMPRESS=LZW
variant int16_tiles -ot Int16 -co TILED=YES -co BLOCKXSIZE=128 -co BLOCKYSIZE=64
variant float32_tiles -ot Float32 -co TILED=YES -co COMPRESS=DEFLATE -co PREDICTOR=3
variant float32_strips -ot Float32 -co COMPRESS=ZSTD
variant uint16 -ot UInt16 -co COMPRESS=PACKBITS
variant int32_bigtiff -ot Int32 -co BIGTIFF=YES -co TILED=YES
variant float64 -ot Float64 -co TILED=YES -co BLOCKXSIZE=32 -co BLOCKYSIZE=32
variant pixel_is_point -ot Int16 -mo AREA_OR_POINT=Point
assert_eq "GDAL wrote PixelIsPoint" "$(gt "$T/pixel_is_point.tif" 'd["metadata"][""]["AREA_OR_POINT"]')" Point

# Nodata: cells equal to GDAL_NODATA become NaN.
gdal_translate -q -a_nodata 236 "$DEM" "$T/nd.tif"
ok "nodata" run_prog timport "$T/nd.tif"
read -r mn mx mean sd nn <<<"$(stats "$T/.out")"
assert_eq "nodata cells are NaN" "$nn" "$(grep -cx 236 "$T/jv")"
assert_eq "the rest stays" "$mn $mx" "$(grep -vx 236 "$T/jv" | sort -n | head -n 1) 1076"

# A band of a multi-band file.
gdal_translate -q -b 1 -b 1 -ot Float32 -co INTERLEAVE=PIXEL "$DEM" "$T/two.tif"
ok "-b 2" run_prog timport -b 2 "$T/two.tif"
values "$T/.out" >"$T/two.v"
assert_same "-b 2 values" "$T/jv" "$T/two.v"
expect_err 1 "band 3" "-b past the last band" run_prog timport -b 3 "$T/two.tif"

# --- refused with a clear message ---
"$PY" - "$T" <<'PYEOF'
import sys
from osgeo import gdal
t = sys.argv[1]
for name, g in (("rot", [500000, 30, 5, 4649776, 5, -30]),
                ("nonsq", [500000, 30, 0, 4649776, 0, -20])):
    ds = gdal.GetDriverByName("GTiff").Create(t + "/" + name + ".tif", 8, 6, 1, gdal.GDT_Int16)
    ds.SetGeoTransform(g)
    ds = None
PYEOF
"$PY" - "$T" <<'PYEOF'
import sys
from osgeo import gdal
ds = gdal.GetDriverByName("GTiff").Create(sys.argv[1] + "/vast.tif", 20, 20, 1, gdal.GDT_Int16)
ds.SetGeoTransform([0, 1e307, 0, 1e307, 0, -1e307])
ds = None
PYEOF
expect_err 1 "reach past the largest number" "an extent beyond the largest double" \
    run_prog timport "$T/vast.tif"
expect_err 1 "rotated" "rotated raster" run_prog timport "$T/rot.tif"
expect_err 1 "not square" "non-square pixels" run_prog timport "$T/nonsq.tif"
head -c 3000 "$DEM" >"$T/cut.tif"
expect_exit 1 "truncated GeoTIFF" run_prog timport "$T/cut.tif"
printf 'II*\0garbage garbage garbage' >"$T/garbage.tif"
expect_exit 1 "garbage behind a TIFF magic" run_prog timport "$T/garbage.tif"
printf 'hello, world\n' >"$T/text"
expect_err 1 "not a GeoTIFF, SRTM .hgt, ESRI ASCII grid, PNG or PGM: convert it with gdal_translate -of GTiff FILE out.tif" \
    "unknown format names the converting command" run_prog timport "$T/text"
expect_err 1 "no/such" "missing file" run_prog timport "$T/no/such.tif"

# --- raw float32 ---
"$PY" -c 'import struct, sys; sys.stdout.buffer.write(struct.pack("<6f", 1, 2.5, -3, 4, 5, float("nan")))' >"$T/r.f32"
ok "--raw" run_prog timport --raw --size 3x2 --cellsize 10 --origin 100,200 --crs EPSG:32633 "$T/r.f32"
cp "$T/.out" "$T/r.tp"
assert_eq "raw values" "$(values "$T/r.tp" | tr '\n' ' ')" "1 2.5 -3 4 5 nan "
assert_eq "raw geometry" "$(header "$T/r.tp" CELLSIZE) $(header "$T/r.tp" ORIGIN) $(header "$T/r.tp" CRS)" \
    "10 100 200 EPSG:32633"
ok "--raw, defaults" run_prog timport --raw --size 2x3 "$T/r.f32"
assert_eq "raw default origin" "$(header "$T/.out" CELLSIZE) $(header "$T/.out" ORIGIN)" "1 0 3"
ok "--cellsize moves the default origin" run_prog timport --raw --size 2x3 --cellsize 5 "$T/r.f32"
assert_eq "origin 0,H*C" "$(header "$T/.out" ORIGIN)" "0 15"
ok "--raw from stdin" run_prog timport --raw --size 3x2 - <"$T/r.f32"
assert_eq "stdin values" "$(values "$T/.out" | tr '\n' ' ')" "1 2.5 -3 4 5 nan "
expect_err 1 "needs 32 bytes, the input has 24" "raw size mismatch" \
    run_prog timport --raw --size 4x2 "$T/r.f32"
# Longer input: the raster's bytes are read, the rest is ignored with a
# warning, as GDAL's raw drivers read what they need.
expect_err 0 "goes on past the 2x2 float32 samples (16 bytes)" "raw too long on stdin" \
    run_prog timport --raw --size 2x2 - <"$T/r.f32"
assert_eq "the first 2x2 of a longer file" "$(values "$T/.out" | tr '\n' ' ')" "1 2.5 -3 4 "
expect_err 0 "the rest is ignored" "raw too long in a pipe" \
    run_prog timport --raw --size 2x2 - < <(cat "$T/r.f32")
assert_eq "the first 2x2 of a pipe" "$(values "$T/.out" | tr '\n' ' ')" "1 2.5 -3 4 "
# An endless device: exactly 4x4 samples, at once (a timeout, not a
# timing: before, this read until memory ran out).
expect_err 0 "goes on past" "--raw from /dev/zero" \
    timeout 20 $MEMCHECK timport --raw --size 4x4 /dev/zero
assert_eq "/dev/zero gives 4x4" "$(header "$T/.out" WIDTH)x$(header "$T/.out" HEIGHT) $(values "$T/.out" | sort -u)" "4x4 0"
assert_eq "/dev/zero body is 64 bytes" "$(body "$T/.out" | wc -c)" 64
expect_err 1 "4x4 float32 needs 64 bytes, the input has 0" "raw from an empty device" \
    run_prog timport --raw --size 4x4 /dev/null
expect_err 1 "needs 32 bytes, the input has 24" "raw too short in a pipe" \
    run_prog timport --raw --size 4x2 - < <(cat "$T/r.f32")
expect_err 1 "empty input" "empty pipe" run_prog timport - </dev/null

# --- PNG and PGM heightmaps ---
"$PY" - "$T" <<'PYEOF'
import sys, numpy as np
from osgeo import gdal
t = sys.argv[1]
for name, typ, v in (("h16", gdal.GDT_UInt16, [0, 1, 32768, 65535]),
                     ("h8", gdal.GDT_Byte, [0, 51, 128, 255])):
    m = gdal.GetDriverByName("MEM").Create("", 2, 2, 1, typ)
    m.GetRasterBand(1).WriteArray(np.array(v).reshape(2, 2))
    gdal.GetDriverByName("PNG").CreateCopy(t + "/" + name + ".png", m)
PYEOF
ok "16-bit PNG" run_prog timport "$T/h16.png"
assert_eq "PNG divided by 65535" "$(values "$T/.out" | tr '\n' ' ')" \
    "0 1.52590219e-05 0.500007629 1 "
ok "PNG --zrange" run_prog timport --zrange 100,65635 "$T/h16.png"
assert_eq "PNG in metres" "$(values "$T/.out" | tr '\n' ' ')" "100 101 32868 65635 "
ok "8-bit PNG" run_prog timport "$T/h8.png"
assert_eq "PNG divided by 255" "$(values "$T/.out" | tr '\n' ' ')" "0 0.200000003 0.501960814 1 "
printf 'P5\n# GIMP\n3 1\n1000\n\000\000\001\364\003\350' >"$T/h.pgm"
ok "PGM" run_prog timport --zrange 0,2000 "$T/h.pgm"
assert_eq "PGM values by maxval" "$(values "$T/.out" | tr '\n' ' ')" "0 1000 2000 "
ok "PGM through a pipe" run_prog timport - < <(cat "$T/h.pgm")
cp "$T/.out" "$T/p.tp"
assert_eq "PGM from stdin" "$(values "$T/p.tp" | tr '\n' ' ')" "0 0.5 1 "
head -c 20 "$T/h.pgm" >"$T/cut.pgm"
expect_err 1 "truncated" "truncated PGM" run_prog timport "$T/cut.pgm"
head -c 60 "$T/h16.png" >"$T/cut.png"
expect_err 1 "PNG" "truncated PNG" run_prog timport "$T/cut.png"
"$PY" -c '
import struct, sys, zlib
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
ihdr = struct.pack(">IIBBBBB", 100000, 100000, 16, 0, 0, 0, 0)
sys.stdout.buffer.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) +
    chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + chunk(b"IEND", b""))' >"$T/huge.png"
expect_err 1 "100000x100000 pixels cannot fit in" "PNG claiming 20 GB" run_prog timport "$T/huge.png"

# --- misuse ---
expect_exit 2 "no file" run_prog timport
expect_exit 2 "two files" run_prog timport "$DEM" "$DEM"
expect_exit 2 "--raw without --size" run_prog timport --raw "$T/r.f32"
expect_exit 2 "--size without --raw" run_prog timport --size 3x2 "$T/r.f32"
expect_exit 2 "bad --size" run_prog timport --raw --size 3x "$T/r.f32"
expect_exit 2 "--zrange on a GeoTIFF" run_prog timport --zrange 0,1 "$DEM"
expect_exit 2 "-b on a PNG" run_prog timport -b 1 "$T/h8.png"
expect_exit 2 "bad --cellsize" run_prog timport --cellsize -1 "$DEM"
expect_exit 2 "unknown option" run_prog timport --frobnicate "$DEM"
expect_err 2 "printable ASCII" "--crs with a carriage return" \
    run_prog timport --crs $'EPSG:1\r' "$DEM"
expect_err 2 "printable ASCII" "--crs with a tab" run_prog timport --crs $'EPSG:1\t' "$DEM"
expect_err 2 "space" "--crs with a trailing space" run_prog timport --crs 'EPSG:1 ' "$DEM"
expect_err 2 "PROJ does not know the CRS EPSG:99999" "--crs with an unknown EPSG code" \
    run_prog timport --crs EPSG:99999 "$DEM"
# The test DEM's cells are degrees (0.000833...): a CRS in metres given
# for them is surely a mistake, and timport says so (and still imports).
run_prog timport --crs EPSG:32617 "$DEM" > "$T/o" 2> "$T/err"
grep -q "warning: cells of 0.000833333333 in EPSG:32617, a CRS in metres.*are the cells degrees" "$T/err" &&
    pass || fail "degrees under a metre CRS: $(cat "$T/err")"
run_prog timport --crs EPSG:4326 "$DEM" > "$T/o" 2> "$T/err"
assert_eq "degrees under EPSG:4326: no warning" "$(cat "$T/err")" ""
ok "--crs with inner spaces" run_prog timport --crs '+proj=utm +zone=33' "$DEM"
assert_eq "--crs kept" "$(header "$T/.out" CRS)" "+proj=utm +zone=33"
# Every --crs is checked against PROJ: AUTHORITY:CODE, WKT, PROJ strings;
# a bare name is refused (PROJ would match "nan" to Tananarive).
ok "--crs ESRI:102003" run_prog timport --crs ESRI:102003 "$DEM"
for c in nan , abc 'WGS 84' '+proj=nothing'; do
	expect_err 2 "^timport: --crs: .*\(is no CRS\|PROJ makes no CRS\)" "--crs '$c'" \
	    run_prog timport --crs "$c" "$DEM"
done
expect_exit 2 "-b with --raw" run_prog timport -b 1 --raw --size 3x2 "$T/r.f32"
ok "--help" run_prog timport --help

# --- pipelines: GeoTIFF from stdin; the DEM out again through tgeotiff ---
ok "GeoTIFF on stdin" run_prog timport - <"$DEM"
cp "$T/.out" "$T/s.tp"
values "$T/s.tp" >"$T/sv"
assert_same "stdin GeoTIFF values" "$T/jv" "$T/sv"
ok "timport | tgeotiff" run_prog tgeotiff "$T/o.tif" < <(run_prog timport "$T/int16_tiles.tif")
assert_eq "GDAL reads the same cell" "$(gdallocationinfo -valonly -geoloc "$T/o.tif" -84.3 36.65)" \
    "$(gdallocationinfo -valonly -geoloc "$DEM" -84.3 36.65)"
assert_eq "same geotransform" "$(gt "$T/o.tif" 'd["geoTransform"]')" "$(gt "$DEM" 'd["geoTransform"]')"

# --- devices, pipes and directories given as paths ---
expect_err 1 "is a directory" "a directory" run_prog timport "$T"
expect_err 1 "is a directory" "a directory, --raw" run_prog timport --raw --size 2x2 "$T"
expect_err 1 "not a GeoTIFF, SRTM .hgt, ESRI ASCII grid, PNG or PGM" "/dev/zero without --raw is refused at once" \
    timeout 20 $MEMCHECK timport /dev/zero
# The FIFO's writers time out, so a timport that never opens it fails the
# test instead of hanging it.
mkfifo "$T/fifo"
timeout 20 cat "$DEM" >"$T/fifo" &
ok "a GeoTIFF from a FIFO" run_prog timport "$T/fifo"
wait
values "$T/.out" >"$T/fifo.v"
assert_same "FIFO values" "$T/jv" "$T/fifo.v"
timeout 20 cat "$T/h.pgm" >"$T/fifo" &
ok "a PGM from a FIFO" run_prog timport "$T/fifo"
wait
assert_eq "FIFO PGM" "$(values "$T/.out" | tr '\n' ' ')" "0 0.5 1 "
# Input that is not a regular file is held in memory up to TP_PIPE_MAX.
timeout 20 cat "$DEM" >"$T/fifo" 2>/dev/null &
expect_err 1 "more than 100000 bytes from a pipe" "a FIFO over TP_PIPE_MAX" \
    env TP_PIPE_MAX=100000 $MEMCHECK timport "$T/fifo"
wait
expect_err 1 "more than 100000 bytes" "stdin pipe over TP_PIPE_MAX" \
    env TP_PIPE_MAX=100000 $MEMCHECK timport - < <(cat "$DEM")
ok "a regular file on stdin has no cap" env TP_PIPE_MAX=100000 $MEMCHECK timport - <"$DEM"
expect_exit 1 "bad TP_PIPE_MAX" env TP_PIPE_MAX=lots $MEMCHECK timport - < <(cat "$DEM")

# --- a user-defined projected CRS is carried exactly, not as its datum ---
AEA='+proj=aea +lat_0=23 +lon_0=-96 +lat_1=29.5 +lat_2=45.5 +datum=NAD83 +units=m'
gdal_translate -q -a_srs "$AEA" -a_ullr 500000 5400000 504000 5396000 -srcwin 0 0 40 40 \
    "$DEM" "$T/aea.tif"
ok "Albers on NAD83" run_prog timport "$T/aea.tif"
cp "$T/.out" "$T/aea.tp"
assert_eq "no CRS line (was EPSG:4269)" "$(header "$T/aea.tp" CRS)" ""
assert_eq "geometry" "$(header "$T/aea.tp" ORIGIN) $(header "$T/aea.tp" CELLSIZE)" "500000 5400000 100"
keys=$(header "$T/aea.tp" GEOKEYS)
case $keys in
*" 1024=s:1 "*"3075=s:11 "*"3078=d:29.5 3079=d:45.5 3080=d:-96 3081=d:23"*) pass ;;
*) fail "GEOKEYS: projected, Albers, its parameters: '$keys'" ;;
esac
case $keys in *1025=*) fail "GEOKEYS carries the raster type" ;; *) pass ;; esac
ok "tinfo reads it" run_prog tinfo <"$T/aea.tp"
# tflow -a: the cells are 100 m squares, 1e4 m2 each (as degrees: 2.2e9).
ok "tflow -a on the Albers grid" run_prog tflow -a <"$T/aea.tp"
assert_eq "smallest flow is one 100 m cell" "$(py '
print("%.9g" % np.nanmin(band(sys.argv[1], "flow")))' "$T/.out")" 10000
ok "--crs replaces the carried keys" run_prog timport --crs EPSG:5070 "$T/aea.tif"
assert_eq "--crs: CRS and no GEOKEYS" "$(header "$T/.out" CRS)/$(header "$T/.out" GEOKEYS)" "EPSG:5070/"
# A projected CRS with an EPSG code stays a CRS line.
gdal_translate -q -a_srs EPSG:32614 -a_ullr 500000 5400000 504000 5396000 -srcwin 0 0 40 40 \
    "$DEM" "$T/utm.tif"
ok "UTM" run_prog timport "$T/utm.tif"
assert_eq "UTM: CRS, no GEOKEYS" "$(header "$T/.out" CRS)/$(header "$T/.out" GEOKEYS)" "EPSG:32614/"

# --- GDAL HISTORY items the stream header cannot hold are left out ---
"$PY" - "$T" "$DEM" <<'PYEOF'
import sys
from osgeo import gdal
t, dem = sys.argv[1:3]
src = gdal.Open(dem)
ds = gdal.GetDriverByName("GTiff").CreateCopy(t + "/hist.tif", src)
ds.SetMetadataItem("HISTORY_1", "tnoise --seed 1")
ds.SetMetadataItem("HISTORY_2", "evil\rline")
ds.SetMetadataItem("HISTORY_3", "x" * 70000)
ds.SetMetadataItem("HISTORY_4", "tfill")
ds = None
# over 16 MiB in all: 300 items of 60,000 bytes
ds = gdal.GetDriverByName("GTiff").CreateCopy(t + "/big.tif", src)
for i in range(300):
    ds.SetMetadataItem("HISTORY_%d" % (i + 1), chr(97 + i % 26) * 60000)
ds = None
PYEOF
expect_err 0 "2 HISTORY items left out" "HISTORY with CR and over 65,535 bytes" \
    run_prog timport "$T/hist.tif"
cp "$T/.out" "$T/hist.tp"
assert_eq "kept HISTORY" "$(header_lines "$T/hist.tp" | sed -n 's/^HISTORY //p' | cut -c 1-60 | tr '\n' '|')" \
    "tnoise --seed 1|tfill|timport $T/hist.tif|"
ok "tinfo reads the stream back" run_prog tinfo <"$T/hist.tp"
expect_err 0 "HISTORY items left out" "HISTORY over 16 MiB in all" run_prog timport "$T/big.tif"
cp "$T/.out" "$T/big.tp"
ok "tinfo reads the big-history stream" run_prog tinfo <"$T/big.tp"
assert_eq "history kept within 8 MiB" "$(header_lines "$T/big.tp" | grep -c '^HISTORY ')" \
    "$(( (8 * 1048576) / 60000 + 1 ))"

# --- a palette image: its indices are imported, with a warning ---
"$PY" - "$T" <<'PYEOF'
import sys, numpy as np
from osgeo import gdal
m = gdal.GetDriverByName("GTiff").Create(sys.argv[1] + "/pal.tif", 2, 2, 1, gdal.GDT_Byte)
m.GetRasterBand(1).WriteArray(np.array([[0, 1], [2, 3]]))
ct = gdal.ColorTable()
for i in range(4):
    ct.SetColorEntry(i, (i * 60, 0, 0, 255))
m.GetRasterBand(1).SetRasterColorTable(ct)
m = None
PYEOF
expect_err 0 "palette image: its colour indices are imported as heights" "palette TIFF" \
    run_prog timport "$T/pal.tif"
assert_eq "palette indices" "$(values "$T/.out" | tr '\n' ' ')" "0 1 2 3 "

# --- files the fuzzers made: each is refused at once or reads back ---
F=$ROOT/tests/fuzz/corpus
# 218 bytes whose text chunk declares 1.6 GB: refused before allocating it
# (under a memory limit the old reader died with a libpng chunk error).
( ulimit -v "$(vm_limit 600000)"; exec $MEMCHECK timport "$F/import/regress-png-text-chunk.png" ) \
    >"$T/png.out" 2>"$T/png.err"
assert_eq "PNG with a 1.6 GB text chunk: exit" $? 1
assert_eq "PNG with a 1.6 GB text chunk: why" "$(cat "$T/png.err")" \
    "timport: $F/import/regress-png-text-chunk.png: PNG: tEXt: chunk data is too large"
# Subnormal cell size and origin, a HISTORY item with a carriage return:
# the stream timport writes reads back in the next stage.
for f in geotiff/regress-subnormal-cellsize.tif import/regress-subnormal-origin.tif \
    geotiff/regress-history-cr.tif; do
	ok "$f reads back" bash -c "$MEMCHECK timport '$F/$f' 2>/dev/null | $MEMCHECK tinfo -q"
done
# --- any GDAL raster on stdin, through /vsistdout/ ---
gdalbuildvrt -q "$T/in.vrt" "$DEM"
gdal_translate -q -of GTiff "$T/in.vrt" /vsistdout/ >"$T/vsi.tif"
ok "gdal_translate -of GTiff in.vrt /vsistdout/ | timport -" \
    bash -c "gdal_translate -q -of GTiff '$T/in.vrt' /vsistdout/ | $MEMCHECK timport -"
cp "$T/.out" "$T/vsi.tp"
assert_same "a VRT through /vsistdout/: the DEM's values" <(values "$T/vsi.tp") "$T/jv"

# cmp_gdal STREAM RASTER: "True True" when the stream's geometry is GDAL's
# geotransform (to 1e-12 of a cell) and every sample is GDAL's (nodata NaN).
cmp_gdal() {
	py - "$1" "$2" <<'PYEOF'
from osgeo import gdal
h, body = split(open(sys.argv[1], "rb").read())
hd = dict(l.split(" ", 1) for l in h.decode().splitlines()[1:-1])
w, ht = int(hd["WIDTH"]), int(hd["HEIGHT"])
cs = float(hd["CELLSIZE"]); ox, oy = map(float, hd["ORIGIN"].split())
ds = gdal.Open(sys.argv[2]); b = ds.GetRasterBand(1)
g = ds.GetGeoTransform()
a = b.ReadAsArray().astype(np.float64)
nd = b.GetNoDataValue()
if nd is not None:
    a[a == nd] = np.nan
s = np.frombuffer(body, "<f4").astype(np.float64).reshape(ht, w)
geo = (abs(g[0] - ox) <= 1e-12 * cs and abs(g[3] - oy) <= 1e-12 * cs and
       abs(g[1] - cs) <= 1e-15 * cs and abs(-g[5] - cs) <= 1e-15 * cs)
print(geo, a.shape == s.shape and bool(np.array_equal(a, s, equal_nan=True)))
PYEOF
}

# --- SRTM .hgt: 3 and 1 arc-second tiles made by GDAL from the DEM ---
# The DEM lies in the 1-degree tile whose south-west corner is 36 N, 85 W;
# .hgt edge samples sit on whole degrees, so the tile reaches half a cell
# past them.
for side in 1201 3601; do
	h=$("$PY" -c "print(0.5 / ($side - 1))")
	gdalwarp -q -t_srs EPSG:4326 -te "$("$PY" -c "print(-85 - $h)")" "$("$PY" -c "print(36 - $h)")" \
	    "$("$PY" -c "print(-84 + $h)")" "$("$PY" -c "print(37 + $h)")" -ts $side $side \
	    -r bilinear -ot Int16 -dstnodata -32768 "$DEM" "$T/w$side.tif"
	mkdir -p "$T/$side"
	gdal_translate -q -of SRTMHGT "$T/w$side.tif" "$T/$side/N36W085.hgt"
	ok "SRTM $side x $side" run_prog timport "$T/$side/N36W085.hgt"
	cp "$T/.out" "$T/hgt$side.tp"
	assert_eq "$side: geometry and every cell as GDAL reads the .hgt" \
	    "$(cmp_gdal "$T/hgt$side.tp" "$T/$side/N36W085.hgt")" "True True"
	assert_eq "$side: CRS and unit" "$(header "$T/hgt$side.tp" CRS) $(header "$T/hgt$side.tp" UNITS)" "EPSG:4326 m"
done
assert_eq "1201: voids are NaN" "$(values "$T/hgt1201.tp" | head -1)" nan
assert_near "1201: 3 arc-seconds" "$(header "$T/hgt1201.tp" CELLSIZE)" 0.000833333333333333 1e-15
# The tile's value at a point of the DEM, as gdallocationinfo reads it.
assert_eq "hgt at a point" "$(run_prog tgeotiff "$T/hgt.tif" <"$T/hgt1201.tp"; gdallocationinfo -valonly -geoloc "$T/hgt.tif" -84.3 36.65)" \
    "$(gdallocationinfo -valonly -geoloc "$T/1201/N36W085.hgt" -84.3 36.65)"
cp "$T/1201/N36W085.hgt" "$T/s01e012.HGT"
ok "south-east name, any case" run_prog timport "$T/s01e012.HGT"
assert_eq "corner from the name" "$(header "$T/.out" ORIGIN)" \
    "$("$PY" -c "print(repr(12 - 1/1200/2), repr(-1 + 1 + 1/1200/2))")"
cp "$T/1201/N36W085.hgt" "$T/dem.hgt"
expect_err 1 "named for its south-west corner, like N35W107.hgt: rename it, or convert other rasters with gdal_translate -of GTiff FILE out.tif" \
    "a .hgt without its corner in the name" run_prog timport "$T/dem.hgt"
head -c 1000 "$T/1201/N36W085.hgt" >"$T/N10E010.hgt"
expect_err 1 "has 2884802 bytes (1201x1201, 3 arc-second) or 25934402 (3601x3601, 1 arc-second), this one 1000; convert other rasters with gdal_translate" \
    "a .hgt of the wrong size" run_prog timport "$T/N10E010.hgt"
expect_exit 2 "-b on a .hgt" run_prog timport -b 1 "$T/1201/N36W085.hgt"

# --- ESRI ASCII grids: GDAL's AAIGrid, corner and centre forms ---
gdal_translate -q -of AAIGrid -srcwin 50 40 120 90 "$DEM" "$T/dem.asc"
ok "ASCII grid" run_prog timport "$T/dem.asc"
cp "$T/.out" "$T/asc.tp"
assert_eq "asc: geometry and every cell as GDAL reads it" "$(cmp_gdal "$T/asc.tp" "$T/dem.asc")" "True True"
gdal_translate -q -of AAIGrid -ot Float32 -a_nodata -9999 -a_srs EPSG:32633 -a_ullr 500000 4650000 501200 4649100 \
    -srcwin 50 40 120 90 -scale 236 1076 0.5 1.75 "$DEM" "$T/f.asc"
printf 'ncols 3\nnrows 2\nxllcenter 100\nyllcenter 200\ncellsize 10\nNODATA_value -9999\n1 2.5 -9999\n-4e2 5 6\n' >"$T/c.asc"
for f in f c; do
	ok "ASCII grid $f" run_prog timport "$T/$f.asc"
	cp "$T/.out" "$T/$f.tp"
	assert_eq "asc $f: as GDAL reads it" "$(cmp_gdal "$T/$f.tp" "$T/$f.asc")" "True True"
done
assert_eq "xllcenter: the corner half a cell out" "$(header "$T/c.tp" ORIGIN)" "95 215"
assert_eq "asc values, nodata NaN" "$(values "$T/c.tp" | tr '\n' ' ')" "1 2.5 nan -400 5 6 "
ok "ASCII grid on stdin" run_prog timport - <"$T/c.asc"
assert_eq "stdin asc values" "$(values "$T/.out" | tr '\n' ' ')" "1 2.5 nan -400 5 6 "
printf 'ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2 3\n4 5\n' >"$T/short.asc"
expect_err 1 "the samples end after 5 of 3x2 (row 1)" "asc too short" run_prog timport "$T/short.asc"
printf 'ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2 3\n4 5 x\n' >"$T/bad.asc"
expect_err 1 "row 1, column 2: 'x' is not a number" "asc with a word" run_prog timport "$T/bad.asc"
printf 'ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ndx 1\ndy 2\n1 2 3\n4 5 6\n' >"$T/dxdy.asc"
expect_err 1 "dx 1 and dy 2 differ: cells that are not square; make them square with gdal_translate -tr 1 1 FILE out.tif" \
    "asc with non-square cells" run_prog timport "$T/dxdy.asc"
printf 'ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\nfoo 3\n1 2 3\n4 5 6\n' >"$T/key.asc"
expect_err 1 "unknown header key 'foo'; convert it with gdal_translate -of GTiff FILE out.tif" \
    "asc with an unknown key" run_prog timport "$T/key.asc"
printf 'ncols 100000\nnrows 100000\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2 3\n' >"$T/huge.asc"
expect_err 1 "cannot fit in the" "asc whose header declares more than the file" run_prog timport "$T/huge.asc"

# --- scale, offset and unit type come back from tgeotiff ---
run_prog timport "$DEM" | sed '0,/^ENDHDR$/s/^ENDHDR$/UNITS m\nENDHDR/' >"$T/u.tp"
run_prog tgeotiff -q -t UInt16 --scale 0.05 --offset 100 "$T/u.tif" <"$T/u.tp"
ok "a scaled UInt16 GeoTIFF" run_prog timport "$T/u.tif"
cp "$T/.out" "$T/u2.tp"
assert_eq "UNITS from the unit type" "$(header "$T/u2.tp" UNITS)" m
assert_eq "heights back within half a step (0.025 m)" "$(py '
a = floats(sys.argv[1]).astype(float); b = floats(sys.argv[2]).astype(float)
print(float(np.abs(a - b).max()) <= 0.025 + 1e-4)' "$T/u.tp" "$T/u2.tp")" True
# --- a picture piped to a stage instead of timport says so ---
expect_exit 1 "a GeoTIFF into tinfo" run_prog tinfo <"$DEM"
assert_eq "GeoTIFF: use timport" "$(cat "$T/.err")" "tinfo: this is a GeoTIFF: use timport FILE"
expect_exit 1 "a PNG into tshape" run_prog tshape <"$T/h8.png"
assert_eq "PNG: use timport" "$(cat "$T/.err")" "tshape: this is a PNG: use timport FILE"
expect_err 1 "tgeotiff: this is a GeoTIFF: use timport FILE" "a GeoTIFF as tgeotiff's IN" \
    run_prog tgeotiff "$DEM" "$T/again.tif"
# A sample type terrapipe does not read names the conversion.
"$PY" -c "
from osgeo import gdal
gdal.GetDriverByName('GTiff').Create('$T/cplx.tif', 4, 4, 1, gdal.GDT_CInt16)"
expect_err 1 "unsupported samples: 32-bit complex or void; convert them with gdal_translate -ot Float32 IN OUT" \
    "complex samples" run_prog timport "$T/cplx.tif"
# A colour PNG names the command that takes one channel.
gdal_translate -q -of PNG -ot Byte -scale -b 1 -b 1 -b 1 "$DEM" "$T/rgb.png"
expect_err 1 "PNG: a heightmap must be grayscale (this one is in colour); take one channel with gdal_translate -b 1 -of GTiff FILE out.tif" \
    "colour PNG" run_prog timport "$T/rgb.png"
# --- texport's sidecar: the grid comes back from PNG, PGM, r16 and r32 ---
# The DEM (EPSG:4326, UNITS m) with a few NaN, through texport and back:
# the header the same but HISTORY, the heights within one 16-bit step
# (r32: equal), NaN as the range's bottom (with a warning)
py 'a = band(sys.argv[1], "height").astype("float32"); a[10:12, 20:23] = np.nan
write(a, "height", ["CELLSIZE " + header(sys.argv[1])["CELLSIZE"], "ORIGIN " + header(sys.argv[1])["ORIGIN"],
    "CRS EPSG:4326", "UNITS m"], sys.argv[2])' "$T/j.tp" "$T/jn.tp"
headless() { header_lines "$1" | grep -v '^HISTORY'; }
round_trip() {	# BACK: heights within a step of jn.tp's (r32: equal)
	py 'a, b = band(sys.argv[1], "height"), band(sys.argv[2], "height")
m = np.isfinite(a); lo, hi = np.nanmin(a), np.nanmax(a)
step = 0 if sys.argv[3] == "r32" else (hi - lo) / 65535
print(a.shape == b.shape, bool(np.abs(a[m] - b[m]).max() <= step), bool((b[~m] == lo).all()))' "$T/jn.tp" "$1" "$2"
}
for f in png16 pgm r16 r32; do
	run_prog texport -q -f $f "$T/rt.$f" < "$T/jn.tp"
	ok "$f back with its sidecar" run_prog timport "$T/rt.$f"
	cp "$T/.out" "$T/rt-$f.tp"
	assert_eq "$f: header" "$(headless "$T/rt-$f.tp")" "$(headless "$T/jn.tp")"
	assert_eq "$f: heights" "$(round_trip "$T/rt-$f.tp" $f)" "True True True"
	assert_eq "$f: NaN warned" "$(grep -c 'NaN cells were written' "$T/.err")" 1
done
# Unity's rows south first come back north first; a crop keeps the origin
run_prog texport -q -f r16 -e unity --crop "$T/u.r16" < "$T/jn.tp" 2> /dev/null
ok "unity r16 back" run_prog timport "$T/u.r16"
cp "$T/.out" "$T/u.tp"
assert_eq "unity r16: header" "$(headless "$T/u.tp")" "$(headless "$T/jn.tp" | sed 's/^WIDTH 403$/WIDTH 257/; s/^HEIGHT 344$/HEIGHT 257/')"
assert_eq "unity r16: heights" "$(py 'a, b = band(sys.argv[1], "height")[:257, :257], band(sys.argv[2], "height")
m = np.isfinite(a); lo, hi = np.nanmin(band(sys.argv[1], "height")), np.nanmax(band(sys.argv[1], "height"))
print(bool(np.abs(a[m] - b[m]).max() <= (hi - lo) / 65535))' "$T/jn.tp" "$T/u.tp")" "True"
# options still win: --zrange over the sidecar's range, --crs over its CRS
ok "sidecar and --zrange" run_prog timport --zrange 0,1 --crs EPSG:4269 "$T/rt.png16"
assert_eq "--zrange wins" "$(py 'b = band(sys.argv[1], "height"); print(float(b.min()) >= 0 and float(b.max()) <= 1)' "$T/.out")" "True"
assert_eq "--crs wins" "$(header "$T/.out" CRS)" "EPSG:4269"
ok "--no-sidecar" run_prog timport --no-sidecar "$T/rt.png16"
assert_eq "--no-sidecar: the defaults" "$(header "$T/.out" CELLSIZE) $(header "$T/.out" CRS)" "1 "
# a sidecar that is not JSON, or lacks what it must say, or disagrees
cp "$T/rt.png16" "$T/bad.png"
printf '{\n  "format": "png16",\n  "width": 403\n  "height": 344\n}\n' > "$T/bad.png.json"
expect_err 1 "timport: $T/bad.png.json: line 4: expected ',' or '}' after a member (give --no-sidecar to import without it)" \
    "malformed sidecar" run_prog timport "$T/bad.png"
printf '{"format": "png16", "width": 403, "height": 344}' > "$T/bad.png.json"
expect_err 1 "bad.png.json: no member \"cellsize\"" "sidecar lacks cellsize" run_prog timport "$T/bad.png"
sed 's/"width": 403/"width": 400/' "$T/rt.png16.json" > "$T/bad.png.json"
expect_err 1 "timport: $T/bad.png: 403x344, its sidecar says 400x344" "sidecar size" run_prog timport "$T/bad.png"
sed 's/"format": "png16"/"format": "pgm"/' "$T/rt.png16.json" > "$T/bad.png.json"
expect_err 1 "timport: $T/bad.png: a PNG, but its sidecar says format pgm" "sidecar format" run_prog timport "$T/bad.png"
cp "$T/rt.r16" "$T/short.r16"; sed 's/"height": 344/"height": 345/' "$T/rt.r16.json" > "$T/short.r16.json"
expect_err 1 "short.r16: 403x345 UInt16 needs 278070 bytes, the input has 277264" "r16 short" run_prog timport "$T/short.r16"
cp "$T/rt.r16" "$T/lone.r16"
expect_err 1 "texport's r16 and r32 need their .json" "r16 without a sidecar" run_prog timport "$T/lone.r16"
finish
