#!/bin/bash
# godot: texport's Godot files read by Godot itself. godot3-server (the
# headless Godot 3 runtime) runs a GDScript that reads them the way the
# HTerrain plugin imports them: an r16 heightmap through File.get_16
# (little-endian), its size from the sidecar and each level scaled onto the
# sidecar's zrange; the splat, weight and normal maps through Image.load.
# Checked here: the heights Godot gets, of one heightmap and of the engine
# tiles of -e godot --tile-size, are the stream's within one level (NaN:
# the range's low end); the splat maps Godot gets are RGBA8, each cell's
# weights summing to 255, and the splat, weight and normal maps (tiles too)
# hold the bytes texport wrote. Needs godot3-server, which
# scripts/install-deps check installs; without it the test is skipped,
# except under CI (CI set), where that fails.
. "$(dirname "$0")/common.sh"

GODOT=$(command -v godot3-server || true)
if [ -z "$GODOT" ]; then
	if [ -n "${CI:-}" ]; then
		fail "godot3-server is not installed: scripts/install-deps" \
		    "check (as root) installs it"
	else
		echo "godot: skipped: godot3-server is not installed" \
		    "(scripts/install-deps check, as root, installs it)" >&2
	fi
	finish
	exit
fi

# A 257 x 257 world (a size Godot takes) of 10 m cells, a NaN hole, biomes
# in blocks; its 200 x 150 corner cut into tiles of 129 (2 x 2, padded).
py 'rng = np.random.default_rng(11)
y, x = np.mgrid[0:257, 0:257]
h = (np.sin(x / 13.0) * 50 + np.cos(y / 9.0) * 20 + rng.random((257, 257)) * 3).astype("float32")
h[40:44, 100:110] = np.nan
codes = np.array([10, 2, 6, 16], "float32")
b = codes[(x // 31 + (y // 17) * 3) % 4]
a = np.stack([h, b], 1)
write(a, "height biome", ["CELLSIZE 10", "UNITS m"], sys.argv[1])
write(a[:150, :, :200], "height biome", ["CELLSIZE 10", "UNITS m"], sys.argv[2])' "$T/w.tp" "$T/c.tp"
printf 'grassland 0\nbeach 1\nsnow 2\n* 3\n' > "$T/groups"
mkdir -p "$T/out" "$T/tiles" "$T/gd"
ok "heightmap" run_prog texport -q -e godot "$T/out/h.r16" < "$T/w.tp"
ok "splat" run_prog texport -q -f splat --biome-groups "$T/groups" --blend 2 "$T/out/s.png" < "$T/w.tp"
ok "weights" run_prog texport -q -f weights --biome-groups "$T/groups" --blend 2 "$T/out/g.png" < "$T/w.tp"
ok "normal" run_prog texport -q -f normal --zscale 2 "$T/out/n.png" < "$T/w.tp"
ok "tiles" run_prog texport -q -e godot --tile-size 129 "$T/tiles/h.r16" < "$T/c.tp"
ok "splat tiles" run_prog texport -q -e godot -f splat --biome-groups "$T/groups" --tile-size 129 "$T/tiles/s.png" < "$T/c.tp"

# The jobs, one a line: "r16 FILE SIZE LO HI" or "png FILE".
py 'import json, os
out = open(sys.argv[1], "w")
def r16(side, name):
    j = json.load(open(side))
    out.write("r16 %s %d %r %r\n" % (os.path.join(os.path.dirname(side), name), j["width"], *j["zrange"]))
r16(sys.argv[2] + "/out/h.r16.json", "h.r16")
for e in json.load(open(sys.argv[2] + "/tiles/h.r16.json"))["tiles"]["tiles"]:
    r16(sys.argv[2] + "/tiles/h.r16.json", e["file"])
for e in json.load(open(sys.argv[2] + "/tiles/s.png.json"))["tiles"]["tiles"]:
    out.write("png %s/tiles/%s\n" % (sys.argv[2], e["file"]))
for f in ("s.png", "g_0_grassland.png", "g_3_rest.png", "n.png"):
    out.write("png %s/out/%s\n" % (sys.argv[2], f))
out.close()' "$T/gd/jobs" "$T"

# What Godot reads: "TP r16 FILE" then a line "TP h ..." of heights a row
# (HTerrain's import: lo + level / 65535 (hi - lo)); "TP png FILE WIDTH
# HEIGHT FORMAT" then a line "TP x HEX" of bytes a row.
cat > "$T/gd/read.gd" <<'EOF'
extends SceneTree

func r16(path, size, lo, hi):
	var f = File.new()
	if f.open(path, File.READ) != OK or f.get_len() != size * size * 2:
		print("TP fail ", path)
		return
	print("TP r16 ", path)
	for y in range(size):
		var row = PoolStringArray()
		for x in range(size):
			var level = float(f.get_16())
			row.append("%.6f" % (lo + level / 65535.0 * (hi - lo)))
		print("TP h ", row.join(" "))
	f.close()

func png(path):
	var img = Image.new()
	if img.load(path) != OK:
		print("TP fail ", path)
		return
	var w = img.get_width()
	var data = img.get_data()
	var n = data.size() / img.get_height()
	print("TP png %s %d %d %d" % [path, w, img.get_height(), img.get_format()])
	for y in range(img.get_height()):
		print("TP x ", data.subarray(y * n, y * n + n - 1).hex_encode())

func _init():
	var args = OS.get_cmdline_args()
	var f = File.new()
	f.open(args[args.size() - 1], File.READ)
	while not f.eof_reached():
		var job = f.get_line().split(" ", false)
		if job.size() == 5:
			r16(job[1], int(job[2]), float(job[3]), float(job[4]))
		elif job.size() == 2:
			png(job[1])
	quit()
EOF
(cd "$T/gd" && LANG=en_US.UTF-8 XDG_DATA_HOME=$T/gd/data XDG_CONFIG_HOME=$T/gd/config \
    timeout 300 "$GODOT" --no-window --audio-driver Dummy -s read.gd "$T/gd/jobs") \
    > "$T/gd/said" 2> "$T/gd/err"
rc=$?
[ "$rc" = 0 ] && pass || fail "godot3-server exit $rc: $(grep -v locale "$T/gd/err" | head -c 300)"
grep '^TP ' "$T/gd/said" > "$T/gd/read"

# Godot's reads against the stream and the files: one word a check.
assert_eq "what godot read" "$(py - "$T" <<'PYEOF'
import json, os
from PIL import Image
d = sys.argv[1]
got, cur = {}, None
for line in open(d + "/gd/read"):
    w = line.split()
    if w[1] in ("r16", "png", "fail"):
        cur = w[2]; got[cur] = {"head": w[3:], "rows": []}
    elif w[1] == "h":
        got[cur]["rows"].append([float(v) for v in w[2:]])
    else:
        got[cur]["rows"].append(bytes.fromhex(w[2]) if len(w) > 2 else b"")
out = []
def heights(path, want, lo, hi):
    g = got.get(path)
    if g is None or not g["rows"]: return False
    a = np.array(g["rows"])
    want = np.where(np.isfinite(want), want, lo)
    return a.shape == want.shape and bool(np.abs(a - want).max() <= (hi - lo) / 65535 * 1.01 + 1e-5)
w = band(d + "/w.tp", "height").astype(float)
j = json.load(open(d + "/out/h.r16.json"))
out.append("height" if heights(d + "/out/h.r16", w, *j["zrange"]) else "HEIGHT")
c = band(d + "/c.tp", "height").astype(float)
j = json.load(open(d + "/tiles/h.r16.json")); g = j["tiles"]; T = g["size"]
lo, hi = j["zrange"]
full = np.pad(c, [(0, g["grid_height"] - c.shape[0]), (0, g["grid_width"] - c.shape[1])], mode="edge")
ok = len(g["tiles"]) == 4
for e in g["tiles"]:
    r, k = e["row"], e["column"]
    ok &= heights(d + "/tiles/" + e["file"], full[r * (T - 1):r * (T - 1) + T, k * (T - 1):k * (T - 1) + T], lo, hi)
out.append("tiles" if ok else "TILES")
def png(path, fmt):   # Godot's bytes = the file's; Godot's format
    g = got.get(path)
    if g is None or g["head"][2] != str(fmt): return None
    a = np.asarray(Image.open(path))
    return a if b"".join(g["rows"]) == a.tobytes() and [int(v) for v in g["head"][:2]] == [a.shape[1], a.shape[0]] else None
RGBA8, RGB8, L8 = 5, 4, 0
s = png(d + "/out/s.png", RGBA8)
out.append("splat" if s is not None and (s.astype(int).sum(2) == 255).all() else "SPLAT")
ws = [png(d + "/out/g_%s.png" % n, L8) for n in ("0_grassland", "3_rest")]
out.append("weights" if all(x is not None for x in ws) and (ws[0] == s[:, :, 0]).all() and (ws[1] == s[:, :, 3]).all() else "WEIGHTS")
n = png(d + "/out/n.png", RGB8)
out.append("normal" if n is not None and (n[:, :, 2] >= 128).all() else "NORMAL")
j = json.load(open(d + "/tiles/s.png.json"))
ts = [png(d + "/tiles/" + e["file"], RGBA8) for e in j["tiles"]["tiles"]]
out.append("splat-tiles" if len(ts) == 4 and all(t is not None and (t.astype(int).sum(2) == 255).all() for t in ts) else "SPLAT-TILES")
print(" ".join(out))
PYEOF
)" "height tiles splat weights normal splat-tiles"

finish
