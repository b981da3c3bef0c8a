#!/bin/bash
# tindex: wetness, stream power and HAND by hand on an inclined plane and a
# V-valley (D8 and D-infinity), the drainage from --rivers and from a band
# 'river', geographic cells, the errors, threads and a pipeline.
. "$(dirname "$0")/common.sh"

# at FILE BAND: the band's values, %.4f, space-separated (nan as written).
at() { py '
print(" ".join("%.4f" % v for v in band(sys.argv[1], sys.argv[2]).ravel()))' "$1" "$2"; }

# --- an inclined plane ------------------------------------------------------
# 4 x 3 cells of 10 m falling 1 m a cell east: every D8 direction is east
# (drop 1 / 10 = 0.1 against 1 / 14.142 on the diagonals), the last column
# an outlet with no lower neighbour (tan b 0). Column c drains c + 1 cells
# of 100 m^2 across a contour 10 m wide: a = 10 (c + 1).
#   twi = ln(a / 0.1): ln 100 = 4.6052, ln 200 = 5.2983, ln 300 = 5.7038;
#         the outlets' tan b 0 is floored at 0.001: ln(40 / 0.001) = 10.5966
#   spi = a 0.1: 1, 2, 3, and 0 on the outlets
# --rivers 3 makes the last two columns drainage: hand = the drop to
# column 2: 2, 1, 0, 0.
for r in 1 2 3; do echo "3 2 1 0"; done | mkstream 4 3 height "CELLSIZE 10" > "$T/plane"
run_prog tindex -r 3 < "$T/plane" > "$T/p"
assert_eq "bands" "$(header "$T/p" BANDS)" "height twi spi hand"
assert_eq "history" "$(header_lines "$T/p" | tail -n 1)" "HISTORY tindex --rivers 3"
R="4.6052 5.2983 5.7038 10.5966"
assert_eq "plane twi" "$(at "$T/p" twi)" "$R $R $R"
R="1.0000 2.0000 3.0000 0.0000"
assert_eq "plane spi" "$(at "$T/p" spi)" "$R $R $R"
R="2.0000 1.0000 0.0000 0.0000"
assert_eq "plane hand" "$(at "$T/p" hand)" "$R $R $R"
# --min-slope 0.01: the outlets' twi is ln(40 / 0.01) = 8.2940.
run_prog tindex --bands twi --min-slope 0.01 < "$T/plane" > "$T/p"
assert_eq "--bands twi" "$(header "$T/p" BANDS)" "height twi"
assert_eq "--min-slope" "$(at "$T/p" twi | cut -d' ' -f4)" 8.2940
# MFD on one row has no other neighbour to share with: D8's values.
echo "3 2 1 0" | mkstream 4 1 height "CELLSIZE 10" > "$T/row"
run_prog tindex -m mfd < "$T/row" > "$T/p"
assert_eq "mfd on a row" "$(at "$T/p" twi)" "4.6052 5.2983 5.7038 10.5966"

# --- a V-valley --------------------------------------------------------------
# 7 x 5 cells of 10 m: z = 10 |x - 3| + (4 - y), sides falling 1 m a cell
# toward the channel in column 3, which falls 0.1 m/m south; a band 'river'
# marks the channel. Values of the rows y = 1 .. 3 in columns 1, 2, 3:
# D8: a side cell drains east/west (drop 10 / 10 = 1 against 11 / 14.142
# on the diagonal); column 1 gets column 0's water, a = 2 x 100 / 10 = 20,
# column 2 a = 30; tan b = 1. The channel cell of row y drains south,
# tan b = 0.1, with the 7 (y + 1) cells above it: a = 70 (y + 1).
#   twi: ln 20 = 2.9957, ln 30 = 3.4012; channel ln(1400) = 7.2442,
#        ln(2100) = 7.6497, ln(2800) = 7.9374
#   hand: column 2 10, column 1 20 (to the channel on the same row)
# D-infinity: a side cell's steepest facet is E-SE (toward the channel
# and down it): s1 = 10 / 10 = 1, s2 = 1 / 10 = 0.1, tan b = sqrt(1.01) =
# 1.0050 at atan(0.1) = 0.099669 rad below east, which sends
# 0.099669 / (pi / 4) = 0.126902 to SE and 0.873098 east. HAND, TauDEM's
# average of drop + the receiver's: column 2: 0.873098 x 10 + 0.126902 x
# 11 = 10.1269; column 1: the same drops again on top, 20.2538, but in
# row 3, whose SE receiver (2, 4) on the border has no angle and so no
# HAND, the average of the east receiver alone: 10 + 10.1269 = 20.1269
# (dinfdistdown -nc). The border cells off the river, 18, have none.
# SCA: column 1 of rows 1 .. 3 gets nothing from the border (column 0
# and row 0 have no angle), a = 10, twi = ln(10 / 1.0050) = 2.2976;
# column 2 of row 2 gets 0.873098 x 10 from (1, 2) and 0.126902 x 10
# from (1, 1): a = 20, twi = ln(20 / 1.0050) = 2.9908.
py 'z = [10 * abs(x - 3) + (4 - y) for y in range(5) for x in range(7)]
for y in range(5):
    print(*z[7 * y:7 * y + 7], *[1 if x == 3 else 0 for x in range(7)])' |
    mkstream 7 5 "height river" "CELLSIZE 10" > "$T/v"
run_prog tindex < "$T/v" > "$T/p"
assert_eq "river band: hand by default" "$(header "$T/p" BANDS)" \
    "height river twi spi hand"
# cols: the values of columns 1, 2, 3 in rows 1, 2, 3
cols() { py '
b = band(sys.argv[1], sys.argv[2])
print(" ".join("%.4f" % v for v in b[1:4, 1:4].ravel()))' "$1" "$2"; }
assert_eq "valley twi d8" "$(cols "$T/p" twi)" \
    "2.9957 3.4012 7.2442 2.9957 3.4012 7.6497 2.9957 3.4012 7.9374"
assert_eq "valley hand d8" "$(cols "$T/p" hand)" \
    "20.0000 10.0000 0.0000 20.0000 10.0000 0.0000 20.0000 10.0000 0.0000"
run_prog tindex -m dinf < "$T/v" > "$T/p" 2> "$T/err"
assert_eq "valley hand dinf" "$(cols "$T/p" hand | cut -d' ' -f1-2,4-5,7-8)" \
    "20.2538 10.1269 20.2538 10.1269 20.1269 10.1269"
assert_eq "unreached" "$(cat "$T/err")" \
    "tindex: 18 cells drain to no drainage cell: their hand is NaN"
assert_eq "valley twi dinf" "$(cols "$T/p" twi | cut -d' ' -f1,4,5,7)" \
    "2.2976 2.2976 2.9908 2.2976"
# SPI of the same cells: a tan b = 20, 30; the channel's a 0.1 = 14, 21, 28.
run_prog tindex < "$T/v" > "$T/p"
assert_eq "valley spi d8" "$(cols "$T/p" spi)" \
    "20.0000 30.0000 14.0000 20.0000 30.0000 21.0000 20.0000 30.0000 28.0000"
# --rivers 14 makes the same channel drainage from D8's flow (14 cells
# and more: rows 1 .. 4): the same hand; row 0's channel cell (7 cells) is
# no drainage, 1 m above the next: hand 1.
run_prog tindex --bands hand -r 14 < "$T/v" > "$T/p2"
assert_eq "--rivers = river band" "$(cols "$T/p" hand)" "$(cols "$T/p2" hand)"
assert_eq "row 0's channel" "$(py 'print(band(sys.argv[1], "hand")[0, 3])' "$T/p2")" 1.0

# --- geographic cells, NaN, the sea ------------------------------------------
# One arc-second cells in a row centred on 60 N measure 15.500 m x 30.948
# m (tflow.sh): the first cell of a row falling 1 m a cell east has a =
# 30.948 m (its area over its width), tan b = 1 / 15.500: twi = ln(479.69)
# = 6.1731, spi = 30.948 / 15.500 = 1.9966.
echo "4 3 2 1" | mkstream 4 1 height "CELLSIZE 0.000277777777777777778" \
    "ORIGIN 10 60.000138888888888889" "CRS EPSG:4326" > "$T/geo"
run_prog tindex < "$T/geo" > "$T/p"
assert_eq "geographic" "$(at "$T/p" twi | cut -d' ' -f1) $(at "$T/p" spi |
    cut -d' ' -f1)" "6.1731 1.9966"
# A NaN height is NaN in every band; a cell beside it is an outlet (tan b
# 0: twi floored, ln(a / 0.001) = ln(20000) and ln(10000), spi 0). Below
# SEALEVEL the sea: no twi, no spi, hand 0, and the land draining into it
# measured from the sea cell it reaches (-1): 4, 3, 2.
echo "3 2 nan 0" | mkstream 4 1 height "CELLSIZE 10" > "$T/nan"
run_prog tindex < "$T/nan" > "$T/p"
assert_eq "NaN" "$(at "$T/p" twi) | $(at "$T/p" spi)" \
    "4.6052 9.9035 nan 9.2103 | 1.0000 0.0000 nan 0.0000"
echo "3 2 1 -1" | mkstream 4 1 height "CELLSIZE 10" "SEALEVEL 0" > "$T/sea"
run_prog tindex --bands twi,hand < "$T/sea" > "$T/p"
assert_eq "sea" "$(at "$T/p" twi | cut -d' ' -f4) | $(at "$T/p" hand)" \
    "nan | 4.0000 3.0000 2.0000 0.0000"

# --- errors --------------------------------------------------------------------
expect_err 2 "^tindex: --bands: 'slope' is not one of twi, spi, hand$" \
    "--bands slope" run_prog tindex --bands twi,slope < "$T/plane"
expect_err 2 "listed twice" "--bands twice" run_prog tindex --bands twi,twi < "$T/plane"
expect_err 2 "--method" "-m d16" run_prog tindex -m d16 < "$T/plane"
expect_err 2 "--min-slope" "--min-slope 0" run_prog tindex --min-slope 0 < "$T/plane"
expect_err 2 "^tindex: --area goes with --rivers$" "-a alone" run_prog tindex -a < "$T/plane"
expect_err 2 "output band" "-b twi" run_prog tindex -b twi < "$T/plane"
expect_exit 2 "operand" run_prog tindex extra < "$T/plane"
expect_err 1 "^tindex: hand needs drainage: give --rivers T, a band 'river' or a sea level$" \
    "hand without drainage" run_prog tindex --bands hand < "$T/plane"
head -c -5 "$T/plane" > "$T/trunc"
expect_err 1 "truncated" "truncated input" run_prog tindex < "$T/trunc"
expect_exit 1 "empty input" run_prog tindex < /dev/null

# --- the real DEM, threads, a pipeline ---------------------------------------
# Every method gives the same bytes on 1 and 2 threads; a second run
# recomputes its bands in place.
run_prog timport "$DATA/jacksboro_fault_dem.tif" | run_prog tfill > "$T/dem"
for m in d8 mfd dinf; do
	run_prog tindex -q -m $m -r 100 -j 1 < "$T/dem" > "$T/j1"
	run_prog tindex -q -m $m -r 100 -j 2 < "$T/dem" > "$T/j2"
	assert_same "$m: -j 1 = -j 2" "$T/j1" "$T/j2"
done
run_prog tindex -q -m dinf -r 100 < "$T/j1" > "$T/j3"
assert_eq "rerun keeps bands" "$(header "$T/j3" BANDS)" "height twi spi hand"
cmp -s <(body "$T/j1") <(body "$T/j3") && pass || fail "rerun changes the samples"
# HAND is never negative on filled heights, and 0 exactly on drainage.
assert_eq "DEM: hand >= 0" "$(py 'h = band(sys.argv[1], "hand")
print(bool((h[~np.isnan(h)] >= 0).all()), int((h == 0).sum()) > 0)' "$T/j1")" "True True"
run_prog tnoise -q -s 64x64 --seed 3 | run_prog tfill | run_prog tflow -r 20 |
    run_prog tindex -q > "$T/p"
assert_eq "pipeline" "$(header "$T/p" BANDS)" "height flow dir river twi spi hand"

finish
