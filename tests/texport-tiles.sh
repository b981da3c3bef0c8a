#!/bin/bash
# texport --tile-size: engine tiles sharing their edges, for every heightmap
# format and engine; the tiles read back, checked edge by edge and joined
# against the stream; the grid's sidecar; padding only at the east and
# south; the stream read once from a pipe with --zrange.
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

# errors
expect_err 1 "unity takes tiles of 257 or 513" "unity size" run_prog texport -e unity --tile-size 300 "$T/x.r16" < "$T/w.tp"
expect_err 1 "unreal takes tiles of 127 samples" "unreal size" run_prog texport -e unreal --tile-size 40 "$T/x.png" < "$T/w.tp"
expect_err 2 "tile-size goes with" "tiles and --pad" run_prog texport -e unity --pad --tile-size 65 "$T/x.r16" < "$T/w.tp"
expect_err 2 "tile-size goes with" "tiles of a mask" run_prog texport -f mask --tile-size 65 "$T/x.png" < "$T/w.tp"
expect_err 2 "out of range \[2," "size 1" run_prog texport --tile-size 1 "$T/x.png" < "$T/w.tp"
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
rm -f "$T/big.tp" "$T"/big_r*

finish
