#!/bin/bash
# texport: heightmaps read back by timport and by Python's struct, engine
# sizes and row orders, the sidecar, splat maps, normal maps, errors.
. "$(dirname "$0")/common.sh"

# pyc SCRIPT ARGS...: plain Python with numpy, struct and json.
pyc() { s=$1; shift; "$PY" -c "import sys, json, struct, numpy as np
$s" "$@"; }

# 1. The real DEM (metres, EPSG:4326) with a hole; UNITS m as timport
# writes it for a GeoTIFF whose unit is metres.
run_prog timport "$DATA/jacksboro_fault_dem.tif" > "$T/dem0.tp"
py 'a = band(sys.argv[1], "height").astype("float32")
a[100:103, 200:204] = np.nan
h = header(sys.argv[1])
write(a, "height", ["CELLSIZE " + h["CELLSIZE"], "ORIGIN " + h["ORIGIN"],
    "CRS EPSG:4326", "UNITS m"], sys.argv[2])' "$T/dem0.tp" "$T/dem.tp"
read -r LO HI < <(py 'a = band(sys.argv[1], "height"); print("%.9g %.9g" % (np.nanmin(a), np.nanmax(a)))' "$T/dem.tp")

# within_step ORIG BACK LO HI: the finite cells of BACK within one
# quantisation step (HI - LO) / 65535 of ORIG, and NaN read back as LO.
within_step() {
	py 'a, b = band(sys.argv[1], "height"), band(sys.argv[2], "height")
lo, hi = float(sys.argv[3]), float(sys.argv[4])
m = np.isfinite(a)
print(bool(np.abs(a[m] - b[m]).max() <= (hi - lo) / 65535),
    bool((b[~m] == np.float32(lo)).all()))' "$@"
}

# png16 and pgm round trips through timport, the range found in the band
for f in png16 pgm; do
	ok "$f from a file" run_prog texport -f $f "$T/dem.$f" < "$T/dem.tp"
	assert_eq "$f says the range" "$(tail -n 1 "$T/.err")" \
	    "texport: height 0..65535 = $LO..$HI m"
	ok "$f back" run_prog timport --zrange "$LO,$HI" "$T/dem.$f"
	cp "$T/.out" "$T/back.tp"
	assert_eq "$f round trip" "$(within_step "$T/dem.tp" "$T/back.tp" "$LO" "$HI")" "True True"
done

# the same file from a pipe (the band held) and from a file (two passes)
cat "$T/dem.tp" | run_prog texport -q -f png16 "$T/pipe.png" 2> "$T/pipe.err"
assert_eq "pipe quiet" "$(cat "$T/pipe.err")" ""
assert_same "pipe = file" "$T/pipe.png" "$T/dem.png16"
# a file read from past its start: the second pass goes back there
{ printf 'JUNK\n'; cat "$T/dem.tp"; } > "$T/junk.tp"
{ head -c 5 > /dev/null; run_prog texport -q -f pgm "$T/off.pgm"; } < "$T/junk.tp"
assert_same "pgm from an offset" "$T/off.pgm" "$T/dem.pgm"
cat "$T/dem.tp" | run_prog texport -q -f pgm "$T/pipe.pgm"
assert_same "pgm pipe = file" "$T/pipe.pgm" "$T/dem.pgm"

# r16: little-endian levels, each floor((v - LO) 65535 / (HI - LO) + 0.5),
# NaN 0; read with struct
ok "r16" run_prog texport -f r16 --zrange 100,1100 "$T/dem.r16" < "$T/dem.tp"
assert_eq "r16 says the range" "$(tail -n 1 "$T/.err")" "texport: height 0..65535 = 100..1100 m"
r16_check() {
	py 'import struct
a = band(sys.argv[1], "height").astype(float); raw = open(sys.argv[2], "rb").read()
q = np.array(struct.unpack("<%dH" % (len(raw) // 2), raw)).reshape(a.shape)
want = np.clip(np.floor((a - 100) * (65535 / 1000.0) + 0.5), 0, 65535)
want[np.isnan(a)] = 0
print(len(raw) == a.size * 2, bool((q == want).all()))' "$@"
}
assert_eq "r16 struct" "$(r16_check "$T/dem.tp" "$T/dem.r16")" "True True"
# r32: the heights as they are, NaN as LO
ok "r32" run_prog texport -f r32 "$T/dem.r32" < "$T/dem.tp"
assert_eq "r32 says" "$(tail -n 1 "$T/.err")" "texport: heights $LO..$HI m as float32"
assert_eq "r32 struct" "$(py 'import struct
a = band(sys.argv[1], "height"); raw = open(sys.argv[2], "rb").read()
v = np.array(struct.unpack("<%df" % (len(raw) // 4), raw), "float32").reshape(a.shape)
m = np.isnan(a)
print(bool((v[~m] == a[~m]).all()), bool((v[m] == np.nanmin(a)).all()))' "$T/dem.tp" "$T/dem.r32")" "True True"

# the sidecar
assert_eq "sidecar" "$(pyc 'j = json.load(open(sys.argv[1]))
print(j["format"], j["width"], j["height"], j["crs"], j["units"], j["zrange"],
    j["byte_order"], j["first_row"], j["nodata_cells"], j["engine"],
    abs(j["cellsize"] - 1 / 1200.0) < 1e-15)' "$T/dem.r16.json")" \
    "r16 403 344 EPSG:4326 m [100.0, 1100.0] little-endian north True None True"

# a geographic grid: cells measured per axis at the file's middle row on
# WGS84 (east-west a cos(lat) / W, north-south a (1 - e2) / W^3 a radian),
# not the north-south size for both (74.5 m, not 92.5, at 36.6 N)
geo_cells() {	# JSON ROWS: x, y, Unity's width and length right
	pyc 'import math
j = json.load(open(sys.argv[1])); rows = int(sys.argv[2])
c = j["cellsize"]; lat = math.radians(j["origin"][1] - (rows // 2 + 0.5) * c)
a, e2 = 6378137.0, 6.69437999014e-3; w = math.sqrt(1 - e2 * math.sin(lat) ** 2)
x = a * math.cos(lat) / w * math.radians(c); y = a * (1 - e2) / w ** 3 * math.radians(c)
i = j.get("import", {})
print("cellsize_m" in j, abs(j["cellsize_x_m"] - x) < 1e-6, abs(j["cellsize_y_m"] - y) < 1e-6,
    abs(i.get("terrain_width", 256 * x) - 256 * x) < 1e-6,
    abs(i.get("terrain_length", 256 * y) - 256 * y) < 1e-6, round(x, 2), round(y, 2))' "$@"
}
assert_eq "geographic sidecar" "$(geo_cells "$T/dem.r16.json" 344)" "False True True True True 74.57 92.47"
assert_eq "geographic note" "$(head -n 1 "$T/.err")" "texport: geographic grid: cells 74.6 x 92.5 m at 36.6 N; the file keeps its cells; the sidecar gives both sizes (cellsize_x_m, cellsize_y_m)"
ok "geographic unity" run_prog texport -f r16 -e unity --crop "$T/dgu.r16" < "$T/dem.tp"
assert_eq "geographic unity sidecar" "$(geo_cells "$T/dgu.r16.json" 257)" "False True True True True 74.54 92.48"
assert_eq "geographic unity note" "$(grep geographic "$T/.err")" "texport: geographic grid: cells 74.5 x 92.5 m at 36.6 N; the sidecar's terrain_width and terrain_length use both"
ok "geographic unreal" run_prog texport -q -f png16 -e unreal --crop "$T/dge.png" < "$T/dem.tp"
assert_eq "geographic unreal scales" "$(pyc 'j = json.load(open(sys.argv[1])); i = j["import"]
print(round(i["scale_x"]), round(i["scale_y"]), i["scale_x"] == 100 * j["cellsize_x_m"])' "$T/dge.png.json")" "7454 9248 True"
assert_eq "geographic quiet" "$(grep -c geographic "$T/.err")" "0"

# levels of a hand-made band: 0, 1/3, 1/2, 1 of [0, 3] and beyond it
printf '0 1 1.5 3 -1 4 nan 0.00004' | mkstream 8 1 height > "$T/row.tp"
ok "r16 row" run_prog texport -f r16 --zrange 0,3 "$T/row.r16" < "$T/row.tp"
assert_eq "r16 levels" "$(pyc 'import struct
print(struct.unpack("<8H", open(sys.argv[1], "rb").read()))' "$T/row.r16")" \
    "(0, 21845, 32768, 65535, 0, 65535, 0, 1)"
ok "pgm row" run_prog texport -f pgm --zrange 0,3 "$T/row.pgm" < "$T/row.tp"
assert_eq "pgm header and big-endian" "$(pyc 'import struct
d = open(sys.argv[1], "rb").read()
print(d[:13], struct.unpack(">8H", d[13:]))' "$T/row.pgm")" \
    "b'P5\\n8 1\\n65535\\n' (0, 21845, 32768, 65535, 0, 65535, 0, 1)"
# a flat band: every level 0
printf '5 5 5 5' | mkstream 2 2 height > "$T/flat.tp"
ok "flat" run_prog texport -f r16 "$T/flat.r16" < "$T/flat.tp"
assert_eq "flat levels" "$(od -An -tu2 "$T/flat.r16" | tr -s ' ')" " 0 0 0 0"

# 2. Engines. A 65 x 65 ramp: value = row * 100 + column.
py 'y, x = np.mgrid[0:65, 0:65]; write((y * 100 + x).astype("float32"), "height", ["CELLSIZE 2"], sys.argv[1])' "$T/r65.tp"
ok "unity" run_prog texport -q -f r16 -e unity --zrange 0,6464 "$T/u.r16" < "$T/r65.tp"
# rows south first: the file's first row is the stream's last
assert_eq "unity flip" "$(pyc 'import struct
d = open(sys.argv[1], "rb").read(); q = np.array(struct.unpack("<%dH" % (len(d) // 2), d)).reshape(65, 65)
y, x = np.mgrid[0:65, 0:65]; v = (64 - y) * 100 + x
print(bool((q == np.floor(v * 65535 / 6464.0 + 0.5)).all()))' "$T/u.r16")" "True"
assert_eq "unity sidecar" "$(pyc 'j = json.load(open(sys.argv[1])); i = j["import"]
print(j["engine"], j["first_row"], i["terrain_width"], i["terrain_length"], i["terrain_height"], i["position_y"])' "$T/u.r16.json")" \
    "unity south 128.0 128.0 6464.0 0.0"
ok "godot" run_prog texport -q -f r16 -e godot --zscale 2 "$T/g.png" < "$T/r65.tp"
assert_eq "godot sidecar" "$(pyc 'j = json.load(open(sys.argv[1])); i = j["import"]
print(j["first_row"], i["min_height"], i["max_height"], i["cell_size"])' "$T/g.png.json")" \
    "north 0.0 12928.0 2.0"
expect_err 1 "texport: unity wants a square of 2^n+1 samples (33 .. 4097): 65x64 does not fit; nearest: 65, or use padding (--pad) or cropping (--crop)" \
    "unity not square" run_prog texport -f r16 -e unity "$T/x.r16" < <(py 'write(np.zeros((64, 65), "float32"))')
py 'write(np.arange(60 * 50, dtype="float32").reshape(50, 60))' > "$T/r60.tp"
expect_err 1 "texport: godot wants a square of 2^n+1 samples (33 .. 4097): 60x50 does not fit; nearest: 33 or 65, or use padding (--pad) or cropping (--crop)" \
    "godot 60x50" run_prog texport -f r16 -e godot "$T/x.r16" < "$T/r60.tp"
assert_eq "no file on error" "$(ls "$T"/x.r16* 2>/dev/null)" ""
# --pad repeats the last column and row; --crop keeps the north-west corner
ok "pad" run_prog texport -q -f r32 -e godot --pad "$T/p.r32" < "$T/r60.tp"
# a fitting that changes more than 10% of the cells says so, even under -q
assert_eq "pad warns" "$(cat "$T/.err")" "texport: warning: --pad: 60x50 padded to 65x65, 41% more cells (copies of the last column and row)"
assert_eq "pad" "$(pyc 'import struct
d = open(sys.argv[1], "rb").read(); v = np.array(struct.unpack("<%df" % (len(d) // 4), d)).reshape(65, 65)
a = np.arange(3000.0).reshape(50, 60); b = a[np.minimum(np.arange(65), 49)][:, np.minimum(np.arange(65), 59)]
print(bool((v == b).all()))' "$T/p.r32")" "True"
ok "crop" run_prog texport -q -f r32 -e godot --crop "$T/c.r32" < "$T/r60.tp"
assert_eq "crop warns" "$(cat "$T/.err")" "texport: warning: --crop: 60x50 cropped to 33x33, dropping 64% of its cells"
ok "crop dem" run_prog texport -q -f png16 -e unreal --crop "$T/cd.png" < "$T/dem.tp"
assert_eq "crop dem warns" "$(cat "$T/.err")" "texport: warning: --crop: 403x344 cropped to 253x253, dropping 54% of its cells"
py 'write(np.zeros((129, 129), "float32"))' > "$T/r129.tp"
ok "crop 3%" run_prog texport -q -f png16 -e unreal --crop "$T/c3.png" < "$T/r129.tp"
assert_eq "crop 3% quiet" "$(cat "$T/.err")" ""
assert_eq "crop" "$(pyc 'import struct
d = open(sys.argv[1], "rb").read(); v = np.array(struct.unpack("<%df" % (len(d) // 4), d)).reshape(33, 33)
a = np.arange(3000.0).reshape(50, 60)
print(bool((v == a[:33, :33]).all()))' "$T/c.r32")" "True"
expect_err 1 "texport: unreal's recommended sizes are 127, 253, 505, 1009, 2017, 4033, 8129: 60x50 does not fit; nearest: width 127, height 127, or use padding (--pad) or cropping (--crop)" \
    "unreal 60x50" run_prog texport -f png16 -e unreal "$T/x.png" < "$T/r60.tp"
expect_err 1 "texport: unreal: no size to crop 60x50 to" \
    "unreal crop" run_prog texport -f png16 -e unreal --crop "$T/x.png" < "$T/r60.tp"
py 'write(np.ones((127, 130), "float32"))' > "$T/r130.tp"
expect_err 1 "nearest: width 127 or 253, height 127, or use padding (--pad)" \
    "unreal 130x127" run_prog texport -f r16 -e unreal "$T/x.r16" < "$T/r130.tp"
ok "unreal pad" run_prog texport -q -f png16 -e unreal --pad "$T/ue.png" < "$T/r130.tp"
assert_eq "unreal pad size" "$(pyc 'import json; j = json.load(open(sys.argv[1])); i = j["import"]
print(j["width"], j["height"], i["scale_x"], i["scale_z"], i["location_z"])' "$T/ue.png.json")" "253 127 100.0 0.0 100.0"
assert_eq "unreal png size" "$(gdalinfo "$T/ue.png" 2>/dev/null | sed -n 's/^Size is //p')" "253, 127"

# 3. Splat maps. Codes of the default table: 10 grassland, 2 beach, 6 snow,
# 16 rock, 3 scorched, 9 taiga, NaN.
cat > "$T/groups" <<'EOF'
# biome      slot
grassland    0
"temperate deciduous forest" 0
beach        1
snow         2
rock         3
scorched     4
*            0
EOF
py 'b = np.full((12, 16), 10.0, "float32")
b[:, 8:] = 2; b[6:, :4] = 6; b[9:, 12:] = 16; b[0, 0] = np.nan; b[11, 15] = 3; b[5, 5] = 9
write(b, "biome", [], sys.argv[1])' "$T/biome.tp"
ok "splat" run_prog texport -f splat --biome-groups "$T/groups" "$T/s.png" < "$T/biome.tp"
ok "splat blend" run_prog texport -f splat --biome-groups "$T/groups" --blend 2 "$T/sb.png" < "$T/biome.tp"
# Brute force in Python: the box over (2 B + 1)^2 cells clipped at the
# edges, 255 c / N floored, the rest to the largest remainders.
splat_check() {
	py 'from osgeo import gdal
b = band(sys.argv[1], "biome"); B = int(sys.argv[3]); base = sys.argv[2][:-4]
slot = {10: 0, 11: 0, 2: 1, 6: 2, 16: 3, 3: 4}
s = np.vectorize(lambda v: 0 if np.isnan(v) else slot.get(int(v), 0))(b)
h, w = s.shape
pics = [gdal.Open(p).ReadAsArray() for p in (base + ".png", base + "_1.png")]
got = np.concatenate(pics, 0)[:5]
ok = True
for y in range(h):
    for x in range(w):
        win = s[max(0, y - B):y + B + 1, max(0, x - B):x + B + 1]
        n = win.size; c = np.array([(win == k).sum() for k in range(5)])
        q, r = (255 * c) // n, (255 * c) % n
        for k in sorted(range(5), key=lambda k: (-r[k], k))[:255 - q.sum()]:
            q[k] += 1
        ok &= bool((got[:, y, x] == q).all())
print(ok, bool((got.sum(0) == 255).all()), bool((pics[1][1:] == 0).all()))' "$T/biome.tp" "$1" "$2"
}
assert_eq "splat hard" "$(splat_check "$T/s.png" 0)" "True True True"
assert_eq "splat blend 2" "$(splat_check "$T/sb.png" 2)" "True True True"
# --splat-bands: each band's cover t = (v - LO) / (HI - LO) clamped, its
# share 255 t / max(1, sum t), the base the rest, largest remainders to 255.
# Bands alone, slot 0 the base: wear:0:0.5,slope:20:45 at
#   wear 0.125, slope 32.5: t .25 .5: 63.75 127.5, base 63.75 -> 64 64 127
#   wear 0.5, slope 45: t 1 1, sum 2: 127.5 127.5, base 0 -> 0 128 127
#   wear NaN, slope 10: nothing: 255 0 0
#   wear 0.25, slope 45: t .5 1, sum 1.5: 85 170, base 0 -> 0 85 170
pixels() {	# PNG: its RGBA pixels row by row
	py 'from osgeo import gdal
a = gdal.Open(sys.argv[1]).ReadAsArray()
print(" ".join(",".join(str(int(c)) for c in a[:, y, x]) for y in range(a.shape[1]) for x in range(a.shape[2])))' "$1"
}
py 'write(np.stack([[[0.125, 0.5, np.nan, 0.25]], [[32.5, 45, 10, 45]]], 1), "wear slope", [], sys.argv[1])' "$T/ws.tp"
ok "splat bands" run_prog texport -f splat --splat-bands wear:0:0.5,slope:20:45 "$T/sw.png" < "$T/ws.tp"
assert_eq "splat bands weights" "$(pixels "$T/sw.png")" "64,64,127,0 0,128,127,0 255,0,0,0 0,85,170,0"
# with the biome slots (0: grassland, 1: beach, columns 0 and 1-2) blended
# over 3x3 and wear:0:0.5 after them in slot 2; wear 0, 0.25, 0.5 by row
# (the ring keeps each row's bands for the window's row):
#   row 0, centre: 6 cells, 2 grassland: 85 170; wear 0: 85 170 0
#   row 1, centre: 9 cells, 3: 85 170; t .5: 127.5, the rest 127.5 split
#     42.5 85 -> 43 85 127
#   row 2, centre: t 1: 0 0 255
py 'b = np.array([[10, 2, 2]] * 3); w = np.array([[0] * 3, [0.25] * 3, [0.5] * 3])
write(np.stack([b, w], 1), "biome wear", [], sys.argv[1])' "$T/bw.tp"
printf 'grassland 0\nbeach 1\n* 0\n' > "$T/g01"
ok "splat biome bands" run_prog texport -f splat --biome-groups "$T/g01" --blend 1 --splat-bands wear:0:0.5 "$T/bw.png" < "$T/bw.tp"
assert_eq "splat biome bands centre" "$(pixels "$T/bw.png" | tr ' ' '\n' | sed -n '2p;5p;8p' | tr '\n' ' ')" "85,170,0,0 43,85,127,0 0,0,255,0 "
assert_eq "splat biome bands sum" "$(pixels "$T/bw.png" | tr ' ,' '\n+' | sed 's/+0$//' | bc | sort -u)" "255"
# -f weights: one grey PNG a slot, named after it, each equal to its
# channel of the RGBA splat maps, summing to 255 at every cell
py 'b = band(sys.argv[1], "biome"); w = np.random.default_rng(3).random(b.shape)
write(np.stack([b, w], 1), "biome wear", [], sys.argv[2])' "$T/biome.tp" "$T/bwr.tp"
ok "weights" run_prog texport -f weights --biome-groups "$T/groups" --blend 1 --splat-bands wear:0.2:0.9 "$T/w.png" < "$T/bwr.tp"
ok "weights' splat" run_prog texport -f splat --biome-groups "$T/groups" --blend 1 --splat-bands wear:0.2:0.9 "$T/ws.png" < "$T/bwr.tp"
assert_eq "weights names" "$(cd "$T" && ls w_*.png | tr '\n' ' ')" \
    "w_0_grassland.png w_1_beach.png w_2_snow.png w_3_rock.png w_4_scorched.png w_5_wear.png "
assert_eq "weights = splat channels, sum 255" "$(py 'from osgeo import gdal
import glob
g = [gdal.Open(p).ReadAsArray().astype(int) for p in sorted(glob.glob(sys.argv[1] + "/w_[0-9]_*.png"))]
s = np.concatenate([gdal.Open(sys.argv[1] + p).ReadAsArray() for p in ("/ws.png", "/ws_1.png")], 0)
print(len(g), all(a.ndim == 2 for a in g), bool((sum(g) == 255).all()), bool((np.stack(g) == s[:6]).all()), bool((s[:5] > 0).any() and (s[5] > 0).any()))' "$T")" "6 True True True True"
ok "weights, bands alone" run_prog texport -f weights --splat-bands wear "$T/wb.png" < "$T/ws.tp"
assert_eq "weights, bands alone: names" "$(cd "$T" && ls wb_*.png | tr '\n' ' ')" "wb_0_base.png wb_1_wear.png "
expect_err 2 "texport: -f weights needs --biome-groups FILE" "weights alone" run_prog texport -f weights "$T/x.png" < "$T/ws.tp"
expect_err 2 "texport: --splat-bands: wear: want LO < HI" "splat bands range" run_prog texport -f splat --splat-bands wear:1:0 "$T/x.png" < "$T/ws.tp"
expect_err 2 "texport: --splat-bands: wear twice" "splat bands twice" run_prog texport -f splat --splat-bands wear,wear "$T/x.png" < "$T/ws.tp"
expect_err 2 "texport: --splat-bands: 'wear:1': want NAME:LO:HI" "splat bands colon" run_prog texport -f splat --splat-bands wear:1 "$T/x.png" < "$T/ws.tp"
expect_err 2 "texport: --splat-bands goes with -f splat" "splat bands alone" run_prog texport --splat-bands wear "$T/x.png" < "$T/ws.tp"
expect_err 2 "texport: --blend goes with -f splat --biome-groups" "splat bands blend" run_prog texport -f splat --blend 1 --splat-bands wear "$T/x.png" < "$T/ws.tp"
expect_err 1 "texport: --splat-bands: the input has no band 'flow'" "splat bands no band" run_prog texport -f splat --splat-bands flow "$T/x.png" < "$T/ws.tp"
# inside a uniform biome the slot is 255 even blended
assert_eq "uniform 255" "$(py 'from osgeo import gdal
p = gdal.Open(sys.argv[1]).ReadAsArray(); print(p[:, 3, 3].tolist(), p[:, 2, 12].tolist())' "$T/sb.png")" \
    "[255, 0, 0, 0] [0, 255, 0, 0]"
# errors of the groups file, each naming the file and line
printf 'grassland 0\nmeadow 1\n* 2\n' > "$T/g1"
expect_err 1 "texport: $T/g1:2: no biome 'meadow' in the input's table" \
    "unknown biome" run_prog texport -f splat --biome-groups "$T/g1" "$T/x.png" < "$T/biome.tp"
printf 'grassland 0\n' > "$T/g2"
expect_err 1 "texport: $T/g2: biome 'ocean' has no slot and there is no '\\*' line" \
    "no slot" run_prog texport -f splat --biome-groups "$T/g2" "$T/x.png" < "$T/biome.tp"
printf 'grassland 0\nbeach 2\n* 0\n' > "$T/g3"
expect_err 1 "texport: $T/g3: slot 1 has no biome, yet slot 2 has" \
    "gap" run_prog texport -f splat --biome-groups "$T/g3" "$T/x.png" < "$T/biome.tp"
printf 'grassland 16\n' > "$T/g4"
expect_err 1 "texport: $T/g4:1: slot '16' is not a whole number 0 .. 15" \
    "slot range" run_prog texport -f splat --biome-groups "$T/g4" "$T/x.png" < "$T/biome.tp"
printf '"grass 0\n' > "$T/g5"
expect_err 1 "texport: $T/g5:1: a name's quote is not closed" \
    "quote" run_prog texport -f splat --biome-groups "$T/g5" "$T/x.png" < "$T/biome.tp"
printf 'grassland\n' > "$T/g6"
expect_err 1 "texport: $T/g6:1: want BIOME SLOT" \
    "one word" run_prog texport -f splat --biome-groups "$T/g6" "$T/x.png" < "$T/biome.tp"
printf 'grassland 0\nbeach 1\ngrassland 1\n' > "$T/g7"
expect_err 1 "texport: $T/g7:3: biome 'grassland' already has slot 0 (line 1)" \
    "twice" run_prog texport -f splat --biome-groups "$T/g7" "$T/x.png" < "$T/biome.tp"
printf '# nothing\n' > "$T/g8"
expect_err 1 "texport: $T/g8: no biomes" \
    "empty" run_prog texport -f splat --biome-groups "$T/g8" "$T/x.png" < "$T/biome.tp"
expect_err 1 "texport: $T/none: No such file or directory" \
    "missing groups" run_prog texport -f splat --biome-groups "$T/none" "$T/x.png" < "$T/biome.tp"
printf '10 10 77 10' | mkstream 2 2 biome > "$T/b77.tp"
expect_err 1 "texport: row 1, column 0: biome code 77 is not in the table" \
    "unknown code" run_prog texport -f splat --biome-groups "$T/groups" "$T/x.png" < "$T/b77.tp"
assert_eq "no splat file" "$(ls "$T"/x.png* "$T"/x_1.png 2>/dev/null)" ""
# a stream's own table (BIOME lines) names the classes
printf '1 1 2 2' | mkstream 2 2 biome 'BIOME 1 #102030 meadow' 'BIOME 2 #405060 dry lake' > "$T/own.tp"
printf 'meadow 1\n"dry lake" 0\n' > "$T/g9"
ok "own table" run_prog texport -f splat --biome-groups "$T/g9" "$T/own.png" < "$T/own.tp"
assert_eq "own table weights" "$(py 'from osgeo import gdal
print(gdal.Open(sys.argv[1]).ReadAsArray()[:2].reshape(2, 4).tolist())' "$T/own.png")" "[[0, 0, 255, 255], [255, 255, 0, 0]]"

# 4. Normal maps. A plane z = 0.5 x (east) + 0.25 y (north) on 2 m cells:
# dz/dx = 0.25, dz/dy = 0.125 per metre; n = (-0.25, -0.125, 1) / 1.0383,
# levels floor((c + 1) 127.5 + 0.5): R 97, G 112, B 250 (OpenGL), G 143
# (DirectX). Horn's edge rule is exact on a plane except at the corners.
py 'y, x = np.mgrid[0:9, 0:11]; write((0.5 * x + 0.25 * (8 - y)).astype("float32"), "height", ["CELLSIZE 2"], sys.argv[1])' "$T/plane.tp"
ok "normal" run_prog texport -f normal "$T/n.png" < "$T/plane.tp"
ok "normal dx" run_prog texport -f normal --normal-y down "$T/nd.png" < "$T/plane.tp"
normal_at() {
	py 'from osgeo import gdal
p = gdal.Open(sys.argv[1]).ReadAsArray().astype(int); m = np.ones(p.shape[1:], bool)
for y, x in ((0, 0), (0, -1), (-1, 0), (-1, -1)): m[y, x] = False
print(sorted(set(map(tuple, p[:, m].T.tolist()))))' "$1"
}
assert_eq "normal plane" "$(normal_at "$T/n.png")" "[(97, 112, 250)]"
assert_eq "normal plane directx" "$(normal_at "$T/nd.png")" "[(97, 143, 250)]"
# [0,1] heights with --zscale: 0.005 x 100 m = 0.5 m a column
py 'y, x = np.mgrid[0:5, 0:5]; write((0.005 * x).astype("float32"), "height", [], sys.argv[1])' "$T/zs.tp"
ok "normal zscale" run_prog texport -f normal --zscale 100 "$T/zs.png" < "$T/zs.tp"
# n = (-0.5, 0, 1) / sqrt(1.25): R 70, G 128, B 242
assert_eq "normal zscale plane" "$(normal_at "$T/zs.png")" "[(70, 128, 242)]"
# heights 0..1 over cells of 30 m (a ramp of 1/64 a cell: 0.03 degrees)
# make a flat normal map: a warning naming --zscale, even under -q; the
# line is drawn at a 1 degree slope (a rise of 0.01746 a metre)
py 'y, x = np.mgrid[0:65, 0:65]; write((x / 64.0).astype("float32"), "height", ["CELLSIZE 30"], sys.argv[1])' "$T/ramp.tp"
ok "flat warns" run_prog texport -q -f normal "$T/fw.png" < "$T/ramp.tp"
assert_eq "flat warning" "$(cat "$T/.err")" "texport: warning: the steepest slope is 0.03 degrees, so the normal map is almost flat (128, 128, 255); give --zscale, the metres one height unit stands for"
ok "flat zscale" run_prog texport -q -f normal --zscale 1800 "$T/fw.png" < "$T/ramp.tp"
assert_eq "zscale: no warning" "$(cat "$T/.err")" ""
for r in 0.0174:1 0.0175:0; do
	py 'y, x = np.mgrid[0:9, 0:9]; write((x * float(sys.argv[2])).astype("float32"), "height", [], sys.argv[1])' "$T/r1.tp" "${r%:*}"
	ok "ramp ${r%:*}" run_prog texport -q -f normal "$T/r1.png" < "$T/r1.tp"
	assert_eq "ramp ${r%:*} warns" "$(grep -c 'almost flat' "$T/.err")" "${r#*:}"
done
printf '1 1 1 nan 1 1 1 1 1' | mkstream 3 3 height > "$T/flatn.tp"
ok "flat normal" run_prog texport -f normal "$T/fn.png" < "$T/flatn.tp"
assert_eq "flat ground: no warning" "$(grep -c warning "$T/.err")" "0"
assert_eq "flat is 128 128 255" "$(py 'from osgeo import gdal
p = gdal.Open(sys.argv[1]).ReadAsArray(); print(sorted(set(map(tuple, p.reshape(3, -1).T.tolist()))))' "$T/fn.png")" "[(128, 128, 255)]"
# geographic: the DEM's normal map, each row measured in metres; against
# Horn by hand in Python with the spacing at each row's latitude (WGS84)
ok "normal dem" run_prog texport -f normal "$T/dn.png" < "$T/dem0.tp"
assert_eq "normal dem interior" "$(py 'from osgeo import gdal
z = band(sys.argv[1], "height").astype(float); p = gdal.Open(sys.argv[2]).ReadAsArray().astype(int)
h, w = z.shape; cs = 1 / 1200.0; north = 36.73291666666667
a, f = 6378137.0, 1 / 298.257223563; e2 = f * (2 - f)
lat = np.radians(north - (np.arange(h) + 0.5) * cs); W = np.sqrt(1 - e2 * np.sin(lat) ** 2)
ew = a * np.cos(lat) / W * np.radians(cs); ns = a * (1 - e2) / W ** 3 * np.radians(cs)
Z = lambda dy, dx: z[1 + dy:h - 1 + dy, 1 + dx:w - 1 + dx]
gx = ((Z(-1, 1) + 2 * Z(0, 1) + Z(1, 1)) - (Z(-1, -1) + 2 * Z(0, -1) + Z(1, -1))) / (8 * ew[1:-1, None])
gy = ((Z(-1, -1) + 2 * Z(-1, 0) + Z(-1, 1)) - (Z(1, -1) + 2 * Z(1, 0) + Z(1, 1))) / (8 * ns[1:-1, None])
n = np.sqrt(1 + gx * gx + gy * gy)
lv = lambda c: np.floor((c + 1) * 127.5 + 0.5)
want = np.stack([lv(-gx / n), lv(-gy / n), lv(1 / n)])
d = np.abs(want - p[:, 1:-1, 1:-1])
print(bool(d.max() <= 1), bool((d == 0).mean() > 0.999))' "$T/dem0.tp" "$T/dn.png")" "True True"

# 5. Threads never change the bytes
for f in png16 r16 normal; do
	ok "$f -j 1" run_prog texport -q -j 1 -f $f "$T/j1.$f" < "$T/dem.tp"
	ok "$f -j 2" run_prog texport -q -j 2 -f $f "$T/j2.$f" < "$T/dem.tp"
	assert_same "$f -j 1 = -j 2" "$T/j1.$f" "$T/j2.$f"
done
# the HISTORY lines, texport's own with them, go into the PNG
assert_eq "png comment" "$(py 'from osgeo import gdal
print(gdal.Open(sys.argv[1]).GetMetadata()["Comment"].count("HISTORY texport --format png16"))' "$T/dem.png16")" "1"

# 6. Masks: terode's wear and flow as 8-bit PNGs, read back by GDAL: each
# level is floor((v - LO) * 255 / (HI - LO) + 0.5) clamped, LO, HI the
# band's range or --zrange, as the sidecar records; NaN is 0.
run_prog tnoise --size 96x80 --seed 2 | run_prog terode -q -n 8000 --masks > "$T/er.tp"
mask_check() {
	py 'import json
from osgeo import gdal
v = band(sys.argv[1], sys.argv[2]).astype(np.float64)
j = json.load(open(sys.argv[3] + ".json")); lo, hi = j["zrange"]
d = gdal.Open(sys.argv[3]); p = d.ReadAsArray().astype(np.int64)
m = np.isfinite(v)
want = np.clip(np.floor((np.where(m, v, lo) - lo) * 255 / (hi - lo) + 0.5), 0, 255)
want[~m] = 0
back = lo + p * (hi - lo) / 255
inr = m & (v >= lo) & (v <= hi)
print(j["format"], j["levels"], "byte_order" in j,
    d.GetRasterBand(1).DataType == gdal.GDT_Byte, int(np.abs(p - want).max()),
    bool(np.abs(back - v)[inr].max() <= (hi - lo) / 510 * 1.0001),
    int(p.min()), int(p.max()))' "$@"
}
ok "mask wear" run_prog texport -f mask -b wear "$T/wear.png" < "$T/er.tp"
assert_eq "mask wear says the range" "$(sed 's/= .*//' "$T/.err")" "texport: mask 0..255 "
assert_eq "mask wear round trip" "$(mask_check "$T/er.tp" wear "$T/wear.png")" \
    "mask 255 False True 0 True 0 255"
ok "mask flow zrange" run_prog texport -q -f mask -b flow --zrange 0,2 "$T/flow.png" < "$T/er.tp"
assert_eq "mask flow: zrange in the sidecar" \
    "$(pyc 'print(json.load(open(sys.argv[1]))["zrange"])' "$T/flow.png.json")" "[0.0, 2.0]"
assert_eq "mask flow round trip" "$(mask_check "$T/er.tp" flow "$T/flow.png" | cut -d' ' -f1-6)" \
    "mask 255 False True 0 True"
expect_err 2 "texport: a mask is no heightmap" "mask with an engine" \
    run_prog texport -f mask -e godot "$T/x.png" < "$T/er.tp"

# exr: float32 OpenEXR, heights times --zscale, NaN as LO times it; read
# back by a decoder of its own here (EXR's ZIP: zlib, a byte predictor and
# the two halves interleaved) bit for bit, and by exrheader where installed
ok "exr" run_prog texport -f exr --zscale 2.5 "$T/dem.exr" < "$T/dem.tp"
assert_eq "exr says" "$(tail -n 1 "$T/.err")" "texport: heights $(awk -v v="$LO" 'BEGIN { printf "%.9g", v * 2.5 }')..$(awk -v v="$HI" 'BEGIN { printf "%.9g", v * 2.5 }') m as float32"
assert_eq "exr values" "$(py 'import struct, zlib, math, json
a = band(sys.argv[1], "height"); h, w = a.shape
f = open(sys.argv[2], "rb").read()
assert f[:4] == bytes([0x76, 0x2f, 0x31, 0x01])
p, attrs = 8, {}
while f[p] != 0:
    n = f.index(0, p); t = f.index(0, n + 1); size = struct.unpack_from("<i", f, t + 1)[0]
    attrs[f[p:n].decode()] = f[t + 5:t + 5 + size]; p = t + 5 + size
p += 1 + 8 * math.ceil(h / 16)
got = []
while len(got) < h:
    y, size = struct.unpack_from("<ii", f, p); p += 8
    n = min(16, h - y) * w * 4
    d = f[p:p + size]; p += size
    if size < n:
        t = np.frombuffer(zlib.decompress(d), np.uint8).astype(np.int64)
        t[1:] -= 128; t = (np.cumsum(t) & 0xff).astype(np.uint8)
        half = (n + 1) // 2; u = np.empty(n, np.uint8); u[0::2] = t[:half]; u[1::2] = t[half:]; d = u.tobytes()
    got += list(np.frombuffer(d, "<f4").reshape(-1, w))
got = np.array(got)
m = np.isnan(a); lo = np.nanmin(a)
want = np.where(m, lo, a).astype(np.float64) * 2.5
j = json.load(open(sys.argv[2] + ".json"))
print(attrs["channels"][:2] == b"Y\0", bool((got == want.astype(np.float32)).all()), j["format"], j["zrange"] == [float(np.float32(lo)) * 2.5, float(np.nanmax(a)) * 2.5], j["nodata_cells"])' "$T/dem.tp" "$T/dem.exr")" "True True exr True True"
if command -v exrheader > /dev/null; then
	assert_eq "exrheader" "$(exrheader "$T/dem.exr" | grep -E '^ *Y,|dataWindow|compression' | tr -s ' ' | tr '\n' '|')" \
	    " Y, 32-bit floating-point, sampling 1 1, plinear|compression (type compression): zip, multi-scanline blocks|dataWindow (type box2i): (0 0) - (402 343)|"
fi

# 7. Misuse (exit 2) and bad input (exit 1), every message worded
expect_err 2 "texport: --format: 'tiff' is not one of png16, r16, r32, pgm, mask, splat, weights, normal, exr" \
    "format" run_prog texport -f tiff "$T/x" < "$T/dem.tp"
expect_err 2 "texport: --engine goes with the heightmap formats" "exr engine" run_prog texport -f exr -e godot "$T/x.exr" < "$T/dem.tp"
expect_err 2 "texport: --engine goes with the heightmap formats png16, r16, r32 and pgm, and with tiles" "splat engine, no tiles" run_prog texport -f splat --splat-bands height -e unity "$T/x.png" < "$T/dem.tp"
expect_err 2 "texport: --zrange: want LO < HI" "zrange order" run_prog texport --zrange 5,1 "$T/x" < "$T/dem.tp"
expect_err 2 "texport: give the file to write (-o OUT)" "no out" run_prog texport < "$T/dem.tp"
expect_err 2 "texport: unexpected argument 'b'" "two outs" run_prog texport a b < "$T/dem.tp"
expect_err 2 "texport: give a file to write, not standard output" "stdout" run_prog texport - < "$T/dem.tp"
expect_err 2 "texport: -f splat needs --biome-groups FILE" "splat no groups" run_prog texport -f splat "$T/x" < "$T/biome.tp"
expect_err 2 "texport: --biome-groups goes with -f splat" "groups no splat" run_prog texport --biome-groups "$T/groups" "$T/x" < "$T/biome.tp"
expect_err 2 "texport: --blend goes with -f splat" "blend" run_prog texport --blend 2 "$T/x" < "$T/dem.tp"
expect_err 2 "texport: --normal-y goes with -f normal" "normal-y" run_prog texport --normal-y down "$T/x" < "$T/dem.tp"
expect_err 2 "texport: --normal-y: 'left' is not one of up, down" "normal-y value" run_prog texport -f normal --normal-y left "$T/x" < "$T/dem.tp"
expect_err 2 "texport: --engine goes with the heightmap formats png16, r16, r32 and pgm" "engine normal" run_prog texport -f normal -e unity "$T/x" < "$T/dem.tp"
expect_err 2 "texport: --engine: 'cryengine' is not one of unity, unreal, godot" "engine name" run_prog texport -e cryengine "$T/x" < "$T/dem.tp"
expect_err 2 "texport: --crop and --pad go with --engine" "pad alone" run_prog texport --pad "$T/x" < "$T/dem.tp"
expect_err 2 "texport: --crop and --pad: one or the other" "pad crop" run_prog texport -e unity -f r16 --pad --crop "$T/x" < "$T/dem.tp"
expect_err 2 "texport: --zrange goes with the heightmap formats" "zrange normal" run_prog texport -f normal --zrange 0,1 "$T/x" < "$T/dem.tp"
expect_err 2 "texport: unity imports raw 16-bit heightmaps: use -f r16" "unity png" run_prog texport -e unity -f png16 "$T/x" < "$T/dem.tp"
expect_err 2 "texport: unreal imports 16-bit heightmaps: use -f png16 or -f r16" "unreal r32" run_prog texport -e unreal -f r32 "$T/x" < "$T/dem.tp"
expect_err 2 "texport: godot imports r16 and r32 heightmaps: use -f r16" "godot pgm" run_prog texport -e godot -f pgm "$T/x" < "$T/dem.tp"
# Godot's Image.load keeps 8 bits of a 16-bit PNG: r16 it is
expect_err 2 "texport: godot's Image.load reads a 16-bit PNG as 8 bits (256 height levels): use -f r16" "godot png16" run_prog texport -e godot -f png16 "$T/x" < "$T/dem.tp"
# with no -f, -e godot and -e unity write r16, the form they read
ok "godot default r16" run_prog texport -q -e godot --crop "$T/gd" < "$T/dem.tp"
assert_eq "godot default r16 sidecar" "$(pyc 'j = json.load(open(sys.argv[1])); print(j["format"], j["width"], j["first_row"])' "$T/gd.json")" "r16 257 north"
assert_eq "godot default r16 size" "$(stat -c %s "$T/gd")" "$((257 * 257 * 2))"
ok "unity default r16" run_prog texport -q -e unity --crop "$T/ud" < "$T/dem.tp"
assert_eq "unity default r16" "$(pyc 'j = json.load(open(sys.argv[1])); print(j["format"], j["first_row"])' "$T/ud.json")" "r16 south"
expect_err 2 "texport: --blend: " "blend range" run_prog texport -f splat --biome-groups "$T/groups" --blend 2000 "$T/x" < "$T/biome.tp"
expect_err 2 "texport: --zscale: " "zscale range" run_prog texport -f normal --zscale 0 "$T/x" < "$T/dem.tp"
expect_err 1 "texport: the input has no band 'moisture'" "no band" run_prog texport -b moisture "$T/x" < "$T/dem.tp"
expect_err 1 "texport: the input has no band 'biome'" "splat no biome" run_prog texport -f splat --biome-groups "$T/groups" "$T/x" < "$T/dem.tp"
ok "help" run_prog texport --help
# a truncated stream: exit 1, no file left behind, from a file and a pipe
head -c 30000 "$T/dem.tp" > "$T/trunc.tp"
for f in png16 r16 normal; do
	z="-z 0,1"; [ $f = normal ] && z=""
	# shellcheck disable=SC2086
	expect_err 1 "texport: .*truncated" "truncated $f" run_prog texport -f $f $z "$T/t.$f" < "$T/trunc.tp"
	assert_eq "truncated $f leaves nothing" "$(ls "$T"/t.* 2>/dev/null)" ""
done
expect_err 1 "texport: .*truncated" "truncated two-pass" run_prog texport -f r16 "$T/t.r16" < "$T/trunc.tp"
expect_err 1 "texport: .*truncated" "truncated held" run_prog texport -f r16 "$T/t.r16" < <(cat "$T/trunc.tp")
assert_eq "truncated leaves nothing" "$(ls "$T"/t.* 2>/dev/null)" ""
expect_err 1 "texport: .*truncated" "truncated splat" run_prog texport -f splat --biome-groups "$T/groups" "$T/t.png" < <(head -c 400 "$T/biome.tp")
# a pipe too large to hold: refused before anything is allocated for it
{ printf 'TERRAPIPE 1\nWIDTH 65536\nHEIGHT 4194304\nBANDS height\nENDHDR\n'
  head -c $((65536 * 4)) /dev/zero; } > "$T/huge.tp"
expect_err 1 "texport: holding the band from a pipe without a height range (--zrange) needs 1024.0 GiB, more than this machine's" \
    "huge pipe" run_prog texport -f r16 "$T/h.r16" < <(cat "$T/huge.tp")
# a pipeline: generator to Unity in one go
run_prog tnoise --size 129x129 --seed 5 --cellsize 4 | run_prog texport -q -f r16 -e unity "$T/pipe.r16"
assert_eq "pipeline bytes" "$(stat -c %s "$T/pipe.r16")" "$((129 * 129 * 2))"

# The heightmap and its sidecar, both or neither: a sidecar that cannot
# be written (its name a directory) leaves the old heightmap in place.
run_prog tnoise -q -s 33x33 -S 3 | run_prog texport -q -f r16 "$T/pair.r16"
cp "$T/pair.r16" "$T/pair.keep"
rm "$T/pair.r16.json" && mkdir "$T/pair.r16.json"
run_prog tnoise -q -s 33x33 -S 4 > "$T/other.tp"
expect_err 1 "^texport: '$T/pair.r16.json' is a directory" "sidecar a directory" \
    run_prog texport -q -f r16 "$T/pair.r16" < "$T/other.tp"
assert_same "the old heightmap kept" "$T/pair.r16" "$T/pair.keep"
assert_eq "no temporary file left" "$(ls -A "$T" | grep -c 'pair.*tmp')" 0
# Infinite heights are refused, named, never clamped to a level.
for z in "np.inf" "-np.inf" "np.full((4, 5), np.inf)"; do
	py 'z = np.arange(20.0).reshape(4, 5); z[2, 3] = eval(sys.argv[1]) if sys.argv[1].startswith("np.inf") or sys.argv[1].startswith("-") else 0
if sys.argv[1].startswith("np.full"): z = eval(sys.argv[1])
write(z, "height", ["CELLSIZE 10"])' "$z" > "$T/inf.tp"
	for f in r16 png16 r32; do
		expect_err 1 "^texport: row [0-9]*, column [0-9]*: height -*inf: a heightmap holds finite heights" \
		    "$z ($f)" run_prog texport -q -f $f "$T/inf.$f" < "$T/inf.tp"
		[ ! -e "$T/inf.$f" ] && pass || fail "$z ($f): a file was left"
		expect_exit 1 "$z ($f, --zrange)" run_prog texport -q -f $f --zrange 0,20 "$T/inf.$f" < "$T/inf.tp"
	done
done

finish
