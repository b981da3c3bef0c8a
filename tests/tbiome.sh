#!/bin/bash
# tbiome: biome codes from height and moisture by the table, the overrides,
# the errors, a whole pipeline, tiles with a halo, and threads.
. "$(dirname "$0")/common.sh"

# biome FILE: the biome band's values, space-separated (nan as written).
biome() { py '
print(" ".join("%g" % v for v in band(sys.argv[1], "biome").ravel()))' "$1"; }

# Golden values on a 4 x 2 grid of 10 m cells, sea level 0, top 1: row 0
# runs through the zones at moisture 0.5 (e 0.1, 0.4, 0.7, 0.85: tropical
# seasonal forest, grassland, shrubland, snow by the zone), row 1 is sea,
# beach, NaN and the snow line at moisture 0.1.
mkstream 4 2 "height moisture" "CELLSIZE 10" > "$T/g" <<'EOF'
0.1 0.4 0.7 0.85  0.5 0.2 0.5 0.5
-0.2 0.01 nan 0.95  0.1 0.1 0.1 0.1
EOF
run_prog tbiome --rock-slope 90 < "$T/g" > "$T/b"
assert_eq "golden" "$(biome "$T/b")" "14 10 8 6 0 2 nan 6"
assert_eq "bands" "$(header "$T/b" BANDS)" "height moisture biome"
assert_eq "sea level recorded" "$(header "$T/b" SEALEVEL)" 0
assert_eq "history" "$(header_lines "$T/b" | tail -n 1)" \
    "HISTORY tbiome --rock-slope 90"
assert_eq "table in the header" "$(header_lines "$T/b" | grep -c '^BIOME ')" 19
assert_eq "a BIOME line" "$(header_lines "$T/b" | grep '^BIOME 11 ')" \
    "BIOME 11 #679459 temperate deciduous forest"
assert_eq "other bands unchanged" "$(py '
a, b = grid(sys.argv[1]), grid(sys.argv[2])
print(a.tobytes() == b[:, :2].tobytes())' "$T/g" "$T/b")" True
# Run again: the biome band is replaced, not added.
run_prog tbiome --rock-slope 90 < "$T/b" > "$T/bb"
assert_eq "biome replaced" "$(header "$T/bb" BANDS)" "height moisture biome"
assert_eq "same codes" "$(biome "$T/bb")" "14 10 8 6 0 2 nan 6"
# --sea moves the sea: 0.1 is now below it; SEALEVEL from the header.
run_prog tbiome --sea 0.15 --top 1 --rock-slope 90 < "$T/g" > "$T/b"
assert_eq "--sea" "$(biome "$T/b" | cut -d' ' -f1-2)" "0 10"
assert_eq "--sea recorded" "$(header "$T/b" SEALEVEL)" 0.15
mkstream 4 2 "height moisture" "CELLSIZE 10" "SEALEVEL 0.15" < <(values "$T/g") > "$T/s"
run_prog tbiome --rock-slope 90 < "$T/s" > "$T/b"
assert_eq "SEALEVEL" "$(biome "$T/b" | cut -d' ' -f1-2)" "0 10"
# Snow and beach in height units, lake from depth, river, slope band.
run_prog tbiome --rock-slope 90 --snow 0.8 --beach 0.15 < "$T/g" > "$T/b"
assert_eq "--snow --beach" "$(biome "$T/b")" "2 10 8 6 0 2 nan 6"
mkstream 2 1 "height moisture depth river slope" <<'EOF' > "$T/o"
0.5 0.5  0.5 0.5  0.2 0.2  0 1  0 0
EOF
run_prog tbiome < "$T/o" > "$T/b"
assert_eq "lake over river" "$(biome "$T/b")" "1 1"
run_prog tbiome --lake 0.3 < "$T/o" > "$T/b"
assert_eq "--lake, river" "$(biome "$T/b")" "11 17"
# A lake band (tflow's lakes) decides the lake class alone: lake > 0 is
# lake however shallow (a rounding error deep, or 0) and over a river;
# depth without a lake id is not, and --lake is not used. Without the
# band, the same cells by depth as before.
mkstream 4 1 "height moisture depth river lake" <<'EOF' > "$T/o"
0.5 0.5 0.5 0.5  0.5 0.5 0.5 0.5  1e-9 0 0.2 0.2  0 5 0 1  1 1 0 0
EOF
run_prog tbiome < "$T/o" > "$T/b"
assert_eq "lake band" "$(biome "$T/b")" "1 1 11 17"
run_prog tbiome --lake 0 < "$T/o" > "$T/b"
assert_eq "lake band: --lake not used" "$(biome "$T/b")" "1 1 11 17"
run_prog tband --drop lake < "$T/o" | run_prog tbiome > "$T/b"
assert_eq "no lake band: by depth" "$(biome "$T/b")" "11 17 1 1"
mkstream 2 1 "height moisture slope" <<'EOF' > "$T/o"
0.5 0.5  0.5 0.5  45 30
EOF
run_prog tbiome < "$T/o" > "$T/b"
assert_eq "slope band" "$(biome "$T/b")" "16 11"
run_prog tbiome --rock-slope 20 < "$T/o" > "$T/b"
assert_eq "--rock-slope" "$(biome "$T/b")" "16 16"
# Marsh: low, wet and flat; --marsh H,M,DEG.
mkstream 2 1 "height moisture" "CELLSIZE 1000" <<'EOF' > "$T/o"
0.05 0.05  0.9 0.8
EOF
run_prog tbiome < "$T/o" > "$T/b"
assert_eq "marsh" "$(biome "$T/b")" "18 15"
run_prog tbiome --marsh 0.1,0.7,1 < "$T/o" > "$T/b"
assert_eq "--marsh" "$(biome "$T/b")" "18 18"
# The computed slope: 30 m of rise over 30 m cells (45 degrees) is rock;
# with --zscale 0.1 (5.7 degrees) it is not.
py '
x = np.tile(np.arange(5.0) * 30, (5, 1))
write(np.stack([x, np.full((5, 5), 0.5)], axis=1), "height moisture", "CELLSIZE 30\n")' > "$T/p"
run_prog tbiome --top 1000 < "$T/p" > "$T/b"
assert_eq "computed slope: rock" "$(biome "$T/b" | cut -d' ' -f13)" 16
run_prog tbiome --top 1000 --zscale 0.1 < "$T/p" > "$T/b"
assert_eq "--zscale" "$(biome "$T/b" | cut -d' ' -f13)" 14

# Warnings at the end: cells no class holds, heights far above --top.
printf '1 sea #000000 sea\n2 dry #ffffff zone -inf inf -inf 0.5\n' > "$T/gap.txt"
mkstream 3 1 "height moisture" <<'EOF' > "$T/w"
0.5 0.5 2400  0.2 0.7 0.7
EOF
expect_err 0 "tbiome: warning: 2 cells matched no class" "no class" \
    run_prog tbiome -t "$T/gap.txt" < "$T/w"
expect_err 0 "heights reach 2400, above --top 1: give --top" "--top warning" \
    run_prog tbiome < "$T/w"
run_prog tbiome -q < "$T/w" > /dev/null 2> "$T/err"
assert_eq "-q: no warnings" "$(cat "$T/err")" ""

# Errors: missing bands, bad tables with their line, misuse, truncation.
mkstream 2 1 "height" <<< "0 1" > "$T/h"
expect_err 1 "^tbiome: no band 'moisture' (its bands: height): add one with tnoise --band moisture$" \
    "no moisture" run_prog tbiome < "$T/h"
expect_err 1 "^tbiome: no band 'moisture' (its bands: height): add one with tnoise --band moisture, or give --wind for rain from the wind alone$" \
    "climate, no moisture" run_prog tbiome --climate --latitude 30,40 < "$T/h"
mkstream 2 1 "moisture" <<< "0 1" > "$T/m"
expect_err 1 "no band 'height'" "no height" run_prog tbiome < "$T/m"
printf '# mine\n1 sea #000000 sea\n\n2 land #ffffff zone 0 1 0 1 rocks\n' > "$T/bad.txt"
expect_err 1 "^tbiome: $T/bad.txt: line 4: 'rocks' is not a clause" \
    "bad rule" run_prog tbiome -t "$T/bad.txt" < "$T/g"
printf '1 sea #000000 sea\n2 land #fffff zone 0 1 0 1\n' > "$T/bad.txt"
expect_err 1 "line 2: colour '#fffff' is not #rrggbb" "bad colour" \
    run_prog tbiome --table "$T/bad.txt" < "$T/g"
expect_err 1 "no-such-table" "missing table" \
    run_prog tbiome -t "$T/no-such-table" < "$T/g"
expect_err 2 "--rock-slope" "rock slope above 90" \
    run_prog tbiome --rock-slope 91 < "$T/g"
expect_err 2 "--marsh" "--marsh needs three" run_prog tbiome --marsh 1,2 < "$T/g"
expect_err 2 "--top 0.5 is not above --sea 1" "--top below --sea" \
    run_prog tbiome --sea 1 --top 0.5 < "$T/g"
mkstream 4 2 "height moisture" "SEALEVEL 2" < <(values "$T/g") > "$T/s"
expect_err 1 "give --top" "SEALEVEL above the top" run_prog tbiome < "$T/s"
expect_exit 2 "unknown option" run_prog tbiome --frobnicate < "$T/g"
expect_exit 2 "operand" run_prog tbiome extra < "$T/g"
head -c -5 "$T/g" > "$T/trunc"
expect_err 1 "truncated" "truncated input" run_prog tbiome < "$T/trunc"
expect_exit 1 "empty input" run_prog tbiome < /dev/null

# --print-table writes the default table; read back, it classifies to
# the same bytes and the same BIOME lines as the default.
run_prog tbiome --print-table < /dev/null > "$T/table.txt"
assert_eq "print-table exit" $? 0
assert_eq "print-table classes" "$(grep -c '^[0-9]' "$T/table.txt")" 19
assert_eq "print-table: a rule" "$(grep '^16 ' "$T/table.txt" | tr -s ' ')" \
    "16 rock #7a6e64 rock"

# The pipeline: noise, an island with its sea, lakes, rivers, moisture.
run_prog tnoise -q -s 160x120 -S 11 -c 30 --crs EPSG:32633 \
    --origin 500000,4650000 | run_prog tisland -q --sea 0.3 |
    run_prog tfill -q --depth | run_prog tflow -q --rivers 40 |
    run_prog tnoise -q --band moisture -S 12 > "$T/in"
run_prog tbiome -q < "$T/in" > "$T/pipe"
assert_eq "pipeline: codes in the table, ocean where height < 0.3" "$(py '
h, b = band(sys.argv[1], "height"), band(sys.argv[1], "biome")
codes = set(int(l.split()[0]) for l in open(sys.argv[2]) if l[:1].isdigit())
print(set(np.unique(b).astype(int)) <= codes, bool(((b == 0) == (h < 0.3)).all()),
      bool((b == 17).any()), bool(np.isfinite(b).all()))' "$T/pipe" "$T/table.txt")" \
    "True True True True"
assert_eq "pipeline SEALEVEL" "$(header "$T/pipe" SEALEVEL)" 0.3
# The water ends at the coast: every land cell's D8 path reaches the sea
# or leaves the grid, no river or lake depth on the sea, every lake cell
# on land, and some lakes and rivers to speak of.
assert_eq "pipeline: water ends in the sea" "$(py '
b = bands(sys.argv[1])
h, code = b["height"], b["biome"]
land = np.isfinite(h) & (h >= 0.3)
print(drain_check(b["dir"], land), int((b["river"][~land] != 0).sum()),
      int((b["depth"][~land] != 0).sum()), bool(land[code == 1].all()),
      bool((b["river"][land] > 0).any()), bool((b["depth"] > 0).any()))' "$T/pipe")" \
    "ok 0 0 True True True"
run_prog tbiome -q --table "$T/table.txt" < "$T/in" > "$T/pipe2"
assert_eq "--table of --print-table = default" "$(body "$T/pipe" | md5sum)" \
    "$(body "$T/pipe2" | md5sum)"
assert_eq "same BIOME lines" "$(header_lines "$T/pipe" | grep '^BIOME')" \
    "$(header_lines "$T/pipe2" | grep '^BIOME')"

# Tiles: a tile cut with one cell of margin, classified and trimmed, is
# the window of the whole, biome band byte for byte (steep enough for
# rock, so the slope is tested across the tile's edges).
run_prog tbiome -q --zscale 3000 < "$T/in" > "$T/whole"
for t in 0,0,70,50 60,40,70,50 89,69,71,51; do
	IFS=, read -r c r w h <<< "$t"
	run_prog tcrop -w $((c == 0 ? 0 : c - 1)),$((r == 0 ? 0 : r - 1)),$((w + (c == 0 ? 1 : 2))),$((h + (r == 0 ? 1 : 2))) --clip < "$T/in" |
	    run_prog tbiome -q --zscale 3000 |
	    run_prog tcrop -w $((c == 0 ? 0 : 1)),$((r == 0 ? 0 : 1)),$w,$h --clip > "$T/tile"
	run_prog tcrop -w "$t" --clip < "$T/whole" > "$T/win"
	assert_eq "tile $t" "$(py '
a, b = band(sys.argv[1], "biome"), band(sys.argv[2], "biome")
print(a.shape == b.shape and a.tobytes() == b.tobytes())' "$T/tile" "$T/win")" True
done
assert_eq "rock in the tiles' world" "$(py '
b = band(sys.argv[1], "biome")
print(bool((b[40:90, 60:130] == 16).any()), bool((b[69:, 89:] == 16).any()))' "$T/whole")" "True True"
# Without the halo, the rim of a tile may differ: the test can tell.
run_prog tcrop -w 60,40,70,50 < "$T/in" | run_prog tbiome -q --zscale 3000 > "$T/nohalo"
run_prog tcrop -w 60,40,70,50 < "$T/whole" > "$T/win"
assert_eq "without a halo the rim differs" "$(py '
a, b = band(sys.argv[1], "biome"), band(sys.argv[2], "biome")
print(a.tobytes() == b.tobytes(), a[1:-1, 1:-1].tobytes() == b[1:-1, 1:-1].tobytes())' "$T/nohalo" "$T/win")" "False True"

# Threads: the same bytes on one and on two, over several batches (2100
# cells a row: 2 MiB holds about 80 rows of three bands in and out).
run_prog tnoise -q -s 2100x520 -S 3 -c 30 | run_prog tnoise -q --band moisture -S 4 > "$T/big"
run_prog tbiome -q -z 5000 -j 1 < "$T/big" > "$T/j1"
run_prog tbiome -q -z 5000 -j 2 < "$T/big" > "$T/j2"
assert_same "-j 1 = -j 2" "$T/j1" "$T/j2"
assert_eq "rock and land across batches" "$(py '
b = band(sys.argv[1], "biome")
print(bool((b == 16).any()), bool((b != 16).any()))' "$T/j1")" "True True"

# --climate: temperature from latitude and the lapse rate, precipitation
# from moisture, then Whittaker. One row at 45 degrees north (edges 44.9
# and 45.1): T0 = -25 + 51 cos 45 = 11.06 C; 1 km up is 6.5 K colder. With
# --zscale 1000 heights 0.1, 1, 3, 5 are 100 m (10.4 C), 1 km (4.6 C),
# 3 km (-8.4 C), 5 km (-21.4 C); moisture 0.5 is 1550 mm: temperate
# deciduous forest, taiga, tundra, snow. Cells of 1000 km: no slope.
mkstream 4 1 "height moisture" "CELLSIZE 1000000" > "$T/c" <<'EOF'
0.1 1 3 5  0.5 0.5 0.5 0.5
EOF
run_prog tbiome --climate --latitude 44.9,45.1 -z 1000 < "$T/c" > "$T/b"
assert_eq "climate" "$(biome "$T/b")" "11 9 5 6"
# --lapse 0: no colder with height; --rain 0,400: dry (temperate desert
# under 250 mm).
run_prog tbiome --climate --latitude 44.9,45.1 -z 1000 --lapse 0 < "$T/c" > "$T/b"
assert_eq "--lapse 0" "$(biome "$T/b")" "11 11 11 11"
run_prog tbiome --climate --latitude 44.9,45.1 -z 1000 --rain 0,400 < "$T/c" > "$T/b"
assert_eq "--rain" "$(biome "$T/b" | cut -d' ' -f1)" 7
# At the equator no snow line: the table mode's default snow is off.
run_prog tbiome --climate --latitude -0.1,0.1 < "$T/c" > "$T/b"
assert_eq "climate: no snow override" "$(biome "$T/b")" "14 14 14 14"
expect_err 1 "give its latitude range (--latitude) SOUTH,NORTH" "climate without a CRS" \
    run_prog tbiome --climate < "$T/c"
expect_err 2 "need --climate" "--wind without --climate" \
    run_prog tbiome --wind 270 < "$T/c"
expect_err 2 "--latitude" "--latitude north of south" \
    run_prog tbiome --climate --latitude 50,40 < "$T/c"
expect_err 1 "no climate clauses" "--climate with a zones-only table" \
    run_prog tbiome --climate --latitude 0,1 -t "$T/gap.txt" < "$T/c"

# --wind: moisture is optional; on the pipeline's island in UTM, the same
# bytes on one thread and on two, and the wind changes the map.
run_prog tband -d moisture < "$T/in" > "$T/nomoist"
run_prog tbiome -q --climate -z 3000 --wind 270 -j 1 < "$T/nomoist" > "$T/w1"
run_prog tbiome -q --climate -z 3000 --wind 270 -j 2 < "$T/nomoist" > "$T/w2"
assert_same "--wind -j 1 = -j 2" "$T/w1" "$T/w2"
assert_eq "--wind: codes in the table, land all classified" "$(py '
b = band(sys.argv[1], "biome")
codes = set(int(l.split()[0]) for l in open(sys.argv[2]) if l[:1].isdigit())
print(set(np.unique(b).astype(int)) <= codes, bool(np.isfinite(b).all()))' "$T/w1" "$T/table.txt")" "True True"
run_prog tbiome -q --climate -z 3000 -j 1 < "$T/in" > "$T/c1"
run_prog tbiome -q --climate -z 3000 -j 2 < "$T/in" > "$T/c2"
assert_same "--climate (UTM, PROJ) -j 1 = -j 2" "$T/c1" "$T/c2"
run_prog tbiome -q --climate -z 3000 --wind 270 < "$T/in" > "$T/w3"
assert_eq "the wind changes the map" "$(py '
print(band(sys.argv[1], "biome").tobytes() != band(sys.argv[2], "biome").tobytes())' "$T/c1" "$T/w3")" True

# --rain-model linear (the default with --wind): Smith and Barstad's rain.
# No streaks: on isotropic noise terrain (1 km cells, features of 20 km
# and less) the first differences of the rain across the wind and along
# it have standard deviations within a factor 2 of each other, for a wind
# along the rows and one along the diagonal (the sweep gives 0.72 and
# 0.79 here; the linear model 0.90 and 0.93).
run_prog tnoise -q -s 256x256 -c 1000 -f 0.00005 -S 3 > "$T/iso"
for w in 270 225; do
	run_prog tbiome -q --climate --bands --latitude 40,42 -z 2000 \
	    --wind $w < "$T/iso" > "$T/iso$w"
done
assert_eq "linear rain: across / along the wind within a factor 2" "$(py '
def sd(p, dy, dx):
    H, W = p.shape
    a = p[max(0, -dy):H - max(0, dy), max(0, -dx):W - max(0, dx)]
    b = p[max(0, dy):H - max(0, -dy), max(0, dx):W - max(0, -dx)]
    return (b - a).std()
out = []
for f, (ay, ax) in zip(sys.argv[1:], [(0, 1), (-1, 1)]):
    p = band(f, "precipitation").astype(float)
    r = sd(p, ax, -ay) / sd(p, ay, ax)
    out.append(0.5 < r < 2 and np.isfinite(p).all() and p.min() >= 0)
print(*out)' "$T/iso270" "$T/iso225")" "True True"
# A hill: more rain on its windward side than in its lee, both ways.
py '
n = 96
y, x = np.mgrid[0:n, 0:n]
z = np.exp(-((x - 47.5) ** 2 + (y - 47.5) ** 2) / (2 * 8.0 ** 2)).astype("<f4")
sys.stdout.buffer.write(stream_bytes(n, n, "height", ["CELLSIZE 1000"], z.tobytes()))' > "$T/hill"
run_prog tbiome -q --climate --bands --latitude 10,11 -z 1500 --wind 270 \
    < "$T/hill" > "$T/hw"
run_prog tbiome -q --climate --bands --latitude 10,11 -z 1500 --wind 90 \
    < "$T/hill" > "$T/he"
assert_eq "linear rain: the windward side wetter" "$(py '
w = band(sys.argv[1], "precipitation"); e = band(sys.argv[2], "precipitation")
print(w[:, :48].mean() > 1.4 * w[:, 48:].mean(), e[:, 48:].mean() > 1.4 * e[:, :48].mean(),
      np.allclose(w, e[:, ::-1], rtol=1e-4, atol=1e-2))' "$T/hw" "$T/he")" "True True True"
run_prog tbiome -q --climate -z 1500 --wind 270 --latitude 10,11 \
    < "$T/hill" > "$T/hw0"
assert_eq "--bands: the same biomes, two more bands" "$(py '
print(band(sys.argv[1], "biome").tobytes() == band(sys.argv[2], "biome").tobytes(),
      *read(sys.argv[1])[0]["BANDS"].split()[-2:])' "$T/hw" "$T/hw0")" "True temperature precipitation"
run_prog tbiome -q --climate -z 1500 --wind 270 --latitude 10,11 \
    --rain-model sweep --bands < "$T/hill" > "$T/hs"
assert_eq "--rain-model sweep differs from linear" "$(py '
print(band(sys.argv[1], "precipitation").tobytes() != band(sys.argv[2], "precipitation").tobytes())' "$T/hw" "$T/hs")" True
run_prog tbiome -q --climate --bands -j 2 < "$T/in" > "$T/cb"
assert_eq "--bands without wind: rain of the moisture, a temperature" "$(py '
m = band(sys.argv[1], "moisture"); p = band(sys.argv[1], "precipitation")
t = band(sys.argv[1], "temperature"); h = band(sys.argv[1], "height")
ok = np.isfinite(h) & np.isfinite(m)
print(np.allclose(p[ok], 100 + 2900 * np.clip(m[ok], 0, 1), rtol=1e-5), bool(np.isfinite(t[ok]).all()))' "$T/cb")" "True True"
expect_err 2 "want linear or sweep" "--rain-model foo" \
    run_prog tbiome --climate --wind 270 --rain-model foo < "$T/hill"
expect_err 2 "need --wind" "--linear without --wind" \
    run_prog tbiome --climate --linear speed=10 < "$T/hill"
expect_err 2 "wet 2: want a fraction" "--linear wet=2" \
    run_prog tbiome --climate --wind 270 --linear wet=2 < "$T/hill"
expect_err 2 "KEY one of" "--linear an unknown key" \
    run_prog tbiome --climate --wind 270 --linear gust=3 < "$T/hill"
expect_err 2 "is for --rain-model linear" "--linear with the sweep" \
    run_prog tbiome --climate --wind 270 --rain-model sweep --linear tc=9 < "$T/hill"
expect_err 2 "need --climate" "--bands without --climate" \
    run_prog tbiome --bands < "$T/hill"

finish
