#!/bin/bash
# tnoise: lattice values by hand, gradient zeros on the lattice, fixed
# output range, tiles byte-identical to windows of a large run, --band.
. "$(dirname "$0")/common.sh"

# Golden values: one octave of value noise with a linear fade, worked out
# from the lattice hash formula in an independent float32 model (cell
# centres x = col + 0.5, y = 2 - row - 0.5; lattice coordinates times 0.25).
run_prog tnoise -s 3x2 -S 7 -O 1 -k value --fade linear -f 0.25 > "$T/v"
assert_eq "value noise by hand" "$(values "$T/v" | tr '\n' ' ')" "$("$PY" - <<'PYEOF'
import numpy as np, math
M = 0xffffffff
def mix(h):
    h ^= h >> 16; h = (h * 0x7feb352d) & M; h ^= h >> 15
    h = (h * 0x846ca68b) & M; h ^= h >> 16; return h
def lat(ix, iy, s):
    h = mix(((ix * 0x8da6b343) & M) ^ ((iy * 0xd8163841) & M) ^ ((s * 0xcb1ab31f + 0x2545f491) & M))
    return np.float32((h >> 8) / 16777216.0)
f = np.float32
out = []
for row in range(2):
    for col in range(3):
        x, y = (col + 0.5) * 0.25, (2 - row - 0.5) * 0.25
        ix, iy = math.floor(x), math.floor(y)
        u, v = f(x - ix), f(y - iy)
        a = f(lat(ix, iy, 7) + f(u * f(lat(ix + 1, iy, 7) - lat(ix, iy, 7))))
        b = f(lat(ix, iy + 1, 7) + f(u * f(lat(ix + 1, iy + 1, 7) - lat(ix, iy + 1, 7))))
        out.append("%.9g" % f(a + f(v * f(b - a))))
print(" ".join(out) + " ", end="")
PYEOF
)"
assert_eq "header" "$(header_lines "$T/v" | tr '\n' '|')" \
    "TERRAPIPE 1|WIDTH 3|HEIGHT 2|BANDS height|CELLSIZE 1|ORIGIN 0 2|HISTORY tnoise --size 3x2 --seed 7 --octaves 1 --kind value --fade linear --frequency 0.25|"

# Gradient noise is 0 on every lattice point, so cell centres on the
# lattice of every octave (frequency 1 and 2) give exactly 0.5.
run_prog tnoise -s 3x3 --origin -0.5,2.5 -f 1 -O 2 -S 3 > "$T/g"
assert_eq "gradient zero on the lattice" "$(values "$T/g" | sort -u)" "0.5"

# Georeferencing options land in the header.
run_prog tnoise -s 4x2 -c 30 --origin 500000,4650000 --crs EPSG:32633 > "$T/geo"
assert_eq "cellsize" "$(header "$T/geo" CELLSIZE)" "30"
assert_eq "origin" "$(header "$T/geo" ORIGIN | awk '{ print $1 == 500000 && $2 == 4650000 }')" 1
assert_eq "crs" "$(header "$T/geo" CRS)" "EPSG:32633"
run_prog tnoise -s 4x2 -c 30 > "$T/geo"
assert_eq "default origin" "$(header "$T/geo" ORIGIN)" "0 60"

# Fixed output range: normalised in [0,1] for every kind; five octaves of
# value noise unnormalised leave [0,1] but stay below 1.9375.
for k in value gradient simplex; do
	run_prog tnoise -s 128x96 -k $k -f 0.05 -S 2 > "$T/r"
	assert_eq "$k in [0,1]" "$(values "$T/r" | awk 'NR == 1 || $1 < lo { lo = $1 }
	    NR == 1 || $1 > hi { hi = $1 } END { print (lo >= 0 && hi <= 1 && hi - lo > 0.3) }')" 1
done
run_prog tnoise -s 128x96 -k value -O 5 -N -f 0.05 > "$T/r"
assert_eq "unnormalised" "$(values "$T/r" | awk '$1 > hi { hi = $1 } END { print (hi > 1 && hi < 1.9375) }')" 1

# Tiles: a 2x2 grid of tiles made with shifted origins is byte-identical to
# the windows of one large run, for every kind, with and without warping,
# on a UTM-like grid and on one whose origins are not exact in binary.
# $1 $2: cell size and origin x,y of the large run; the rest: options.
# Each tile and its tcrop window are kept; one Python run compares them all.
n_tiles=0
tiles() {
	cs=$1 ox=${2%,*} oy=${2#*,}; shift 2
	run_prog tnoise -s 40x30 -c "$cs" --origin "$ox,$oy" "$@" > "$T/big"
	for ty in 0 1; do
		for tx in 0 1; do
			to=$(awk -v x="$ox" -v y="$oy" -v c="$cs" -v i=$tx -v j=$ty \
			    'BEGIN { printf "%.12g,%.12g", x + i * 20 * c, y - j * 15 * c }')
			n_tiles=$((n_tiles + 1))
			echo "tile $tx,$ty $* cs $cs" > "$T/desc.$n_tiles"
			run_prog tnoise -s 20x15 -c "$cs" --origin "$to" "$@" > "$T/tile.$n_tiles"
			run_prog tcrop -w $((tx * 20)),$((ty * 15)),20,15 < "$T/big" > "$T/win.$n_tiles"
		done
	done
}
for k in value gradient simplex; do
	tiles 30 500000,4650000 -k $k -f 0.002 -S 5
	tiles 30 500000,4650000 -k $k -f 0.002 -S 5 -w 0.5
	tiles 0.1 0.3,7.7 -k $k -f 0.3 -O 3 -w 0.2
done
n_seen=0
while IFS='|' read -r d same; do
	assert_eq "$d" "$same" "True"
	n_seen=$((n_seen + 1))
done < <(py - "$T" $n_tiles <<'PYEOF'
t, n = sys.argv[1], int(sys.argv[2])
for i in range(1, n + 1):
    desc = open("%s/desc.%d" % (t, i)).read().strip()
    a, b = body("%s/tile.%d" % (t, i)), body("%s/win.%d" % (t, i))
    print("%s|%s" % (desc, len(a) == 20 * 15 * 4 and a == b))
PYEOF
)
assert_eq "tiles compared" "$n_seen $n_tiles" "36 36"
# the window a tcrop cut, noised again in place, is the same window
run_prog tcrop -w 7,4,23,19 < "$T/big" > "$T/win"
run_prog tnoise -b height -k simplex -f 0.3 -O 3 -w 0.2 < "$T/win" > "$T/re"
assert_eq "re-noised window" "$(body "$T/re" | md5sum)" "$(body "$T/win" | md5sum)"

# -j 1 and -j 2 give the same bytes, and so do repeated runs.
run_prog tnoise -s 300x200 -O 8 -w 0.3 -S 9 -j 1 > "$T/j1"
run_prog tnoise -s 300x200 -O 8 -w 0.3 -S 9 -j 2 > "$T/j2"
run_prog tnoise -s 300x200 -O 8 -w 0.3 -S 9 -j 2 > "$T/j3"
assert_eq "-j 1 vs -j 2" "$(body "$T/j1" | md5sum)" "$(body "$T/j2" | md5sum)"
assert_same "repeated run" "$T/j2" "$T/j3"
run_prog tnoise -s 300x200 -O 8 -w 0.3 -S 10 -j 2 > "$T/j4"
assert_eq "another seed differs" "$(cmp -s "$T/j2" "$T/j4"; echo $?)" 1

# --band adds a band at the input's cells and leaves the others' bytes
# untouched; its values are those of a generator run on the same grid.
py - > "$T/in" <<'PYEOF'
r = np.random.default_rng(3)
a = r.uniform(-1, 2, (50, 2, 70)).astype('<f4')
a[r.random(a.shape) < 0.02] = np.nan
write(a, "height flow", ["CELLSIZE 30", "ORIGIN 1000 2000", "CRS EPSG:32633", "FOO bar baz"])
PYEOF
run_prog tnoise -b moisture -S 8 -j 2 < "$T/in" > "$T/m"
run_prog tnoise -s 70x50 -c 30 --origin 1000,2000 -S 8 > "$T/gen"
assert_eq "bands" "$(header "$T/m" BANDS)" "height flow moisture"
assert_eq "extra key kept" "$(header "$T/m" FOO)" "bar baz"
assert_eq "crs kept" "$(header "$T/m" CRS)" "EPSG:32633"
assert_eq "band bytes" "$(py - "$T/in" "$T/m" "$T/gen" <<'PYEOF'
a, b, g = (grid(p, "<u4") for p in sys.argv[1:4])
print(a.tobytes() == b[:, :2].tobytes(), b[:, 2].tobytes() == g[:, 0].tobytes())
PYEOF
)" "True True"
run_prog tnoise -b flow -S 8 < "$T/in" > "$T/f"
assert_eq "replace keeps the band order" "$(header "$T/f" BANDS)" "height flow"
assert_eq "replaced band" "$(py - "$T/in" "$T/f" "$T/gen" <<'PYEOF'
a, b, g = (grid(p, "<u4") for p in sys.argv[1:4])
print(a[:, 0].tobytes() == b[:, 0].tobytes(), b[:, 1].tobytes() == g[:, 0].tobytes())
PYEOF
)" "True True"

# A pipeline: terrain, then a moisture band, then a curve on the height.
run_prog tnoise -s 64x64 -S 7 -w 0.3 | run_prog tnoise -b moisture -S 8 |
    run_prog tshape -c valleys > "$T/p"
assert_eq "pipeline bands" "$(header "$T/p" BANDS)" "height moisture"
assert_eq "pipeline history" "$(grep -a -c '^HISTORY ' "$T/p")" 3

# --period PX,PY: the noise repeats exactly after PX columns and PY rows.
# Two periods each way: column x equals column x + PX and row y row y + PY
# byte for byte, and the left column continues the right one: where the
# cells modulo the period return to 0 (the wrap of the lattice; with an
# origin of whole periods between the image's columns PX-1 and PX) the step
# from one cell to the next is no larger than every other step. Value and
# gradient, warped or not, on a UTM-like grid whose origin is not a whole
# cell and on the default origin. $1: description, $2: origin x,y; the
# rest: options (period 48,32 on cells of 30).
periodic() {
	d=$1 org=$2; shift 2
	run_prog tnoise -s 96x64 -c 30 --origin "$org" --period 48,32 "$@" > "$T/per"
	assert_eq "period $d" "$(py - "$T/per" "$org" <<'PYEOF'
a = band(sys.argv[1], "height")
ox, oy = (float(v) for v in sys.argv[2].split(","))
u = a.view("<u4")
cols = (u[:, :48] == u[:, 48:]).all()
rows = (u[:32] == u[32:]).all()
# the wrap: the cell whose index (whole cells of the origin + column, or
# - row - 1) is 0 modulo the period, and the one before it
cx = int(-np.floor(ox / 30 + 0.6180339887498949)) % 48
ry = int(np.floor(oy / 30 + 0.6180339887498949) - 1) % 32
sx, sy = np.abs(np.diff(a, axis=1)), np.abs(np.diff(a, axis=0))
jx, jy = (cx - 1) % 48, ry
kx = [j for j in (jx, jx + 48) if j < 95]
ky = [j for j in (jy, jy + 32) if j < 63]
seam = sx[:, jx].max() <= np.delete(sx, kx, axis=1).max() and \
    sy[jy].max() <= np.delete(sy, ky, axis=0).max()
print(cols, rows, seam, a.std() > 0.02)
PYEOF
)" "True True True True"
}
f480=0.00208333333333333	# 1/480: 3 x 2 lattice cells of 16 cells of 30
periodic "gradient, one octave" 0,1920 -f $f480 -O 1 -S 5
periodic "gradient" 500000.3,4650000.7 -f $f480 -O 4 -S 3
periodic "value cubic" 0,1920 -k value --fade cubic -f $f480 -O 3 -S 4
periodic "gradient warped" 500000.3,4650000.7 -f $f480 -O 4 -w 0.8 --warp-octaves 3
periodic "value warped" 0,1920 -k value -f $f480 -O 2 -w 0.5 --warp-frequency 0.00416666666666667
periodic "one octave, any lacunarity" 500000.3,4650000.7 -f $f480 -O 1 -l 3
# Without --period the same run does not repeat (the test sees the period).
run_prog tnoise -s 96x64 -c 30 --origin 500000.3,4650000.7 -f $f480 -O 4 -S 3 > "$T/nop"
assert_eq "no period, no repeat" "$(py 'a = band(sys.argv[1], "height"); print((a[:, :48] == a[:, 48:]).any(axis=0).sum())' "$T/nop")" 0
# The period is recorded, and every vector level and thread count gives
# the same bytes; an origin shifted by whole cells gives the same window.
assert_eq "period history" "$(header "$T/per" HISTORY)" \
    "tnoise --size 96x64 --cellsize 30 --origin 500000.3,4650000.7 --period 48,32 --frequency 0.00208333333333333 --octaves 1 --lacunarity 3"
for lv in scalar sse2 avx2; do
	TP_SIMD=$lv run_prog tnoise -s 300x70 -w 0.3 -O 7 --period 256,64 -f 0.015625 -j 2 > "$T/lv.$lv"
done
assert_same "period scalar vs sse2" "$T/lv.scalar" "$T/lv.sse2"
assert_same "period scalar vs avx2" "$T/lv.scalar" "$T/lv.avx2"
TP_SIMD=scalar run_prog tnoise -s 300x70 -w 0.3 -O 7 --period 256,64 -f 0.015625 -j 1 > "$T/lv.j1"
assert_eq "period -j 1 vs -j 2" "$(body "$T/lv.j1" | md5sum)" "$(body "$T/lv.scalar" | md5sum)"
run_prog tnoise -s 40x30 --origin 7,50 --period 256,64 -f 0.015625 -w 0.3 -O 7 > "$T/shift"
run_prog tcrop -w 7,20,40,30 < "$T/lv.scalar" > "$T/win"
assert_eq "period shifted origin" "$(body "$T/shift" | md5sum)" "$(body "$T/win" | md5sum)"
# Bad periods are refused with the reason.
expect_err 2 "simplex noise does not tile" "period simplex" run_prog tnoise -k simplex --period 256,256
expect_err 2 "lacunarity 2" "period lacunarity" run_prog tnoise -l 2.5 --period 256,256
expect_err 2 "0.375 lattice cells of the noise" "period fraction" run_prog tnoise -s 8x8 --period 96,256
expect_err 2 "lattice cells of the warp" "period warp" run_prog tnoise -s 8x8 -w 1 --warp-frequency 0.003 --period 256,256
expect_err 2 "whole numbers" "period not whole" run_prog tnoise --period 25.5,256
expect_err 2 "out of range" "period 0" run_prog tnoise --period 0,256
expect_err 2 "2 wanted" "period one side" run_prog tnoise --period 256

# Misuse exits 2; a truncated or malformed input to --band exits 1.
expect_exit 2 "octaves 0" run_prog tnoise -O 0
expect_exit 2 "octaves 17" run_prog tnoise -O 17
expect_exit 2 "bad kind" run_prog tnoise -k perlin
expect_exit 2 "bad fade" run_prog tnoise --fade smooth
expect_exit 2 "bad size" run_prog tnoise -s 0x5
expect_exit 2 "bad crs" run_prog tnoise --crs WGS84
expect_err 2 "tnoise: --crs: PROJ does not know the CRS EPSG:99999" "unknown EPSG code" \
    run_prog tnoise --crs EPSG:99999
expect_exit 2 "bad frequency" run_prog tnoise -f 0
expect_exit 2 "bad band name" run_prog tnoise -b Moist
expect_exit 2 "band with size" run_prog tnoise -b moisture -s 4x4 < "$T/in"
expect_exit 2 "operand" run_prog tnoise extra
head -c 2000 "$T/in" > "$T/trunc"
expect_err 1 "row" "truncated input" run_prog tnoise -b moisture < "$T/trunc"
printf 'TERRAPIPE 1\nWIDTH 2\nENDHDR\n' > "$T/bad"
expect_exit 1 "malformed header" run_prog tnoise -b moisture < "$T/bad"
ok "help" run_prog tnoise --help
assert_eq "help shows defaults" "$(grep -c 'default: ' "$T/.out")" 16

# A geographic CRS counts cells in degrees: 30 a cell would leave the globe.
expect_exit 2 "geographic CRS with metre cells" run_prog tnoise -s 100x100 -c 30 --crs EPSG:4326
assert_eq "geographic extent error" "$(head -1 "$T/.err")" \
    "tnoise: a geographic CRS EPSG:4326 in degrees, but the grid spans x 0..3000, y 0..3000, outside longitudes -180..360 and latitudes -90..90 (a cell size in metres needs a projected CRS, e.g. a UTM zone)"
ok "geographic CRS in degrees" run_prog tnoise -s 100x100 -c 0.001 --origin -84,36.1 --crs EPSG:4326
ok "0..360 longitudes" run_prog tnoise -s 10x10 -c 1 --origin 350,90 --crs EPSG:4326
expect_exit 2 "past 360 degrees east" run_prog tnoise -s 10x10 -c 1 --origin 351,90 --crs EPSG:4326

finish
