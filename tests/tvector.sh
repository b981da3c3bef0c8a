#!/bin/bash
# tvector: GeoPackages that GDAL's validator passes, reaches against a
# brute-force Strahler in Python and tflow's flow, basin polygons valid and
# exact in area, contours of a cone and against gdal_contour, GeoJSON, the
# errors.
. "$(dirname "$0")/common.sh"

# vpy SCRIPT ARGS...: py with tests/vecref.py's references imported too.
vpy() { local s=$1; shift; py "from vecref import *
from tp import ESRI
$s" "$@"; }

VALIDATE="$PY -m osgeo_utils.samples.validate_gpkg"

# The real DEM, filled, with flow, directions and rivers from tflow.
run_prog timport "$DATA/jacksboro_fault_dem.tif" | run_prog tfill |
    run_prog tflow --rivers 150 > "$T/dem"

# --- Misuse (exit 2) and bad input (exit 1), with their wording --------
expect_err 2 "no output file" "no file" run_prog tvector -r < "$T/dem"
expect_err 2 "nothing to write" "no layer" run_prog tvector "$T/o.gpkg" < "$T/dem"
expect_err 2 "name it .gpkg" "unknown extension" \
    run_prog tvector -r "$T/o.shp" < "$T/dem"
expect_err 2 "one layer" "two layers in GeoJSON" \
    run_prog tvector -r -c 50 "$T/o.geojson" < "$T/dem"
expect_err 2 "one output file, not 2" "two files" \
    run_prog tvector -r "$T/a.gpkg" "$T/b.gpkg" < "$T/dem"
expect_err 2 "--contours" "bad interval" run_prog tvector -c 0 "$T/o.gpkg" < "$T/dem"
expect_err 2 "--labels: bad band name" "bad band name" \
    run_prog tvector --basins -l 'A B' "$T/o.gpkg" < "$T/dem"
expect_err 2 "--dir-codes" "bad codes" run_prog tvector -r --dir-codes arcgis "$T/o.gpkg" < "$T/dem"
expect_err 1 "the input has no band 'basin' (the labels for --basins)" \
    "no basin band" run_prog tvector --basins "$T/o.gpkg" < "$T/dem"
run_prog tband --keep height < "$T/dem" > "$T/h"
expect_err 1 "no band 'dir' (tflow makes it)" "no dir band" \
    run_prog tvector -r "$T/o.gpkg" < "$T/h"
run_prog tflow < "$T/h" > "$T/nr"
expect_err 1 "no band 'river' (tflow --rivers makes it)" "no river band" \
    run_prog tvector -r "$T/o.gpkg" < "$T/nr"
head -c 20000 "$T/dem" > "$T/trunc"
expect_exit 1 "truncated stream" run_prog tvector -r "$T/o.gpkg" < "$T/trunc"
[ ! -e "$T/o.gpkg" ] && pass || fail "a failed run left $T/o.gpkg"
vpy 'write(np.array([[[1, 3], [1, 1]]]), "dir river")' > "$T/baddir"
expect_err 1 "dir: 3 at column 1, row 0 is not an ESRI direction code" \
    "bad direction code" run_prog tvector -r "$T/o.gpkg" < "$T/baddir"
mkdir "$T/dir.gpkg"
expect_exit 1 "a directory" run_prog tvector -r "$T/dir.gpkg" < "$T/dem"

# A grid of NaN: every layer empty, the file still a valid GeoPackage.
vpy 'write(np.full((1, 4, 3), np.nan), "height dir river basin", ["CRS EPSG:32633"])' > "$T/nan"
ok "all NaN" run_prog tvector -q -r --basins -c 1 "$T/nan.gpkg" < "$T/nan"
ok "all NaN validates" $VALIDATE "$T/nan.gpkg"
assert_eq "all NaN: no features" "$(ogrinfo -so -al "$T/nan.gpkg" |
    sed -n 's/^Feature Count: //p' | tr '\n' ' ')" "0 0 0 "

# An EPSG code PROJ does not know: no GeoPackage (GeoJSON needs no WKT).
for c in abc EPSG:-5 EPSG:abc ESRI:102003; do
	vpy 'write(np.ones((2, 2)), "height", ["CRS " + sys.argv[1]])' "$c" > "$T/badcrs"
	expect_err 1 "^tvector: CRS '$c' cannot be written" "CRS $c refused" \
	    run_prog tvector --contours 1 "$T/badcrs.gpkg" < "$T/badcrs"
	[ ! -e "$T/badcrs.gpkg" ] && pass || fail "CRS $c: a file was left"
done
vpy 'write(np.ones((2, 2)), "height", ["CRS EPSG:999999"])' > "$T/unknown"
expect_err 1 "tvector: PROJ does not know the CRS EPSG:999999" "unknown EPSG" \
    run_prog tvector -c 1 "$T/u.gpkg" < "$T/unknown"
ok "unknown EPSG in GeoJSON" run_prog tvector -q -c 0.5 "$T/u.geojson" < "$T/unknown"

# --- Rivers: GeoPackage, validator, ogrinfo --------------------------------
ok "rivers and contours" run_prog tvector -q -r -c 100 "$T/dem.gpkg" < "$T/dem"
ok "validate_gpkg" $VALIDATE "$T/dem.gpkg"
ogrinfo -so "$T/dem.gpkg" rivers > "$T/info" 2>&1
grep -q "Geometry: Line String" "$T/info" && pass || fail "ogrinfo geometry"
grep -q 'ID\["EPSG",4326\]' "$T/info" && pass || fail "ogrinfo CRS"
for f in "strahler: Integer64" "up_cells: Integer64" "up_area_m2: Real" \
    "length_m: Real" "drop: Real" "slope: Real" "down_id: Integer64"; do
	grep -q "^$f" "$T/info" && pass || fail "ogrinfo field $f"
done
# Every river cell in exactly one reach, the reaches' count from Python.
assert_eq "reach count: sources and confluences" "$(ogrinfo -so "$T/dem.gpkg" rivers |
    sed -n 's/^Feature Count: //p')" "$(vpy '
b = bands(sys.argv[1]); d, riv = b["dir"], b["river"] != 0
ups = np.zeros(d.shape, int)
for r, c in zip(*np.nonzero(riv)):
    code = float(d[r, c])
    if code in ESRI:
        rr, cc = r + ESRI[code][0], c + ESRI[code][1]
        if 0 <= rr < d.shape[0] and 0 <= cc < d.shape[1] and riv[rr, cc]:
            ups[rr, cc] += 1
print(int(((ups != 1) & riv).sum()))' "$T/dem")"

# spacing(h, row): metres between cell centres east-west and north-south
# on row `row` of a geographic (EPSG:4326) grid, WGS84, as tflow measures.
SPACING='
def spacing(h, row):
    cs = float(h["CELLSIZE"])
    if h.get("CRS") != "EPSG:4326":
        return cs, cs
    a, f = 6378137.0, 1 / 298.257223563
    lat = np.radians(float(h["ORIGIN"].split()[1]) - (row + 0.5) * cs)
    e2 = f * (2 - f); w = np.sqrt(1 - e2 * np.sin(lat) ** 2)
    return (np.radians(cs) * a / w * np.cos(lat),
            np.radians(cs) * a * (1 - e2) / w ** 3)
'

# check_reaches STREAM GPKG: each reach's Strahler order is the brute-force
# order of its first cell, up_cells is tflow's flow at its last cell, its
# down_id reach starts where it ends, the lengths add up to every river
# link once. With tflow --order (after the merge), pass that stream: its
# order band is then read instead of computed, and must agree too.
check_reaches() {
	vpy "$SPACING"'
src, gpkg = sys.argv[1:3]
h = header(src); b = bands(src)
x0, y0 = map(float, h["ORIGIN"].split()); cs = float(h["CELLSIZE"])
ref = strahler(b["dir"], b["river"])
feats = layer(gpkg, "rivers")
cell = lambda p: (round((y0 - p[1]) / cs - 0.5), round((p[0] - x0) / cs - 0.5))
bad = []
first = {}
for fid, f, g in feats:
    pts = g.GetPoints()
    first[fid] = cell(pts[0])
for fid, f, g in feats:
    pts = g.GetPoints()
    r, c = cell(pts[0])
    if f["strahler"] != ref[r, c]:
        bad.append("order %d" % fid)
    lr, lc = cell(pts[f["cells"] - 1])
    if f["up_cells"] != b["flow"][lr, lc]:
        bad.append("up_cells %d" % fid)
    if f["down_id"] is not None and first[f["down_id"]] != cell(pts[-1]):
        bad.append("down_id %d" % fid)
    if "order" in b and f["strahler"] != b["order"][r, c]:
        bad.append("order band %d" % fid)
total = sum(f["length_m"] for _, f, _ in feats)
riv = (b["river"] != 0) & np.isfinite(b["dir"])
link = 0.0
for r, c in zip(*np.nonzero(riv)):
    code = float(b["dir"][r, c])
    if code in ESRI:
        dr, dc = ESRI[code]
        rr, cc = r + dr, c + dc
        if 0 <= rr < riv.shape[0] and 0 <= cc < riv.shape[1] and riv[rr, cc]:
            dx, dy = spacing(h, r)
            link += np.hypot(dx * dc, dy * dr)
if abs(total - link) > 1e-9 * link:
    bad.append("length %r != %r" % (total, link))
print(" ".join(bad[:5]) or "ok")' "$1" "$2"
}
assert_eq "reaches against Python and tflow" "$(check_reaches "$T/dem" "$T/dem.gpkg")" ok

# up_area_m2, square metres on this geographic grid, against tflow --area's
# flow at each reach's last cell (tflow rounds its sums to float32).
run_prog tfill < "$T/h" | run_prog tflow --area > "$T/area"
assert_eq "up_area_m2 as tflow --area" "$(vpy '
h = header(sys.argv[1]); a = band(sys.argv[1], "flow")
x0, y0 = map(float, h["ORIGIN"].split()); cs = float(h["CELLSIZE"])
bad = 0
for _, f, g in layer(sys.argv[2], "rivers"):
    p = g.GetPoints()[f["cells"] - 1]
    r, c = round((y0 - p[1]) / cs - 0.5), round((p[0] - x0) / cs - 0.5)
    bad += abs(f["up_area_m2"] - a[r, c]) > 1e-5 * a[r, c]
print(bad)' "$T/area" "$T/dem.gpkg")" 0

# The same orders from an order band (the brute force written as one).
vpy '
h, a = read(sys.argv[1]); b = bands(sys.argv[1])
o = strahler(b["dir"], b["river"])
names = h["BANDS"].split() + ["order"]
extra = ["CELLSIZE " + h["CELLSIZE"], "ORIGIN " + h["ORIGIN"], "CRS " + h["CRS"]]
write(np.concatenate([a, o[:, None, :]], axis=1), names, extra)' "$T/dem" > "$T/dem-order"
ok "rivers from an order band" run_prog tvector -q -r "$T/order.gpkg" < "$T/dem-order"
assert_eq "order band read" "$(check_reaches "$T/dem-order" "$T/order.gpkg")" ok
assert_eq "order band changes nothing" "$(vpy '
a = [(f, i) for f, i, g in layer(sys.argv[1], "rivers")]
b = [(f, i) for f, i, g in layer(sys.argv[2], "rivers")]
print(a == b)' "$T/dem.gpkg" "$T/order.gpkg")" True
assert_eq "order reaches 3 or more" "$(vpy '
print(max(f["strahler"] for _, f, _ in layer(sys.argv[1], "rivers")) >= 3)' \
    "$T/dem.gpkg")" True

# GRASS codes give the same reaches.
run_prog tfill < "$T/h" | run_prog tflow --dir-codes grass --rivers 150 > "$T/demg"
ok "GRASS codes" run_prog tvector -q -r --dir-codes grass "$T/g.gpkg" < "$T/demg"
assert_eq "GRASS = ESRI reaches" "$(vpy '
a = [(f, g.ExportToWkt()) for _, f, g in layer(sys.argv[1], "rivers")]
b = [(f, g.ExportToWkt()) for _, f, g in layer(sys.argv[2], "rivers")]
print(a == b)' "$T/dem.gpkg" "$T/g.gpkg")" True

# Same input, same bytes; a GeoPackage through a FIFO is the same file.
ok "rerun" run_prog tvector -q -r -c 100 "$T/dem2.gpkg" < "$T/dem"
assert_same "deterministic GeoPackage" "$T/dem.gpkg" "$T/dem2.gpkg"
mkfifo "$T/fifo.gpkg"
cat "$T/fifo.gpkg" > "$T/fromfifo.gpkg" &
ok "write to a FIFO" run_prog tvector -q -r -c 100 "$T/fifo.gpkg" < "$T/dem"
wait
# (SQLite's file change counter differs: the FIFO's was built in memory)
ok "FIFO GeoPackage validates" $VALIDATE "$T/fromfifo.gpkg"
assert_eq "FIFO GeoPackage holds the same" "$(ogrinfo -al -q "$T/fromfifo.gpkg" | md5sum)" \
    "$(ogrinfo -al -q "$T/dem.gpkg" | md5sum)"

# --- Basins: valid polygons whose areas sum to the valid grid ------------
# check_basins STREAM GPKG BAND: every polygon valid (GEOS), exteriors
# counter-clockwise and holes clockwise, each basin's exact lattice area
# equal to its cell count and to the cells of its label, the sum equal to
# the valid cells, one feature per label.
check_basins() {
	vpy '
src, gpkg, name = sys.argv[1:4]
h = header(src); lab = band(src, name)
x0, y0 = map(float, h["ORIGIN"].split()); cs = float(h["CELLSIZE"])
bad = []
total = 0
labels = sorted(set(lab[np.isfinite(lab)].tolist()))
feats = layer(gpkg, "basins")
if [f["label"] for _, f, _ in feats] != labels:
    bad.append("labels")
for fid, f, g in feats:
    if not g.IsValid():
        bad.append("invalid %d" % fid)
    a = 0
    for rings in lattice(g, x0, y0, cs):
        if area2(rings[0]) <= 0 or any(area2(r) >= 0 for r in rings[1:]):
            bad.append("orientation %d" % fid)
        a += sum(area2(r) for r in rings)
    n = int((lab == f["label"]).sum())
    if a != 2 * n or f["cells"] != n:
        bad.append("area %d: %d/2 vs %d" % (fid, a, n))
    total += a
if total != 2 * int(np.isfinite(lab).sum()):
    bad.append("total")
print(" ".join(bad[:5]) or "ok")' "$@"
}

# A checkerboard of two labels on 30 m cells, with a NaN hole: every cell
# its own polygon, touching its neighbours only at corners.
vpy '
a = (np.indices((6, 7)).sum(0) % 2).astype(float) + 1
a[2, 3] = np.nan
write(a, "basin", ["CELLSIZE 30", "ORIGIN 500000 4650000", "CRS EPSG:32633"])' > "$T/checker"
ok "checkerboard" run_prog tvector -q --basins "$T/checker.gpkg" < "$T/checker"
ok "checkerboard validates" $VALIDATE "$T/checker.gpkg"
assert_eq "checkerboard polygons" "$(check_basins "$T/checker" "$T/checker.gpkg" basin)" ok
assert_eq "checkerboard parts" "$(vpy '
print([g.GetGeometryCount() for _, f, g in layer(sys.argv[1], "basins")])' \
    "$T/checker.gpkg")" "[21, 20]"
assert_eq "exact GEOS areas sum" "$(vpy '
print(sum(g.Area() for _, f, g in layer(sys.argv[1], "basins")) == 41 * 900)' \
    "$T/checker.gpkg")" True

# A ring of one label around another, touching itself diagonally: a hole
# that touches the exterior at a corner, and an island in the hole.
vpy '
a = np.array([[1, 1, 1, 1, 1],
              [1, 2, 2, 2, 1],
              [1, 2, 1, 2, 1],
              [1, 2, 2, 1, 1],
              [1, 1, 1, 1, 3]], float)
write(a, "basin", ["CELLSIZE 30", "ORIGIN 500000 4650000", "CRS EPSG:32633"])' > "$T/ring"
ok "ring" run_prog tvector -q --basins "$T/ring.gpkg" < "$T/ring"
assert_eq "ring polygons" "$(check_basins "$T/ring" "$T/ring.gpkg" basin)" ok

# Basins of the real DEM, labelled by their outlets in Python.
vpy '
h, a = read(sys.argv[1]); b = bands(sys.argv[1])
names = h["BANDS"].split() + ["basin"]
extra = ["CELLSIZE " + h["CELLSIZE"], "ORIGIN " + h["ORIGIN"], "CRS " + h["CRS"]]
write(np.concatenate([a, basins(b["dir"])[:, None, :]], axis=1), names, extra)' \
    "$T/dem" > "$T/dem-basin"
ok "DEM basins" run_prog tvector -q --basins -r "$T/basins.gpkg" < "$T/dem-basin"
ok "DEM basins validate" $VALIDATE "$T/basins.gpkg"
assert_eq "DEM basin polygons" "$(check_basins "$T/dem-basin" "$T/basins.gpkg" basin)" ok
ok "ogr2ogr -makevalid" ogr2ogr -f GPKG -makevalid "$T/mv.gpkg" "$T/basins.gpkg" basins
assert_eq "-makevalid changes nothing" "$(vpy '
a = [g.ExportToWkb() for _, _, g in layer(sys.argv[1], "basins")]
b = [g.ExportToWkb() for _, _, g in layer(sys.argv[2], "basins")]
print(len(a), a == b)' "$T/basins.gpkg" "$T/mv.gpkg")" "$(vpy '
print(len(set(basins(band(sys.argv[1], "dir")).ravel().tolist())))' "$T/dem") True"
assert_eq "outlets hold the most flow" "$(vpy '
h = header(sys.argv[1]); b = bands(sys.argv[1])
x0, y0 = map(float, h["ORIGIN"].split()); cs = float(h["CELLSIZE"])
bad = 0
for _, f, g in layer(sys.argv[2], "basins"):
    m = b["basin"] == f["label"]
    r = round((y0 - f["outlet_y"]) / cs - 0.5); c = round((f["outlet_x"] - x0) / cs - 0.5)
    bad += not (m[r, c] and b["flow"][r, c] == b["flow"][m].max() == f["max_flow"])
print(bad)' "$T/dem-basin" "$T/basins.gpkg")" 0

# On tflow's own bands (tflow --order --basins), the two checks above take
# its stream as it is (check_reaches then also compares each reach with the
# order band).
run_prog timport "$DATA/jacksboro_fault_dem.tif" | run_prog tfill |
    run_prog tflow -q --rivers 150 --order --basins > "$T/tf"
ok "tflow's bands" run_prog tvector -q -r -b "$T/tf.gpkg" < "$T/tf"
assert_eq "tflow's orders" "$(check_reaches "$T/tf" "$T/tf.gpkg")" ok
assert_eq "tflow's basins" "$(check_basins "$T/tf" "$T/tf.gpkg" basin)" ok

# Basin areas on this geographic grid (EPSG:4326) are square metres on
# WGS84: they sum to the grid's area from the ellipsoid's exact area of
# each row (the authalic formula, not tflow's spacing), and each is its
# cells' areas row by row.
assert_eq "basins in m2 sum to the ellipsoid's grid area" "$(vpy '
h = header(sys.argv[1]); lab = band(sys.argv[1], "basin")
x0, y0 = map(float, h["ORIGIN"].split()); cs = float(h["CELLSIZE"])
a, f = 6378137.0, 1 / 298.257223563
e2 = f * (2 - f); e = np.sqrt(e2)
def q(lat):
    s = np.sin(np.radians(lat))
    return (1 - e2) * (s / (1 - e2 * s * s) - np.log((1 - e * s) / (1 + e * s)) / (2 * e))
n = np.arange(lab.shape[0] + 1)
row = a * a / 2 * np.radians(cs) * -np.diff(q(y0 - n * cs))
feats = layer(sys.argv[2], "basins")
total = sum(f["area_m2"] for _, f, _ in feats)
want = (np.isfinite(lab) * row[:, None]).sum()
bad = [] if abs(total - want) <= 1e-9 * want else ["total %r != %r" % (total, want)]
for fid, f, g in feats:
    w = ((lab == f["label"]) * row[:, None]).sum()
    if abs(f["area_m2"] - w) > 1e-9 * w:
        bad.append("basin %d: %r != %r" % (fid, f["area_m2"], w))
print(" ".join(bad[:3]) or "ok")' "$T/tf" "$T/tf.gpkg")" ok

# On a projected grid (the same stream called EPSG:32633 with 10 m cells)
# the values are what they were before the fields said their units: areas
# cells x 100, lengths cell steps x 10 or 10 sqrt 2.
vpy '
h, a = read(sys.argv[1])
write(a, h["BANDS"], ["CELLSIZE 10", "ORIGIN 500000 4650000", "CRS EPSG:32633"])' \
    "$T/tf" > "$T/tfp"
ok "projected" run_prog tvector -q -r -b "$T/tfp.gpkg" < "$T/tfp"
assert_eq "projected: m2 and m are map units" "$(vpy '
b = bands(sys.argv[1]); bad = 0
for _, f, g in layer(sys.argv[2], "rivers"):
    bad += f["up_area_m2"] != 100 * f["up_cells"]
    p = g.GetPoints()
    bad += abs(f["length_m"] - sum(np.hypot(p[i + 1][0] - p[i][0], p[i + 1][1] - p[i][1])
                                   for i in range(len(p) - 1))) > 1e-9 * max(f["length_m"], 1)
for _, f, g in layer(sys.argv[2], "basins"):
    bad += f["area_m2"] != 100 * f["cells"] or g.Area() != f["area_m2"]
print(bad)' "$T/tfp" "$T/tfp.gpkg")" 0

# --- The QGIS styles in share/qgis ------------------------------------------
# Rivers: five Strahler categories, light to dark blue (luminance falling,
# each colour saturated so it stands out of a grey hillshade: no white),
# widths growing; basins: a semi-transparent fill whose colour comes from
# the label, with an outline. Every field a style names is a field of the
# layer tvector writes.
assert_eq "styles for a hillshade" "$(vpy '
import re, xml.dom.minidom as X
share = sys.argv[1]; bad = []
d = X.parse(share + "/tvector-rivers.qml")
cats = [int(c.getAttribute("value")) for c in d.getElementsByTagName("category")]
lum, width = [], []
for s in d.getElementsByTagName("symbol"):
    top = s.getElementsByTagName("layer")[-1]
    p = {o.getAttribute("k"): o.getAttribute("v") for o in top.getElementsByTagName("prop")}
    r, g, b, a = map(int, p["line_color"].split(","))
    if max(r, g, b) - min(r, g, b) < 80 or b <= max(r, g):
        bad.append("not a clear blue: %s" % p["line_color"])
    lum.append(0.2126 * r + 0.7152 * g + 0.0722 * b); width.append(float(p["line_width"]))
if cats != [1, 2, 3, 4, 5]: bad.append("categories %r" % cats)
if lum != sorted(lum, reverse=True) or len(set(lum)) != 5: bad.append("not light to dark")
if width != sorted(width) or len(set(width)) != 5: bad.append("widths")
fields = {l: [f for _, f, _ in layer(sys.argv[2], l)][0].keys() for l in ("rivers", "basins")}
for l, f in (("rivers", "tvector-rivers.qml"), ("basins", "tvector-basins.qml")):
    text = open(share + "/" + f).read()
    for name in re.findall("&quot;([a-z_0-9]+)&quot;", text):
        if name not in fields[l]: bad.append("%s names %s" % (f, name))
d = X.parse(share + "/tvector-basins.qml")
dd = [o for o in d.getElementsByTagName("Option") if o.getAttribute("name") == "fillColor"]
if not dd or "label" not in open(share + "/tvector-basins.qml").read(): bad.append("basins: no colour by label")
p = {o.getAttribute("k"): o.getAttribute("v") for o in d.getElementsByTagName("prop")}
if not 0 < int(p["color"].split(",")[3]) < 255 or p["outline_style"] != "solid":
    bad.append("basins: fill not semi-transparent or no outline")
print(" ".join(bad[:4]) or "ok")' "$ROOT/share/qgis" "$T/tf.gpkg")" ok

# --- Lakes ---------------------------------------------------------------
# A hand-made chain on 10 m cells, river -> lake 1 -> river -> lake 2 ->
# river along row 2, all draining east, with a tributary from (0,2) into
# lake 1 (rows 1-3, columns 2-3) and lake 2 (rows 1-3, columns 6-7), each
# drained through its cell in row 2 to the next column:
#   lake 1: heights 10 (one 10.5), depths 1 2 / 3 0.5 / 1.5 2: level 10,
#           max_depth 3, volume 10 x 100 = 1000, area 600, outlet (2,4)
#   lake 2: heights 5 (one 5.25), depths all 1: level 5, volume 600,
#           outlet (2,8)
# Reaches, heads in row-major order: 1 the tributary and 2 the source both
# end in lake 1 (order 1, down 3); 3 leaves lake 1 (order 2: two reaches
# of order 1 enter) and ends in lake 2; 4 leaves lake 2 (order 2).
vpy '
H, W = 5, 12
lake = np.zeros((H, W)); d = np.zeros((H, W)); riv = np.zeros((H, W))
z = np.full((H, W), 20.0); dep = np.zeros((H, W)); flow = np.ones((H, W))
d[0:2, :] = 4; d[3:5, :] = 64; d[2, :] = 1
for lid, c0, lev in ((1, 2, 10.0), (2, 6, 5.0)):
    lake[1:4, c0:c0 + 2] = lid
    z[1:4, c0:c0 + 2] = lev
    d[1, c0] = 2; d[1, c0 + 1] = 4; d[3, c0] = 128; d[3, c0 + 1] = 64
z[1, 3] = 10.5; z[3, 7] = 5.25
dep[1:4, 2:4] = [[1, 2], [3, 0.5], [1.5, 2]]
dep[1:4, 6:8] = 1
riv[2, [0, 1, 4, 5, 8, 9, 10, 11]] = 1; riv[0, 2] = 1
z[2, :2] = [30, 25]; z[2, 4:6] = [9, 8]; z[2, 8:] = [4, 3, 2, 1]
write(np.stack([z, dep, flow, d, riv, lake], axis=1),
      "height depth flow dir river lake",
      ["CELLSIZE 10", "ORIGIN 1000 2000", "CRS EPSG:32633"])' > "$T/chain"
ok "chain lakes" run_prog tvector -q -r --lakes "$T/chain.gpkg" < "$T/chain"
ok "chain validates" $VALIDATE "$T/chain.gpkg"
ogrinfo -so "$T/chain.gpkg" lakes > "$T/info" 2>&1
grep -q "Geometry: Multi Polygon" "$T/info" && pass || fail "lakes geometry"
for f in "lake_id: Integer64" "level: Real" "area_m2: Real" "max_depth: Real" \
    "volume: Real" "outlet_x: Real" "outlet_y: Real" "outlet_reach: Integer64"; do
	grep -q "^$f" "$T/info" && pass || fail "ogrinfo lakes field $f"
done
assert_eq "chain reaches" "$(vpy '
for fid, f, g in layer(sys.argv[1], "rivers"):
    print(fid, f["strahler"], f["down_id"], f["lake_in"], f["lake_out"], g.GetPoints()[-1])' \
    "$T/chain.gpkg" | tr '\n' ';')" "1 1 3 1 None (1025.0, 1985.0);\
2 1 3 1 None (1025.0, 1975.0);3 2 4 2 1 (1065.0, 1975.0);\
4 2 None None 2 (1115.0, 1975.0);"
assert_eq "chain lakes" "$(vpy '
for fid, f, g in layer(sys.argv[1], "lakes"):
    print(fid, f["lake_id"], f["level"], f["area_m2"], f["max_depth"], f["volume"],
          f["outlet_x"], f["outlet_y"], f["outlet_reach"], g.Area())' \
    "$T/chain.gpkg" | tr '\n' ';')" "1 1 10.0 600.0 3.0 1000.0 1045.0 1975.0 3 600.0;\
2 2 5.0 600.0 1.0 600.0 1085.0 1975.0 4 600.0;"
# Without a depth band: no depth, no volume; without rivers: no reach.
run_prog tband --drop depth,river < "$T/chain" > "$T/chain-nd"
ok "lakes without depth" run_prog tvector -q --lakes "$T/nd.geojson" < "$T/chain-nd"
assert_eq "no depth: NULL" "$(vpy '
print([(f["max_depth"], f["volume"], f["outlet_reach"], f["outlet_x"])
       for _, f, _ in layer(sys.argv[1], "lakes")])' "$T/nd.geojson")" \
    "[(None, None, None, 1045.0), (None, None, None, 1085.0)]"
expect_err 1 "the input has no band 'lake' (tflow makes it)" "no lake band" \
    run_prog tvector --lakes "$T/o.gpkg" < "$T/dem"
vpy 'write(np.array([[[0, 1.5], [0, 0], [1, 1], [1, 1]]]), "lake river dir height")' > "$T/badlake"
expect_err 1 "lake: 1.5 at column 1, row 0 is not a lake id" "bad lake id" \
    run_prog tvector --lakes "$T/o.gpkg" < "$T/badlake"
expect_err 1 "lake: 1.5 at column 1, row 0 is not a lake id" "bad lake id (rivers)" \
    run_prog tvector -r "$T/o.gpkg" < "$T/badlake"
assert_eq "no lake band: rivers without lake fields" "$(ogrinfo -so "$T/dem.gpkg" rivers |
    grep -c '^lake_')" 0

# The real DEM (EPSG:4326) through tfill --depth and tflow, whose lakes
# (every filled depression, --min-lake 1) end the rivers at their shores.
run_prog timport "$DATA/jacksboro_fault_dem.tif" | run_prog tfill --depth |
    run_prog tflow --rivers 150 --min-lake 1 > "$T/dl"
ok "DEM lakes" run_prog tvector -q -r --lakes "$T/dl.gpkg" < "$T/dl"
ok "DEM lakes validate" $VALIDATE "$T/dl.gpkg"
assert_eq "DEM lakes: areas, polygons, levels, outlets, reaches" "$(vpy "$SPACING"'
src, gpkg = sys.argv[1:3]
h = header(src); b = bands(src); lake = b["lake"]
x0, y0 = map(float, h["ORIGIN"].split()); cs = float(h["CELLSIZE"])
cell = lambda p: (round((y0 - p[1]) / cs - 0.5), round((p[0] - x0) / cs - 0.5))
bad = []
lakes = layer(gpkg, "lakes"); rivers = layer(gpkg, "rivers")
first = {fid: cell(g.GetPoints()[0]) for fid, f, g in rivers}
n = int(lake.max())
if n < 3 or [f["lake_id"] for _, f, _ in lakes] != list(range(1, n + 1)):
    bad.append("ids")
rowarea = np.array([np.prod(spacing(h, r)) for r in range(lake.shape[0])])
cellarea = np.repeat(rowarea[:, None], lake.shape[1], axis=1)
total = sum(f["area_m2"] for _, f, _ in lakes)
if abs(total - cellarea[lake > 0].sum()) > 1e-9 * total:
    bad.append("total area")
for fid, f, g in lakes:
    m = lake == f["lake_id"]
    if not g.IsValid() or sum(area2(r) for p in lattice(g, x0, y0, cs) for r in p) != 2 * m.sum():
        bad.append("polygon %d" % fid)
    if abs(f["area_m2"] - cellarea[m].sum()) > 1e-9 * f["area_m2"]:
        bad.append("area %d" % fid)
    if f["level"] != float(b["height"][m].min()) or f["max_depth"] != float(b["depth"][m].max()):
        bad.append("level %d" % fid)
    if abs(f["volume"] - (b["depth"] * cellarea)[m].sum()) > 1e-6 * f["volume"]:
        bad.append("volume %d" % fid)
    if f["outlet_x"] is not None:
        r, c = cell((f["outlet_x"], f["outlet_y"]))
        if lake[r, c] == f["lake_id"]:
            bad.append("outlet in lake %d" % fid)
        if f["outlet_reach"] is not None and first[f["outlet_reach"]] != (r, c):
            bad.append("outlet reach %d" % fid)
entered = set()
for fid, f, g in rivers:
    pts = [cell(p) for p in g.GetPoints()]
    if any(lake[p] > 0 for p in pts[:-1]):
        bad.append("reach %d in a lake" % fid)
    last = lake[pts[-1]]
    if (f["lake_in"] or 0) != (int(last) if last > 0 else 0):
        bad.append("lake_in %d" % fid)
    if f["lake_in"]:
        entered.add(f["lake_in"])
    if f["lake_out"]:
        r, c = pts[0]
        near = [lake[r + dr, c + dc] for dr, dc in ESRI.values()
                if 0 <= r + dr < lake.shape[0] and 0 <= c + dc < lake.shape[1]]
        if f["lake_out"] not in near:
            bad.append("lake_out %d" % fid)
if not entered:
    bad.append("no reach enters a lake")
print(" ".join(bad[:5]) or "ok")' "$T/dl" "$T/dl.gpkg")" ok
ok "DEM lakes GeoJSON" run_prog tvector -q --lakes "$T/dl.geojson" < "$T/dl"
assert_eq "GeoJSON lakes = GeoPackage lakes" "$(vpy '
a = [(f, g.ExportToWkb()) for _, f, g in layer(sys.argv[1], "lakes")]
b = [(f, g.ExportToWkb()) for _, f, g in layer(sys.argv[2], "lakes")]
print(len(a) > 0 and a == b)' "$T/dl.geojson" "$T/dl.gpkg")" True

# --- GeoJSON -----------------------------------------------------------
ok "GeoJSON basins" run_prog tvector -q --basins "$T/checker.geojson" < "$T/checker"
assert_eq "GeoJSON parses, crs named" "$($PY -c '
import json, sys
j = json.load(open(sys.argv[1]))
print(len(j["features"]), j["crs"]["properties"]["name"], j["features"][0]["id"])' \
    "$T/checker.geojson")" "2 urn:ogc:def:crs:EPSG::32633 1"
ogrinfo -so -al "$T/checker.geojson" > "$T/info" 2>&1
grep -q "Feature Count: 2" "$T/info" && grep -q 'ID\["EPSG",32633\]' "$T/info" &&
    pass || fail "ogrinfo reads the GeoJSON: $(head -c 300 "$T/info")"
ok "GeoJSON rivers (EPSG:4326)" run_prog tvector -q -r "$T/r.geojson" < "$T/dem"
assert_eq "RFC 7946: no crs member, same reaches" "$(vpy '
import json
j = json.load(open(sys.argv[1]))
g = [(f["properties"], f["geometry"]["coordinates"]) for f in j["features"]]
o = [(p, [list(q) for q in geom.GetPoints()]) for _, p, geom in layer(sys.argv[2], "rivers")]
print("crs" in j, g == o)' "$T/r.geojson" "$T/dem.gpkg")" "False True"

# --- Contours ----------------------------------------------------------
# A cone z = distance from the centre of a 101 x 101 grid of 10 m cells:
# every vertex of the ring at level L lies within half a cell of radius L.
vpy '
y, x = np.indices((101, 101))
write(10 * np.hypot(x - 50, y - 50), "height",
      ["CELLSIZE 10", "ORIGIN 1000 2000", "CRS EPSG:32633"])' > "$T/cone"
ok "cone contours" run_prog tvector -q -c 50 "$T/cone.gpkg" < "$T/cone"
assert_eq "cone rings" "$(vpy '
bad, levels = [], []
for _, f, g in layer(sys.argv[1], "contours"):
    p = np.array(g.GetPoints())
    r = np.hypot(p[:, 0] - 1505, p[:, 1] - 1495)
    if f["closed"]:
        levels.append(f["level"])
        if (p[0] != p[-1]).any():
            bad.append("open ring")
    if np.abs(r - f["level"]).max() > 5:
        bad.append("%g off by %g" % (f["level"], np.abs(r - f["level"]).max()))
print(" ".join(bad[:3]) or levels)' "$T/cone.gpkg")" \
    "[50.0, 100.0, 150.0, 200.0, 250.0, 300.0, 350.0, 400.0, 450.0, 500.0]"
assert_eq "higher ground on the left" "$(vpy '
g = layer(sys.argv[1], "contours")[0][2]
p = np.array(g.GetPoints())
# on a cone, higher is outward: outward on the left is clockwise
print(sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(p, p[1:])) < 0)' "$T/cone.gpkg")" True

# The real DEM beside gdal_contour -i 100: the same levels, and vertex
# counts per level within 1 %, at levels 300.5, 400.5, ... (no height on a
# level) and at 300, 400, ... This DEM holds whole metres: a height exactly
# on a level puts the line through that cell centre, which tvector writes
# once and gdal_contour as two points a hair apart (it nudges the height),
# so its points closer than 1/1000 of a cell count once here.
run_prog timport "$DATA/jacksboro_fault_dem.tif" > "$T/raw"
for off in 0.5 0; do
	ok "gdal_contour -off $off" gdal_contour -q -i 100 -off "$off" \
	    -a elev "$DATA/jacksboro_fault_dem.tif" "$T/gdal$off.gpkg"
	ok "tvector --base $off" run_prog tvector -q -c 100 --base "$off" \
	    "$T/tp$off.gpkg" < "$T/raw"
	assert_eq "as gdal_contour, base $off" "$(vpy '
def count(path, lname, field):
    n = {}
    for _, f, g in layer(path, lname):
        p = np.array(g.GetPoints())
        far = np.hypot(*np.diff(p, axis=0).T) > 1e-3 / 1200
        n[f[field]] = n.get(f[field], 0) + 1 + int(far.sum())
    return n
from osgeo import ogr
ds = ogr.Open(sys.argv[1]); name = ds.GetLayer(0).GetName(); ds = None
g = count(sys.argv[1], name, "elev")
t = count(sys.argv[2], "contours", "level")
bad = [k for k in g if abs(t.get(k, 0) - g[k]) > 0.01 * g[k]]
print(sorted(g) == sorted(t), len(g), bad)' "$T/gdal$off.gpkg" "$T/tp$off.gpkg")" \
	    "True 8 []"
done

# --- Streaming: basins and contours from rows as they come ----------------
# Without --rivers the stream is read row by row; with it, whole, and the
# same code is fed from the grid. same_streamed NAME STREAM OPTS...: the
# basins and contours tables of the two GeoPackages hold the same rows,
# byte for byte (fid, geometry blob, fields), and are not empty; and a
# GeoJSON of each layer, streamed, holds the same features as the
# whole-grid GeoPackage's layer (coordinates and fields exactly).
same_streamed() {
	local name=$1 in=$2 bo=$3 co=$4 tables=""
	[ -n "$bo" ] && tables=basins
	[ -n "$co" ] && tables="$tables contours"
	ok "$name streamed" run_prog tvector -q $bo $co "$T/s-$name.gpkg" < "$in"
	ok "$name whole" run_prog tvector -q -r $bo $co "$T/w-$name.gpkg" < "$in"
	assert_eq "$name: streamed GeoPackage = whole" "$(vpy '
import sqlite3
a, b = sqlite3.connect(sys.argv[1]), sqlite3.connect(sys.argv[2])
out = []
for t in sys.argv[3:]:
    q = "SELECT * FROM \"%s\" ORDER BY fid" % t
    ra, rb = a.execute(q).fetchall(), b.execute(q).fetchall()
    out.append(len(ra) > 0 and ra == rb)
print(all(out))' "$T/s-$name.gpkg" "$T/w-$name.gpkg" $tables)" True
	for l in $tables; do
		local o=$bo
		[ $l = contours ] && o=$co
		ok "$name $l GeoJSON" run_prog tvector -q $o "$T/s-$name-$l.geojson" < "$in"
		assert_eq "$name: streamed GeoJSON $l = whole" "$(vpy '
from osgeo import ogr
ds = ogr.Open(sys.argv[1]); name = ds.GetLayer(0).GetName(); ds = None
j = [(f, g.ExportToWkb()) for _, f, g in layer(sys.argv[1], name)]
w = [(f, g.ExportToWkb()) for _, f, g in layer(sys.argv[2], sys.argv[3])]
print(len(j) > 0 and j == w)' "$T/s-$name-$l.geojson" "$T/w-$name.gpkg" $l)" True
	done
}

# (a) The real DEM: tflow's basins, contours at 100 and 25.
same_streamed dem "$T/tf" -b "-c 100"
same_streamed dem25 "$T/tf" "" "-c 25"

# (b), (c) Label grids made here, with empty dir and river bands so the
# whole-grid run has its (empty) rivers: a checkerboard; rings of 1, 2, 1
# around a 3, with a 2 and a 4 touching them at corners; NaN holes; one
# row; one column. Heights for contours are the labels times 10.
vpy '
grids = {
 "checker": (np.indices((9, 11)).sum(0) % 2).astype(float) + 1,
 "nested": np.array([
  [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4],
  [1, 2, 2, 2, 2, 2, 2, 2, 1, 4, 1],
  [1, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1],
  [1, 2, 1, 2, 2, 2, 1, 2, 1, 1, 1],
  [1, 2, 1, 2, 3, 2, 1, 2, 1, 1, 1],
  [1, 2, 1, 2, 2, 2, 1, 2, 1, 1, 1],
  [1, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1],
  [1, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1],
  [1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1],
  [1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4]], float),
}
rng = np.random.default_rng(15)
a = rng.integers(1, 4, (12, 14)).astype(float)
a[3:6, 4:8] = np.nan; a[0, 0] = np.nan; a[11, 5:] = np.nan
grids["nanholes"] = a
grids["row"] = rng.integers(1, 4, (1, 17)).astype(float)
grids["col"] = rng.integers(1, 4, (17, 1)).astype(float)
for name, lab in grids.items():
    z = np.stack([lab, lab * 10, np.full(lab.shape, np.nan), np.zeros(lab.shape)], axis=1)
    write(z, "basin height dir river", ["CELLSIZE 30", "ORIGIN 500000 4650000", "CRS EPSG:32633"],
          out=sys.argv[1] + "/grid-" + name)' "$T"
for g in checker nested nanholes; do
	same_streamed "$g" "$T/grid-$g" -b "-c 5"
	assert_eq "$g polygons" "$(check_basins "$T/grid-$g" "$T/s-$g.gpkg" basin)" ok
done
for g in row col; do
	same_streamed "$g" "$T/grid-$g" -b ""
	assert_eq "$g polygons" "$(check_basins "$T/grid-$g" "$T/s-$g.gpkg" basin)" ok
	ok "$g contours" run_prog tvector -q -c 5 "$T/c-$g.gpkg" < "$T/grid-$g"
	assert_eq "$g: no contour lines in one row or column" "$(ogrinfo -so "$T/c-$g.gpkg" contours |
	    sed -n 's/^Feature Count: //p')" 0
done

# The streamed path's own errors: a truncated or overlong stream leaves no
# file; an infinite height is refused with its place.
expect_exit 1 "truncated stream" run_prog tvector --basins "$T/o.gpkg" < "$T/trunc"
[ ! -e "$T/o.gpkg" ] && pass || fail "a failed streamed run left $T/o.gpkg"
{ cat "$T/grid-row"; printf 'xxxx'; } > "$T/long"
expect_exit 1 "" run_prog tvector -c 5 "$T/o.gpkg" < "$T/long"
[ ! -e "$T/o.gpkg" ] && pass || fail "an overlong stream left $T/o.gpkg"
vpy 'write(np.array([[0, 1, 2], [3, np.inf, 5]]), "height")' > "$T/inf"
expect_err 1 "tvector: contours: infinite value at column 1, row 1" \
    "infinite height" run_prog tvector -c 1 "$T/o.geojson" < "$T/inf"

# Memory: the streamed layers hold a window of rows, not the grid. A
# 4096-wide stream, flat but for a stepped cone in its first 200 rows
# (so the lines and rings are the same however long, but for the flat
# ground's, which is the grid's edge), 1024 and 8192 rows:
# the peak RSS of tvector --basins -c grows by less than 16 MiB, where reading
# the grid whole would add 112 MiB (7168 rows of 16 KiB). The figure is
# not a timing: allocations are deterministic, the slack is for the C
# library's arenas and page rounding. Not under valgrind or a sanitizer,
# whose allocators keep freed memory.
if [ -z "$MEMCHECK" ] && ! nm "$TP_BIN/tvector" 2>/dev/null | grep -q __asan_init &&
    [ -x /usr/bin/time ]; then
	for rows in 1024 8192; do
		vpy '
w, h = 4096, int(sys.argv[1])
y, x = np.indices((200, w))
top = np.floor(np.clip(100 - np.hypot(x - 300, y - 100), 0, None) / 10).astype("<f4")
sys.stdout.buffer.write(stream_bytes(w, h, "height", ["CELLSIZE 1", "ORIGIN 0 0"]))
sys.stdout.buffer.write(top.tobytes())
zero = np.zeros((h - 200) * w, "<f4").tobytes()
sys.stdout.buffer.write(zero)' "$rows" > "$T/mem"
		/usr/bin/time -f %M -o "$T/rss$rows" tvector -q --basins -l height -c 1 \
		    "$T/mem$rows.gpkg" < "$T/mem" || fail "memory run $rows"
	done
	rm -f "$T/mem"
	assert_eq "memory: same features at 1024 and 8192 rows" "$(vpy '
out = []
for t in "basins", "contours":
    # (all but the flat ground, label 0, whose ring is the grid edge)
    a = [(f, g.ExportToWkb()) for _, f, g in layer(sys.argv[1], t) if f.get("label") != 0]
    b = [(f, g.ExportToWkb()) for _, f, g in layer(sys.argv[2], t) if f.get("label") != 0]
    out.append(len(a) >= 9 and a == b)
print(out)' "$T/mem1024.gpkg" "$T/mem8192.gpkg")" "[True, True]"
	d=$(( $(cat "$T/rss8192") - $(cat "$T/rss1024") ))
	[ -n "${TP_VERBOSE:-}" ] && echo "tvector: peak RSS $(cat "$T/rss1024") KiB at 1024 rows, $(cat "$T/rss8192") KiB at 8192" >&2
	[ "$d" -lt 16384 ] && pass ||
	    fail "memory: peak RSS grew by $d KiB from 1024 to 8192 rows"
fi

# --basin-stats: every other band's min, max, mean, std and sum per basin,
# against numpy over the stream's own cells of each label (population std).
run_prog timport "$DATA/jacksboro_fault_dem.tif" | run_prog tfill |
    run_prog tflow --basins > "$T/bst"
run_prog tvector -q --basin-stats "$T/bst.gpkg" < "$T/bst"
assert_eq "--basin-stats against numpy" "$(py '
import sqlite3
b = bands(sys.argv[1]); lab = b["basin"]
db = sqlite3.connect(sys.argv[2]); worst = 0.0; n = 0
cols = [c[1] for c in db.execute("pragma table_info(basins)")]
for row in db.execute("select * from basins"):
    r = dict(zip(cols, row)); m = lab == r["label"]
    for band in ("height", "flow", "dir"):
        v = b[band][m].astype(float); v = v[np.isfinite(v)]
        want = (v.min(), v.max(), v.mean(), v.std(), v.sum())
        got = tuple(r[band + "_" + k] for k in ("min", "max", "mean", "std", "sum"))
        for g, w in zip(got, want):
            worst = max(worst, abs(g - w) / max(1.0, abs(w)))
    n += 1
print(n > 100, worst < 1e-9, "basin_min" in cols)' "$T/bst" "$T/bst.gpkg")" "True True False"

finish
