#!/bin/bash
# texport --tile-size: engine tiles sharing their edges, for every heightmap
# format and engine; the tiles read back, checked edge by edge and joined
# against the stream; the grid's sidecar; padding only at the east and
# south; the stream read once from a pipe with --zrange; the layer maps
# (weights, splat, normal, exr) in the same grid, each tile the crop of the
# untiled map.
. "$(dirname "$0")/common.sh"

# A 300x200 world of 30 m cells with a NaN hole: not a multiple of any
# tile size below.
py 'rng = np.random.default_rng(7)
y, x = np.mgrid[0:200, 0:300]
a = (np.sin(x / 17.0) * 40 + np.cos(y / 11.0) * 30 + rng.random((200, 300)) * 5).astype("float32")
a[50:53, 80:90] = np.nan
write(a, "height", ["CELLSIZE 30", "ORIGIN 500000 4200000", "CRS EPSG:32617", "UNITS m"], sys.argv[1])' "$T/w.tp"

# check SIDECAR WORLD VALID: every tile of the sidecar read back (by its
# format and row order), of a valid size, its edges equal to its
# neighbours', the tiles joined without their shared samples equal to the
# stream within one level (r32: exactly), padding copies of the last column
# and row, and the sidecar's positions. Prints "ok" or what failed.
check() {
	py - "$@" <<'PYEOF'
import json, os, struct
from osgeo import gdal
side, world, valid = sys.argv[1], sys.argv[2], [int(v) for v in sys.argv[3].split(",")]
j = json.load(open(side)); g = j["tiles"]; d = os.path.dirname(side)
fmt, T, lo, hi = j["format"], g["size"], j["zrange"][0], j["zrange"][1]
a = band(world, "height").astype(float)
bad = []
def read(name):
    p = os.path.join(d, name)
    if fmt in ("r16", "r32"):
        raw = open(p, "rb").read()
        t = np.frombuffer(raw, "<u2" if fmt == "r16" else "<f4").astype(float)
        assert t.size == T * T, (name, t.size)
        t = t.reshape(T, T)
    else:
        t = gdal.Open(p).ReadAsArray().astype(float)
    return t[::-1] if j["first_row"] == "south" else t
if T not in valid: bad.append("size %d not valid" % T)
C, R = g["columns"], g["rows"]
if len(g["tiles"]) != C * R: bad.append("tile count")
unity = j["engine"] == "unity"
tiles = {}
for e in g["tiles"]:
    r = R - 1 - e["row"] if unity else e["row"]   # from the north
    tiles[(e["column"], r)] = read(e["file"])
    step = (T - 1) * j["cellsize_m"]
    if e["x_m"] != e["column"] * step or e["y_m"] != e["row"] * step:
        bad.append("position of " + e["file"])
    if e["origin"] != [j["origin"][0] + e["column"] * (T - 1) * 30, j["origin"][1] - r * (T - 1) * 30]:
        bad.append("origin of " + e["file"])
want_name = "_r%d_c%d" if unity else "_x%d_y%d"
for e in g["tiles"]:
    args = (e["row"], e["column"]) if unity else (e["column"], e["row"])
    if want_name % args not in e["file"]: bad.append("name " + e["file"])
for (c, r), t in tiles.items():
    if t.shape != (T, T): bad.append("shape")
    if (c + 1, r) in tiles and not (t[:, -1] == tiles[(c + 1, r)][:, 0]).all(): bad.append("east edge %d %d" % (c, r))
    if (c, r + 1) in tiles and not (t[-1, :] == tiles[(c, r + 1)][0, :]).all(): bad.append("south edge %d %d" % (c, r))
W, H = C * (T - 1) + 1, R * (T - 1) + 1
if (W, H) != (g["grid_width"], g["grid_height"]) or W < a.shape[1] or W - (T - 1) >= a.shape[1] or H - (T - 1) >= a.shape[0]:
    bad.append("grid size")
joined = np.zeros((H, W))
for (c, r), t in tiles.items():
    joined[r * (T - 1):r * (T - 1) + T, c * (T - 1):c * (T - 1) + T] = t
h, w = a.shape
m = np.isfinite(a)
if fmt == "r32":
    want = np.where(m, a, lo).astype("float32")
    if not (joined[:h, :w] == want).all(): bad.append("r32 not exact")
else:
    want = np.clip(np.floor((np.where(m, a, lo) - lo) * 65535 / (hi - lo) + 0.5), 0, 65535)
    want[~m] = 0
    if np.abs(joined[:h, :w] - want).max() > 1: bad.append("levels off by more than one")
if not (joined[:, w:] == joined[:, w - 1:w]).all() or not (joined[h:, :] == joined[h - 1:h, :]).all():
    bad.append("padding")
print(" ".join(bad) if bad else "ok")
PYEOF
}

POW=33,65,129,257,513,1025,2049,4097
UNREAL=127,253,505,1009,2017,4033,8129
while read -r engine fmt size valid; do
	e=; [ "$engine" = none ] || e="-e $engine"
	mkdir -p "$T/$engine-$fmt"
	out=$T/$engine-$fmt/w.$fmt
	ok "$engine $fmt" run_prog texport -q $e -f "$fmt" --tile-size "$size" "$out" < "$T/w.tp"
	assert_eq "$engine $fmt tiles" "$(check "$out.json" "$T/w.tp" "$valid")" ok
done <<EOF
unity r16 65 $POW
unity r16 129 $POW
unreal png16 127 $UNREAL
unreal r16 127 $UNREAL
godot r16 65 $POW
godot r32 65 $POW
none png16 50 50
none pgm 101 101
none r32 300 300
EOF

# names and counts: 300x200 in 65-sample tiles is 5 x 4 (299 / 64, 199 / 64
# rounded up); Unity's r0 is the south row, Unreal's y0 the north
assert_eq "unity names" "$(cd "$T/unity-r16" && ls w_r*_c*.r16 | wc -l)" 20
assert_eq "unreal names" "$(cd "$T/unreal-png16" && ls w_x*_y*.png16 | tr '\n' ' ')" \
    "w_x0_y0.png16 w_x0_y1.png16 w_x1_y0.png16 w_x1_y1.png16 w_x2_y0.png16 w_x2_y1.png16 "
assert_eq "one tile when the world fits" "$(cd "$T/none-r32" && ls w_*)" "w_x0_y0.r32"

# one range for every tile; from a pipe with --zrange the stream is read
# once, and the tiles are those of the file
mkdir -p "$T/pipe"
cat "$T/w.tp" | run_prog texport -q -e unity --zrange -40,80 --tile-size 65 "$T/pipe/w.r16" 2> /dev/null
assert_eq "pipe tiles" "$(check "$T/pipe/w.r16.json" "$T/w.tp" "$POW")" ok
assert_eq "pipe zrange" "$(py 'import json; print(json.load(open(sys.argv[1]))["zrange"])' "$T/pipe/w.r16.json")" "[-40.0, 80.0]"
mkdir -p "$T/file"
run_prog texport -q -e unity --zrange -40,80 --tile-size 65 "$T/file/w.r16" < "$T/w.tp" 2> /dev/null
assert_same "pipe = file" "$T/pipe/w_r3_c4.r16" "$T/file/w_r3_c4.r16"
# the range line and the padding warning (300x200 to 505x253)
ok "range line" run_prog texport -e unreal --tile-size 253 "$T/u.png" < "$T/w.tp"
assert_eq "one range line" "$(grep -c 'height 0..65535 = ' "$T/.err")" 1
assert_eq "pad warning" "$(grep -c 'warning: --tile-size: 300x200 padded to 505x253' "$T/.err")" 1

# Layer maps (-f weights, splat, normal, exr) in the same grid: every tile
# of the sidecar, each of its layers, equal byte for byte (exr: bit for
# bit) to its crop of the untiled map padded east and south by its last
# column and row; weights and splat summing to 255 in every cell of every
# tile; the names the heightmap's with the layer's suffix before them.
# A world of biomes in blocks, a random wear band and the heights above;
# its 257 x 193 corner fits tiles of 65 without padding.
py 'rng = np.random.default_rng(5)
y, x = np.mgrid[0:200, 0:300]
h = band(sys.argv[1], "height")
codes = np.array([10, 2, 6, 16, 3, 9], "float32")
b = codes[(x // 23 + (y // 19) * 3 + (rng.random((200, 300)) < 0.1)) % 6]
b[5, 5] = np.nan
write(np.stack([h, b, rng.random((200, 300))], 1), "height biome wear", ["CELLSIZE 30", "ORIGIN 500000 4200000", "CRS EPSG:32617", "UNITS m"], sys.argv[2])
write(np.stack([h, b], 1)[:193, :, :257], "height biome", [], sys.argv[3])' "$T/w.tp" "$T/l.tp" "$T/fit.tp"
printf 'grassland 0\nbeach 1\nsnow 2\nrock 3\nscorched 4\n* 0\n' > "$T/groups"

# layer_check SIDECAR UNTILED_DIR: "ok", or what failed
layer_check() {
	py - "$@" <<'PYEOF'
import json, os, math, struct, zlib
from PIL import Image
side, whole = sys.argv[1], sys.argv[2]
j = json.load(open(side)); g = j["tiles"]; d = os.path.dirname(side)
T, C, R, fmt = g["size"], g["columns"], g["rows"], j["format"]
def exr(p):   # a scanline OpenEXR of one float channel, as texport writes it
    f = open(p, "rb").read(); q, at = 8, {}
    while f[q] != 0:
        n = f.index(0, q); t = f.index(0, n + 1); size = struct.unpack_from("<i", f, t + 1)[0]
        at[f[q:n].decode()] = f[t + 5:t + 5 + size]; q = t + 5 + size
    x0, y0, x1, y1 = struct.unpack("<4i", at["dataWindow"]); w, h = x1 - x0 + 1, y1 - y0 + 1
    q += 1 + 8 * math.ceil(h / 16); rows = []
    while len(rows) < h:
        y, size = struct.unpack_from("<ii", f, q); q += 8
        n = min(16, h - y) * w * 4; b = f[q:q + size]; q += size
        if size < n:
            t = np.frombuffer(zlib.decompress(b), np.uint8).astype(np.int64)
            t[1:] -= 128; t = (np.cumsum(t) & 0xff).astype(np.uint8)
            half = (n + 1) // 2; u = np.empty(n, np.uint8); u[0::2] = t[:half]; u[1::2] = t[half:]; b = u.tobytes()
        rows += list(np.frombuffer(b, "<f4").reshape(-1, w))
    return np.array(rows)
def read(p):
    return exr(p) if p.endswith(".exr") else np.asarray(Image.open(p))
layers = j.get("layers", [os.path.basename(side)[:-5]])   # exr: the heightmap's
bad, full = [], []
for name in layers:
    a = read(os.path.join(whole, name))
    pad = [(0, g["grid_height"] - a.shape[0]), (0, g["grid_width"] - a.shape[1])] + [(0, 0)] * (a.ndim - 2)
    full.append(np.pad(a, pad, mode="edge"))
if len(g["tiles"]) != C * R: bad.append("tile count")
unity = j["engine"] == "unity"
for e in g["tiles"]:
    c, r = e["column"], (R - 1 - e["row"] if unity else e["row"])
    tag = ("_r%d_c%d" % (e["row"], c)) if unity else ("_x%d_y%d" % (c, e["row"]))
    files = e.get("files", [e["file"]])
    if e["file"] != files[0] or len(files) != len(layers): bad.append("files of " + e["file"])
    tiles = []
    for k, name in enumerate(files):
        stem, ext = os.path.splitext(layers[k])
        if name != stem + tag + ext: bad.append("name " + name)
        t = read(os.path.join(d, name)); tiles.append(t)
        want = full[k][r * (T - 1):r * (T - 1) + T, c * (T - 1):c * (T - 1) + T]
        if t.shape != want.shape or t.dtype != want.dtype or not (t == want).all(): bad.append("tile " + name)
    if fmt in ("weights", "splat"):
        s = sum(t.astype(int).reshape(T, T, -1).sum(2) for t in tiles)
        if not (s == 255).all(): bad.append("sum of " + e["file"])
print(" ".join(bad[:5]) if bad else "ok")
PYEOF
}

while read -r engine fmt size opts; do
	e=; [ "$engine" = none ] || e="-e $engine"
	ext=png; [ "$fmt" = exr ] && ext=exr
	ld=$T/l-$engine-$fmt-$size
	mkdir -p "$ld/whole"
	in=$T/l.tp; [ "$engine $size" = "godot 65" ] && in=$T/fit.tp
	ok "$engine $fmt $size layers" run_prog texport -q $e -f "$fmt" --tile-size "$size" $opts "$ld/m.$ext" < "$in"
	ok "$engine $fmt $size whole" run_prog texport -q -f "$fmt" $opts "$ld/whole/m.$ext" < "$in"
	assert_eq "$engine $fmt $size layer tiles" "$(layer_check "$ld/m.$ext.json" "$ld/whole")" ok
done <<EOF
unreal weights 127 --biome-groups $T/groups --blend 2 --splat-bands wear:0.2:0.9
unity weights 65 --biome-groups $T/groups --blend 3
none weights 50 --splat-bands wear:0:0.5
unity splat 129 --biome-groups $T/groups --blend 1 --splat-bands wear
godot splat 65 --biome-groups $T/groups --blend 4
unreal normal 127 --zscale 3
godot normal 65 --normal-y down
none exr 101 --zscale 2.5
EOF
# the corner fits its tiles, unpadded; Unity's names of 5 x 4 tiles
assert_eq "fit grid" "$(py 'import json; g = json.load(open(sys.argv[1]))["tiles"]; print(g["grid_width"], g["grid_height"], g["world_width"], g["world_height"])' "$T/l-godot-splat-65/m.png.json")" "257 193 257 193"
assert_eq "unity layer names" "$(cd "$T/l-unity-weights-65" && ls m_0_grassland_r*_c*.png | wc -l) $(ls "$T/l-unity-weights-65" | grep -c '^m_4_scorched_r3_c4.png$')" "20 1"
assert_eq "exr tiles' zrange" "$(py 'import json; j = json.load(open(sys.argv[1])); print(j["format"], j["tiles"]["columns"], j["zrange"] == json.load(open(sys.argv[2]))["zrange"])' "$T/l-none-exr-101/m.exr.json" "$T/l-none-exr-101/whole/m.exr.json")" "exr 3 True"
# from a pipe, the tiles are those of the file
mkdir -p "$T/l-pipe"
cat "$T/l.tp" | run_prog texport -q -e unity -f weights --biome-groups "$T/groups" --blend 3 --tile-size 65 "$T/l-pipe/m.png"
assert_same "layer pipe = file" "$T/l-pipe/m_0_grassland_r1_c2.png" "$T/l-unity-weights-65/m_0_grassland_r1_c2.png"
expect_err 1 "unity takes tiles of 257 or 513" "unity layer size" run_prog texport -e unity -f normal --tile-size 300 "$T/x.png" < "$T/l.tp"
expect_err 2 "engine goes with the heightmap formats" "engine with exr tiles" run_prog texport -e godot -f exr --tile-size 65 "$T/x.exr" < "$T/l.tp"

# errors
expect_err 1 "unity takes tiles of 257 or 513" "unity size" run_prog texport -e unity --tile-size 300 "$T/x.r16" < "$T/w.tp"
expect_err 1 "unreal takes tiles of 127 samples" "unreal size" run_prog texport -e unreal --tile-size 40 "$T/x.png" < "$T/w.tp"
expect_err 2 "tile-size goes with" "tiles and --pad" run_prog texport -e unity --pad --tile-size 65 "$T/x.r16" < "$T/w.tp"
expect_err 2 "tile-size goes with" "tiles of a mask" run_prog texport -f mask --tile-size 65 "$T/x.png" < "$T/w.tp"
expect_err 2 "out of range \[2," "size 1" run_prog texport --tile-size 1 "$T/x.png" < "$T/w.tp"
# A set of tiles is whole or absent: a stream cut short after the first row
# of tiles leaves no tile, no sidecar and no stage in the directory, and a
# whole set already there keeps its bytes.
mkdir -p "$T/cut"
run_prog texport -q -e unity --tile-size 65 --zrange 0,1 "$T/cut/w.r16" < "$T/w.tp"
run_prog texport -q -e unity -f weights --biome-groups "$T/groups" \
    --tile-size 65 "$T/cut/m.png" < "$T/l.tp"
( cd "$T/cut" && md5sum * ) > "$T/cut.sum"
head -c 200000 "$T/w.tp" > "$T/w-cut.tp"
head -c 600000 "$T/l.tp" > "$T/l-cut.tp"
expect_err 1 "" "a cut stream's heightmap tiles" run_prog texport -e unity \
    --tile-size 65 --zrange -1,2 "$T/cut/w.r16" < "$T/w-cut.tp"
expect_err 1 "" "a cut stream's weight tiles" run_prog texport -e unity \
    -f weights --biome-groups "$T/groups" --tile-size 65 "$T/cut/m.png" < "$T/l-cut.tp"
( cd "$T/cut" && md5sum -c --quiet "$T/cut.sum" ) && pass ||
    fail "a failed run changed the set already there"
assert_eq "nothing else left" "$(ls -A "$T/cut" | wc -l)" "$(wc -l < "$T/cut.sum")"
mkdir -p "$T/cut2"
expect_err 1 "" "a cut stream into an empty directory" run_prog texport -e unreal \
    --tile-size 127 --zrange 0,1 -f png16 "$T/cut2/w.png" < "$T/w-cut.tp"
assert_eq "the empty directory stays empty" "$(ls -A "$T/cut2" | wc -l)" 0
# A signal mid-set: the input a FIFO held open after two rows of tiles
# (300 x 129 floats), so texport waits with tiles in its stage; SIGTERM
# removes the stage with them.
mkdir -p "$T/sig"
mkfifo "$T/sig/in"
env --default-signal=TERM $MEMCHECK "$TP_BIN/texport" -q -e unity --tile-size 65 \
    --zrange 0,1 "$T/sig/w.r16" < "$T/sig/in" 2> /dev/null &
pid=$!
exec 3> "$T/sig/in"
head -c $((300 * 129 * 4 + 4096)) "$T/w.tp" >&3
staged() { find "$T/sig" -mindepth 2 -name 'w_r*.r16' 2> /dev/null | wc -l; }
for _ in $(seq 1000); do
	[ "$(staged)" = 10 ] && break
	sleep 0.01
done
assert_eq "two rows of tiles staged before the signal" "$(staged)" 10
kill -TERM "$pid"
{ wait "$pid"; } 2> /dev/null
assert_eq "SIGTERM: dies of it" $? 143
exec 3>&-
assert_eq "SIGTERM: nothing left but the input" "$(ls -A "$T/sig")" in
# A world larger than the memory texport may use: 6145x6145 (151 MB of
# stream) under a 100 MB address-space limit, read twice from the file
# (the range, then the rows), makes its 36 Unity tiles; memory is a row of
# tiles (6145 x 1025 floats, 25 MB).
run_prog tnoise -q -s 6145x6145 > "$T/big.tp"
lim=$(vm_limit 100000)
( ulimit -v "$lim"; exec $MEMCHECK "$TP_BIN/texport" -q -f r16 -e unity \
    --tile-size 1025 "$T/big.r16" < "$T/big.tp" ) && pass ||
    fail "tiles of a world larger than the memory limit"
assert_eq "its 36 tiles" "$(ls "$T" | grep -c '^big_r[0-5]_c[0-5].r16$')" 36
# its weight maps, two slots, likewise: 2 rows of tiles of bytes, 12.6 MB
( ulimit -v "$lim"; exec $MEMCHECK "$TP_BIN/texport" -q -f weights -e unity \
    --splat-bands height:0.3:0.7 --tile-size 1025 "$T/big.png" < "$T/big.tp" ) &&
    pass || fail "weight map tiles of a world larger than the memory limit"
assert_eq "its 72 weight tiles" "$(ls "$T" | grep -c '^big_[01]_[a-z]*_r[0-5]_c[0-5].png$')" 72
rm -f "$T/big.tp" "$T"/big_*

finish
