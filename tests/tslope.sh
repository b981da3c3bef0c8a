#!/bin/bash
# tslope: slope, aspect and hillshade by hand on a plane and against
# gdaldem on the real DEM (projected and geographic), curvature against the
# Zevenbergen-Thorne formulas by hand on a paraboloid and in Python on the
# DEM, the errors, tiles with a halo, threads and a pipeline.
. "$(dirname "$0")/common.sh"

# at FILE BAND: the band's values, %.4f, space-separated (nan as written).
at() { py '
print(" ".join("%.4f" % v for v in band(sys.argv[1], sys.argv[2]).ravel()))' "$1" "$2"; }

# --- by hand ---------------------------------------------------------------
# A plane on 10 m cells rising 3 m a cell east and 4 m a cell north:
# gradient (0.3, 0.4), 0.5 steep, slope atan 0.5 = 26.5651 degrees, facing
# down (-0.3, -0.4): 180 + atan(3/4) = 216.8699 degrees from north.
# Hillshade, sun at 315 and 45 degrees: c = (sin 45 - cos 45 (0.3 sin 315
# + 0.4 cos 315)) / sqrt(1.25) = (0.707107 - 0.05) / 1.118034 = 0.587725,
# grey 1 + 254 c = 150.28, so 150. In the four corners the clamped
# columns halve the east-west part (as gdaldem's -compute_edges does):
# (0.15, 0.4), slope atan 0.427200 = 23.1322, aspect 180 + atan(0.15 /
# 0.4) = 200.5560.
mkstream 4 3 height "CELLSIZE 10" > "$T/plane" <<'EOF2'
8 11 14 17
4 7 10 13
0 3 6 9
EOF2
run_prog tslope --hillshade < "$T/plane" > "$T/p"
assert_eq "bands" "$(header "$T/p" BANDS)" "height slope aspect shade"
assert_eq "history" "$(header_lines "$T/p" | tail -n 1)" "HISTORY tslope --hillshade"
C=23.1322 S=26.5651
assert_eq "plane slope" "$(at "$T/p" slope)" \
    "$C $S $S $C $S $S $S $S $C $S $S $C"
C=200.5560 S=216.8699
assert_eq "plane aspect" "$(at "$T/p" aspect)" \
    "$C $S $S $C $S $S $S $S $C $S $S $C"
assert_eq "plane shade" "$(at "$T/p" shade | cut -d' ' -f2,3,5-8)" \
    "150.0000 150.0000 150.0000 150.0000 150.0000 150.0000"
assert_eq "heights unchanged" "$(py '
print(band(sys.argv[1], "height").tobytes() == band(sys.argv[2], "height").tobytes())' \
    "$T/plane" "$T/p")" True
# A cliff past float's range: heights 1e38 apart over 1 mm cells make a
# gradient float cannot hold; it is taken as the largest float, so the
# ground is 90 degrees steep, faces south (180) and is in shadow from the
# north-west sun (grey 1), never NaN.
mkstream 3 3 height "CELLSIZE 0.001" > "$T/cliff" <<'EOF2'
1e38 1e38 1e38
0 0 0
-1e38 -1e38 -1e38
EOF2
run_prog tslope --hillshade --alg horn < "$T/cliff" > "$T/p"
assert_eq "cliff" "$(at "$T/p" slope | cut -d' ' -f5) $(at "$T/p" aspect |
    cut -d' ' -f5) $(at "$T/p" shade | cut -d' ' -f5)" "90.0000 180.0000 1.0000"
# Zevenbergen-Thorne: the same plane, the same gradient off the corners.
run_prog tslope --alg zt < "$T/plane" > "$T/p"
assert_eq "zt slope" "$(at "$T/p" slope | cut -d' ' -f6)" 26.5651
# -z 2 doubles the gradient: atan 1 = 45; --scale 2 halves it again.
run_prog tslope -z 2 < "$T/plane" > "$T/p"
assert_eq "-z 2" "$(at "$T/p" slope | cut -d' ' -f6)" 45.0000
run_prog tslope -z 2 --scale 2 < "$T/plane" > "$T/p"
assert_eq "--scale 2" "$(at "$T/p" slope | cut -d' ' -f6)" 26.5651
# The sun in the south-east at 30 degrees: c = (0.5 - 0.866025 (0.3 sin
# 135 + 0.4 cos 135)) / 1.118034 = (0.5 + 0.061237) / 1.118034 = 0.501986,
# grey 1 + 254 c = 128.504, so 129.
run_prog tslope --hillshade --azimuth 135 --altitude 30 < "$T/plane" > "$T/p"
assert_eq "--azimuth --altitude" "$(at "$T/p" shade | cut -d' ' -f6)" 129.0000
# Flat ground: slope 0, aspect -1, grey 1 + 254 sin 45 = 180.61, so 181;
# ground facing away from a low sun (west-facing, the sun in the east at
# 10 degrees): c < 0, grey 1.
mkstream 3 1 height <<< "5 5 5" > "$T/flat"
run_prog tslope --hillshade < "$T/flat" > "$T/p"
assert_eq "flat" "$(at "$T/p" slope) | $(at "$T/p" aspect) | $(at "$T/p" shade)" \
    "0.0000 0.0000 0.0000 | -1.0000 -1.0000 -1.0000 | 181.0000 181.0000 181.0000"
mkstream 3 1 height <<< "0 100 200" > "$T/wall"
run_prog tslope --hillshade --altitude 10 --azimuth 90 < "$T/wall" > "$T/p"
assert_eq "in shadow" "$(at "$T/p" shade)" "1.0000 1.0000 1.0000"
# A NaN height is NaN in every output; a NaN neighbour counts as the
# centre's height (as gdaldem with -compute_edges treats nodata).
mkstream 3 3 height <<< "0 1 2  0 nan 2  0 1 2" > "$T/hole"
run_prog tslope --hillshade --curvature < "$T/hole" > "$T/p"
assert_eq "NaN cell" "$(py '
b = bands(sys.argv[1])
print(all(np.isnan(b[k][1, 1]) for k in ("slope", "aspect", "profc", "planc", "shade")))' \
    "$T/p")" True
# The north middle cell (height 1): the row beyond the edge is 2 row0 -
# row1 = (0, NaN, 2), and both NaNs count as 1, so its window is (0 1 2 /
# 0 1 2 / 0 1 2) on 1 m cells: dx = 8 / 8 = 1, dy = 0, slope 45.
assert_eq "NaN neighbour" "$(at "$T/p" slope | cut -d' ' -f2)" 45.0000

# --- curvature by hand: a paraboloid ---------------------------------------
# z = a x^2 + b y^2 + c x y + p x + q y on 8 m cells, x east and y north
# from the centre cell, a = -2^-12, b = 2^-13, c = 2^-11, p = 1/4, q =
# -1/8: every height is exact in float32 and the polynomial of
# Zevenbergen and Thorne fits it exactly, D = a, E = b, F = c, G = 2 a x +
# c y + p, H = 2 b y + c x + q. At the centre G = 1/4, H = -1/8:
#   profile = -2 (D G^2 + E H^2 + F G H) / (G^2 + H^2) = 3/4096 = 0.000732421875
#   plan    =  2 (D H^2 + E G^2 - F G H) / (G^2 + H^2) = 1/2048 = 0.00048828125
# SAGA 8.5 (ta_morphometry 0, method 6) gives 0.000732421875 as
# longitudinal curvature and -0.00048828125 as cross-sectional curvature;
# GRASS 8.2 r.slope.aspect 0.000654270930681 (pcurvature = profile /
# (1 + G^2 + H^2)^1.5) and -0.000470257247798 (tcurvature = -plan /
# (1 + G^2 + H^2)^0.5).
py - > "$T/para" <<'EOF2'
x = (np.arange(41) - 20) * 8.0
y = (15 - np.arange(31)) * 8.0
X, Y = np.meshgrid(x, y)
Z = -2.0**-12 * X * X + 2.0**-13 * Y * Y + 2.0**-11 * X * Y + X / 4 - Y / 8
write(Z.reshape(31, 1, 41), extra=["CELLSIZE 8"])
EOF2
run_prog tslope --curvature < "$T/para" > "$T/p"
assert_eq "paraboloid centre" "$(py '
b = bands(sys.argv[1])
print("%.12g %.12g" % (b["profc"][15, 20], b["planc"][15, 20]))' "$T/p")" \
    "0.000732421875 0.00048828125"
assert_eq "paraboloid inside" "$(py '
b = bands(sys.argv[1])
x = (np.arange(41) - 20) * 8.0
y = (15 - np.arange(31)) * 8.0
X, Y = np.meshgrid(x, y)
a, bb, c = -2.0**-12, 2.0**-13, 2.0**-11
G, H = 2 * a * X + c * Y + 0.25, 2 * bb * Y + c * X - 0.125
g2 = G * G + H * H
pro = -2 * (a * G * G + bb * H * H + c * G * H) / g2
pla = 2 * (a * H * H + bb * G * G - c * G * H) / g2
i = (slice(1, -1), slice(1, -1))
e = max(np.abs(b["profc"][i] - pro[i]).max(), np.abs(b["planc"][i] - pla[i]).max())
print(e < 1e-9)' "$T/p")" True

# --- against gdaldem on the real DEM ----------------------------------------
# The DEM (EPSG:4326) warped to UTM 16N, 90 m cells, heights rounded to
# Int16, inside the DEM's footprint. gdaldem sums integer heights exactly
# in double, tslope in float (exact too on integers), so the two part by
# float's rounding of the slope and aspect: a few 1e-5 degrees.
DEM=$DATA/jacksboro_fault_dem.tif
gdalwarp -q -t_srs EPSG:32616 -te 732000 4038030 759900 4067010 -tr 90 90 \
    -r bilinear -ot Int16 "$DEM" "$T/utm.tif"
run_prog timport "$T/utm.tif" > "$T/utm"
# vsgdal NAME TIF OURS BAND: the largest difference between band BAND of
# the stream OURS and the GeoTIFF TIF over the whole grid; aspects
# compared round the circle, gdaldem's flat -9999 against tslope's -1.
vsgdal() { py '
from osgeo import gdal
g = gdal.Open(sys.argv[1]).ReadAsArray().astype(float)
t = band(sys.argv[2], sys.argv[3]).astype(float)
if sys.argv[3] == "aspect":
    flat = g == -9999
    if (flat != (t == -1)).any():
        print("flat cells differ"); sys.exit()
    d = np.abs(g - t)[~flat]
    d = np.minimum(d, 360 - d)
    print("%d flat, %g" % (flat.sum(), d.max()))
else:
    print("%g %d" % (np.abs(g - t).max(), (g != t).sum()))' "$@"; }
for alg in horn zt; do
	ga=; [ $alg = zt ] && ga="-alg ZevenbergenThorne"
	run_prog tslope --alg $alg --hillshade < "$T/utm" > "$T/s"
	for p in slope aspect hillshade; do
		gdaldem $p -q -compute_edges $ga "$T/utm.tif" "$T/g_$p.tif"
	done
	read -r d n <<< "$(vsgdal "$T/g_slope.tif" "$T/s" slope)"
	assert_near "$alg slope vs gdaldem" "$d" 0 1e-4
	r=$(vsgdal "$T/g_aspect.tif" "$T/s" aspect)
	assert_near "$alg aspect vs gdaldem ($r)" "${r#*, }" 0 1e-4
	# gdaldem's 1 / sqrt is an approximation (a reciprocal square root
	# and one Newton step): a grey a hair from .5 may round the other way.
	read -r d n <<< "$(vsgdal "$T/g_hillshade.tif" "$T/s" shade)"
	assert_near "$alg hillshade vs gdaldem" "$d" 0 1
	assert_near "$alg hillshade cells off by one (of 99820)" "$n" 0 10
done
# The whole warp, with nodata where UTM's grid leaves the DEM: gdaldem's
# nodata (-9999, shade 0) on exactly tslope's NaN cells, and the cells
# beside them equal, a nodata neighbour counting as the cell's own height.
gdalwarp -q -t_srs EPSG:32616 -tr 90 90 -r bilinear -ot Int16 \
    -dstnodata -32768 "$DEM" "$T/nd.tif"
run_prog timport "$T/nd.tif" | run_prog tslope --hillshade > "$T/nd"
gdaldem slope -q -compute_edges "$T/nd.tif" "$T/g_nds.tif"
gdaldem hillshade -q -compute_edges "$T/nd.tif" "$T/g_ndh.tif"
assert_eq "nodata vs gdaldem" "$(py '
from osgeo import gdal
s = gdal.Open(sys.argv[1]).ReadAsArray().astype(float)
h = gdal.Open(sys.argv[2]).ReadAsArray().astype(float)
b = bands(sys.argv[3])
hole = np.isnan(b["height"])
m = ~hole
print(int(hole.sum()) > 1000, ((s == -9999) == hole).all(), ((h == 0) == hole).all(),
      np.abs(b["slope"][m] - s[m]).max() < 1e-4, np.abs(b["shade"][m] - h[m]).max() <= 1)' \
    "$T/g_nds.tif" "$T/g_ndh.tif" "$T/nd")" "True True True True True"
# Flat cells exist on this ground, so the -1 rule is tested.
assert_eq "flat cells" "$(vsgdal "$T/g_aspect.tif" "$T/s" aspect | cut -d' ' -f1)" 119
# Float32 heights: gdaldem adds them in float32, tslope in double, so
# they part by the rounding of those sums: under 1e-4 degrees of slope;
# of aspect within 0.01 degrees where the slope is 0.1 degrees or more
# (a direction on near-flat ground is that sensitive).
gdalwarp -q -t_srs EPSG:32616 -te 732000 4038030 759900 4067010 -tr 90 90 \
    -r bilinear -ot Float32 "$DEM" "$T/utmf.tif"
run_prog timport "$T/utmf.tif" | run_prog tslope > "$T/s"
gdaldem slope -q -compute_edges "$T/utmf.tif" "$T/g_slope.tif"
gdaldem aspect -q -compute_edges "$T/utmf.tif" "$T/g_aspect.tif"
read -r d n <<< "$(vsgdal "$T/g_slope.tif" "$T/s" slope)"
assert_near "Float32 slope vs gdaldem" "$d" 0 1e-4
assert_eq "Float32 aspect vs gdaldem" "$(py '
from osgeo import gdal
g = gdal.Open(sys.argv[1]).ReadAsArray().astype(float)
s = gdal.Open(sys.argv[2]).ReadAsArray().astype(float)
t = band(sys.argv[3], "aspect").astype(float)
m = s >= 0.1
d = np.abs(g - t)[m]
print(np.minimum(d, 360 - d).max() < 0.01, ((g == -9999) == (t == -1)).all())' \
    "$T/g_aspect.tif" "$T/g_slope.tif" "$T/s")" "True True"

# --- geographic: the DEM itself, EPSG:4326, 3 arc-seconds -------------------
run_prog timport "$DEM" > "$T/geo"
# --scale 111120 spaces every cell 111120 m a degree, as gdaldem -s 111120.
run_prog tslope --scale 111120 < "$T/geo" > "$T/s"
gdaldem slope -q -compute_edges -s 111120 "$DEM" "$T/g_slope.tif"
read -r d n <<< "$(vsgdal "$T/g_slope.tif" "$T/s" slope)"
assert_near "--scale 111120 vs gdaldem -s 111120" "$d" 0 1e-4
# By default each row is measured on WGS84 at its latitude: a degree is
# a cos(lat) / W east-west and a (1 - e2) / W^3 north-south (W = sqrt(1 -
# e2 sin^2 lat)), per radian. Horn's slope and aspect by hand from those,
# inside the grid, within 1e-4 degrees.
run_prog tslope < "$T/geo" > "$T/s"
assert_eq "per-row metres vs by hand" "$(py '
z = band(sys.argv[1], "height").astype(float)
s = band(sys.argv[2], "slope").astype(float)
A, F = 6378137.0, 1 / 298.257223563
e2 = F * (2 - F)
d = 0.000833333333333
lat = np.radians(36.732916666666668 - (np.arange(z.shape[0]) + 0.5) * d)
W = np.sqrt(1 - e2 * np.sin(lat) ** 2)
ew = (A * np.cos(lat) / W * np.radians(d))[1:-1, None]
ns = (A * (1 - e2) / W ** 3 * np.radians(d))[1:-1, None]
c = lambda i, j: z[1 + i:z.shape[0] - 1 + i, 1 + j:z.shape[1] - 1 + j]
dx = ((c(-1, 1) + 2 * c(0, 1) + c(1, 1)) - (c(-1, -1) + 2 * c(0, -1) + c(1, -1))) / (8 * ew)
dy = ((c(-1, -1) + 2 * c(-1, 0) + c(-1, 1)) - (c(1, -1) + 2 * c(1, 0) + c(1, 1))) / (8 * ns)
ref = np.degrees(np.arctan(np.hypot(dx, dy)))
asp = np.mod(90 - np.degrees(np.arctan2(-dy, -dx)), 360)
a = band(sys.argv[2], "aspect").astype(float)[1:-1, 1:-1]
da = np.abs(asp - a)[(dx != 0) | (dy != 0)]
print(np.abs(ref - s[1:-1, 1:-1]).max() < 1e-4, np.minimum(da, 360 - da).max() < 1e-4)' \
    "$T/geo" "$T/s")" "True True"
# gdaldem -s 111120 counts a degree as 111120 m both ways; here at 36.6 N
# a degree is about 89500 m east-west and 110950 m north-south, so the
# tangent of tslope's slope is gdaldem's times 111120 / 110950 (ground
# sloping north-south) to 111120 / 89500 (east-west), about 1.0015 to
# 1.24, never outside.
gdaldem slope -q -compute_edges -s 111120 "$DEM" "$T/g_slope.tif"
assert_eq "per-row vs gdaldem -s 111120" "$(py '
from osgeo import gdal
g = np.tan(np.radians(gdal.Open(sys.argv[1]).ReadAsArray().astype(float)))
t = np.tan(np.radians(band(sys.argv[2], "slope").astype(float)))
m = g > 0.01
r = t[m] / g[m]
print(r.min() > 1.0012, r.max() < 1.245, r.max() > 1.2)' "$T/g_slope.tif" "$T/s")" \
    "True True True"

# --- curvature on the DEM against Python -----------------------------------
run_prog tslope --curvature < "$T/utm" > "$T/s"
assert_eq "curvature vs Python ZT" "$(py '
z = band(sys.argv[1], "height").astype(float)
b = bands(sys.argv[2])
L = 90.0
c = lambda i, j: z[1 + i:z.shape[0] - 1 + i, 1 + j:z.shape[1] - 1 + j]
D = ((c(0, -1) + c(0, 1)) / 2 - c(0, 0)) / L ** 2
E = ((c(-1, 0) + c(1, 0)) / 2 - c(0, 0)) / L ** 2
F = (-c(-1, -1) + c(-1, 1) + c(1, -1) - c(1, 1)) / (4 * L ** 2)
G = (c(0, 1) - c(0, -1)) / (2 * L)
H = (c(-1, 0) - c(1, 0)) / (2 * L)
g2 = G * G + H * H
with np.errstate(invalid="ignore", divide="ignore"):
    pro = np.where(g2 > 0, -2 * (D * G * G + E * H * H + F * G * H) / g2, 0)
    pla = np.where(g2 > 0, 2 * (D * H * H + E * G * G - F * G * H) / g2, 0)
i = (slice(1, -1), slice(1, -1))
ok = lambda a, r: np.allclose(a[i], r, rtol=1e-6, atol=1e-12)
print(ok(b["profc"], pro), ok(b["planc"], pla), (g2 == 0).sum() > 0)' \
    "$T/utm" "$T/s")" "True True True"

# --- errors -------------------------------------------------------------------
expect_err 2 "^tslope: --alg: 'x' is not one of horn, zt$" "bad --alg" \
    run_prog tslope --alg x < "$T/plane"
expect_err 2 "^tslope: --altitude and --azimuth need --hillshade$" \
    "--azimuth alone" run_prog tslope --azimuth 90 < "$T/plane"
expect_err 2 "--altitude" "--altitude above 90" \
    run_prog tslope --hillshade --altitude 91 < "$T/plane"
expect_err 2 "--zscale" "--zscale 0" run_prog tslope -z 0 < "$T/plane"
expect_err 2 "--scale" "--scale -1" run_prog tslope --scale -1 < "$T/plane"
expect_exit 2 "unknown option" run_prog tslope --frobnicate < "$T/plane"
expect_exit 2 "operand" run_prog tslope extra < "$T/plane"
expect_err 1 "^tslope: the input has no band 'elev' (its bands: height)$" "no band" \
    run_prog tslope -b elev < "$T/plane"
run_prog tslope < "$T/plane" > "$T/p"
expect_err 1 "^tslope: band 'slope' is both the heights and an output$" \
    "heights named slope" run_prog tslope -b slope < "$T/p"
head -c -5 "$T/plane" > "$T/trunc"
expect_err 1 "truncated" "truncated input" run_prog tslope < "$T/trunc"
expect_exit 1 "empty input" run_prog tslope < /dev/null

# --- a second run, -b, tiles, threads, a pipeline -----------------------------
# On its own output tslope recomputes its bands in place.
run_prog tslope --hillshade < "$T/p" > "$T/pp"
assert_eq "bands reused" "$(header "$T/pp" BANDS)" "height slope aspect shade"
run_prog tslope --hillshade < "$T/plane" > "$T/p1"
assert_eq "same values" "$(body "$T/pp" | md5sum)" "$(body "$T/p1" | md5sum)"
# -b: the heights under another name.
mkstream 4 3 dem "CELLSIZE 10" < <(values "$T/plane") | run_prog tslope -b dem > "$T/p"
assert_eq "-b dem" "$(header "$T/p" BANDS) $(at "$T/p" slope | cut -d' ' -f6)" \
    "dem slope aspect 26.5651"
# Tiles cut with one cell of margin and trimmed equal the whole, byte for
# byte, every band.
run_prog tslope --curvature --hillshade < "$T/utm" > "$T/whole"
for t in 0,0,120,100 100,80,120,100 189,221,121,101; do
	IFS=, read -r c r w h <<< "$t"
	run_prog tcrop -w $((c == 0 ? 0 : c - 1)),$((r == 0 ? 0 : r - 1)),$((w + (c == 0 ? 1 : 2))),$((h + (r == 0 ? 1 : 2))) --clip < "$T/utm" |
	    run_prog tslope --curvature --hillshade |
	    run_prog tcrop -w $((c == 0 ? 0 : 1)),$((r == 0 ? 0 : 1)),$w,$h --clip > "$T/tile"
	run_prog tcrop -w "$t" --clip < "$T/whole" > "$T/win"
	assert_same "tile $t" <(body "$T/tile") <(body "$T/win")
done
# Without the margin the tile's rim differs (the test can tell).
run_prog tcrop -w 100,80,120,100 < "$T/utm" | run_prog tslope --curvature --hillshade > "$T/tile"
run_prog tcrop -w 100,80,120,100 < "$T/whole" > "$T/win"
assert_eq "without a margin the rim differs" "$(py '
a, b = grid(sys.argv[1]), grid(sys.argv[2])
print(a.tobytes() == b.tobytes(), a[1:-1, :, 1:-1].tobytes() == b[1:-1, :, 1:-1].tobytes())' \
    "$T/tile" "$T/win")" "False True"
# Threads: 2100-cell rows take several batches; same bytes on 1 and 2.
run_prog tnoise -q -s 2100x520 -S 3 -c 30 --crs EPSG:32633 > "$T/big"
run_prog tslope -q -z 3000 --curvature --hillshade -j 1 < "$T/big" > "$T/j1"
run_prog tslope -q -z 3000 --curvature --hillshade -j 2 < "$T/big" > "$T/j2"
assert_same "-j 1 = -j 2" "$T/j1" "$T/j2"
# The vector levels: the same bytes as the scalar reference.
for l in sse2 avx2; do
	TP_SIMD=$l run_prog tslope -q -z 3000 --curvature --hillshade --alg zt < "$T/big" > "$T/v1"
	TP_SIMD=scalar run_prog tslope -q -z 3000 --curvature --hillshade --alg zt < "$T/big" > "$T/v2"
	assert_same "TP_SIMD=$l = scalar" "$T/v1" "$T/v2"
done
# A pipeline: the slope band feeds tbiome's rock rule as its own would.
run_prog tnoise -q -s 64x48 -S 2 -c 30 | run_prog tslope -z 10000 |
    run_prog tnoise -q --band moisture -S 4 | run_prog tbiome -q -z 10000 > "$T/b1"
run_prog tnoise -q -s 64x48 -S 2 -c 30 | run_prog tnoise -q --band moisture -S 4 |
    run_prog tbiome -q -z 10000 > "$T/b2"
assert_eq "tbiome reads the slope band alike" "$(py '
a, b = band(sys.argv[1], "biome"), band(sys.argv[2], "biome")
print(a.tobytes() == b.tobytes(), bool((a == 16).any()))' "$T/b1" "$T/b2")" "True True"

# --- --only: the products alone, as gdaldem writes one ----------------------
# Each band equals tslope's own with the input's bands dropped by tband,
# byte for byte: on the warped DEM, the DEM itself (geographic), the DEM
# with nodata holes and the fractal of several batches, Horn and ZT.
only_vs_tband() { # NAME INPUT ONLY-LIST OPTIONS...: --only = tslope | tband -k
	local name=$1 in=$2 list=$3 full=
	shift 3
	case ,$list, in *,prof*|*,plan*) full="$full --curvature";; esac
	case ,$list, in *,shade,*) full="$full --hillshade";; esac
	run_prog tslope -q --only "$list" "$@" < "$in" > "$T/o1"
	run_prog tslope -q $full "$@" < "$in" | run_prog tband -k "$list" > "$T/o2"
	assert_eq "$name: bands" "$(header "$T/o1" BANDS)" "${list//,/ }"
	assert_same "$name: = tslope | tband -k $list" <(body "$T/o1") <(body "$T/o2")
}
only_vs_tband "DEM slope" "$T/utm" slope
only_vs_tband "DEM aspect,slope" "$T/utm" aspect,slope
only_vs_tband "DEM zt" "$T/utm" slope,aspect --alg zt
only_vs_tband "DEM curvature alone" "$T/utm" planc,profc
only_vs_tband "DEM zt shade,profc" "$T/utm" shade,profc --alg zt --azimuth 135
only_vs_tband "geographic slope" "$T/geo" slope
only_vs_tband "nodata aspect" "$T/nd" aspect
only_vs_tband "fractal slope" "$T/big" slope -z 3000
only_vs_tband "fractal all" "$T/big" shade,planc,aspect,profc,slope -z 3000 --alg zt
# One band in, one out: as many bytes as the input's body, none its own.
run_prog tslope -q --only slope < "$T/big" > "$T/o1"
assert_eq "--only slope: the input's size, other bytes" "$(py '
a, b = body(sys.argv[1]), body(sys.argv[2])
print(len(a) == len(b) == 2100 * 520 * 4, a != b)' "$T/o1" "$T/big")" "True True"
run_prog tslope -q --only aspect,slope -z 3000 -j 1 < "$T/big" > "$T/j1"
run_prog tslope -q --only aspect,slope -z 3000 -j 2 < "$T/big" > "$T/j2"
assert_same "--only -j 1 = -j 2" "$T/j1" "$T/j2"
# Against gdaldem, as above: its slope and aspect files, one product each.
run_prog tslope --only slope < "$T/utm" > "$T/s"
gdaldem slope -q -compute_edges "$T/utm.tif" "$T/g_slope.tif"
read -r d n <<< "$(vsgdal "$T/g_slope.tif" "$T/s" slope)"
assert_near "--only slope vs gdaldem slope" "$d" 0 1e-4
run_prog tslope --only aspect --alg zt < "$T/utm" > "$T/s"
gdaldem aspect -q -compute_edges -alg ZevenbergenThorne "$T/utm.tif" "$T/g_aspect.tif"
r=$(vsgdal "$T/g_aspect.tif" "$T/s" aspect)
assert_near "--only aspect --alg zt vs gdaldem aspect ($r)" "${r#*, }" 0 1e-4
# The plane by hand: the shade alone with the sun moved (129, above).
run_prog tslope --only shade --azimuth 135 --altitude 30 < "$T/plane" > "$T/p"
assert_eq "--only shade by hand" "$(header "$T/p" BANDS) $(at "$T/p" shade | cut -d' ' -f6)" \
    "shade 129.0000"
# The header keeps every key but BANDS, in order, and appends HISTORY.
mkstream 4 3 height "CELLSIZE 10" "ORIGIN 500 900" "CRS EPSG:32633" \
    "SEALEVEL 5" "UNITS m" "HISTORY timport dem.tif" < <(values "$T/plane") > "$T/k"
run_prog tslope --only slope,aspect < "$T/k" > "$T/p"
assert_eq "--only keeps the header" "$(header_lines "$T/p")" \
    "$(header_lines "$T/k" | sed 's/^BANDS .*/BANDS slope aspect/')
HISTORY tslope --only slope,aspect"
# The heights may be named slope: the input's bands are not written.
mkstream 4 3 slope "CELLSIZE 10" < <(values "$T/plane") |
    run_prog tslope -b slope --only slope > "$T/p"
assert_eq "-b slope --only slope" "$(header "$T/p" BANDS) $(at "$T/p" slope | cut -d' ' -f6)" \
    "slope 26.5651"
expect_err 2 "^tslope: --only: 'curvature' is not one of slope, aspect, profc, planc, shade$" \
    "--only unknown" run_prog tslope --only slope,curvature < "$T/plane"
expect_err 2 "^tslope: --only: '' is not one of slope, aspect, profc, planc, shade$" \
    "--only empty name" run_prog tslope --only slope, < "$T/plane"
expect_err 2 "^tslope: --only: 'slope' is listed twice: name each of slope, aspect, profc, planc, shade at most once$" \
    "--only duplicate" run_prog tslope --only slope,aspect,slope < "$T/plane"
expect_err 2 "^tslope: --only names the bands: list profc, planc or shade there, without --curvature or --hillshade$" \
    "--only with --hillshade" run_prog tslope --only shade --hillshade < "$T/plane"
expect_err 2 "^tslope: --altitude and --azimuth need shade in --only$" \
    "--only without shade, --azimuth" run_prog tslope --only slope --azimuth 90 < "$T/plane"

finish
