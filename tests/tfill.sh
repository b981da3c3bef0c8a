#!/bin/bash
# tfill: depressions filled by hand-checkable rules, Priority-Flood and
# Planchon-Darboux byte-identical, and the real DEM filled exactly as SAGA's
# Planchon-Darboux and GRASS r.fill.dir fill it.
. "$(dirname "$0")/common.sh"

# stat FILE BAND EXPR [FILE2]: a numpy expression over band BAND (a) of a
# stream, with o = the height of $T/orig and b = the height of FILE2.
stat() {
	py - "$@" <<'PYEOF'
import os
a = band(sys.argv[1], sys.argv[2])
t = os.environ["T"]
o = band(t + "/orig", "height") if os.path.exists(t + "/orig") else None
b = band(sys.argv[4], "height") if len(sys.argv) > 4 else None
*stmts, expr = sys.argv[3].strip().split("\n")
exec("\n".join(stmts))
print(eval(expr))
PYEOF
}
export T

# A single pit (the 1) in a ring of 12 inside a border of 10: flat fills
# to the spill height 12, the default to the next float above 12
# (12 + 2^-20), --epsilon 0.5 to 12.5; depth is filled minus original.
pit="10 10 10 10 10  10 12 12 12 10  10 12 1 12 10  10 12 12 12 10  10 10 10 10 10"
echo "$pit" | mkstream 5 5 height "CRS EPSG:32633" "FOO bar" > "$T/pit"
run_prog tfill --flat < "$T/pit" > "$T/o"
assert_eq "flat fill" "$(values "$T/o" | sed -n 13p)" 12
run_prog tfill < "$T/pit" > "$T/o"
assert_eq "next-float fill" "$(values "$T/o" | sed -n 13p)" 12.000001
assert_eq "the next float above 12, exactly" \
    "$(py 'print(floats(sys.argv[1])[12] == np.nextafter(np.float32(12), np.float32(13)))' "$T/o")" True
run_prog tfill -e 0.5 -d < "$T/pit" > "$T/o"
# band-interleaved: row 2 is samples 21..30, height then depth
assert_eq "epsilon fill" "$(values "$T/o" | sed -n 23p)" 12.5
assert_eq "depth band" "$(header "$T/o" BANDS)" "height depth"
assert_eq "depth of the pit" "$(values "$T/o" | sed -n 28p)" 11.5
assert_eq "unknown keys pass" "$(header "$T/o" FOO)" "bar"
assert_eq "history" "$(header "$T/o" HISTORY)" "tfill --epsilon 0.5 --depth"
run_prog tfill -m planchon-darboux -e 0.5 -d < "$T/pit" > "$T/p"
cmp -s <(body "$T/o") <(body "$T/p") && pass ||
    fail "planchon-darboux differs from priority-flood (pit)"

# Nested pits on a 9x3 strip (rows 0 and 2 are border at 10, the outlet
# is the 3 at the west end): --flat gives 3 3 5 5 5 5 6 6 10.
{ for i in 1 2 3 4 5 6 7 8 9; do printf '10 '; done
  printf '3 2 5 1 4 0 6 1 10 '
  for i in 1 2 3 4 5 6 7 8 9; do printf '10 '; done; } |
    mkstream 9 3 height > "$T/nest"
run_prog tfill --flat < "$T/nest" > "$T/o"
assert_eq "nested pits" "$(values "$T/o" | sed -n 10,18p | tr '\n' ' ')" \
    "3 3 5 5 5 5 6 6 10 "
run_prog tfill -e 1 < "$T/nest" > "$T/o"
assert_eq "nested pits, epsilon 1" \
    "$(values "$T/o" | sed -n 10,18p | tr '\n' ' ')" "3 4 5 6 7 8 9 10 10 "

# NaN is outside: the same pit next to a NaN hole drains into it.
echo "10 10 10 10 10  10 nan 12 12 10  10 12 1 12 10  10 12 12 12 10  10 10 10 10 10" |
    mkstream 5 5 height > "$T/hole"
run_prog tfill < "$T/hole" > "$T/o"
assert_eq "NaN hole is an outlet" "$(values "$T/o" | sed -n 7p; values "$T/o" | sed -n 13p)" \
    "$(printf 'nan\n1')"
# all NaN, and 1 cell wide: nothing to fill
echo "nan nan nan nan" | mkstream 2 2 height > "$T/nan"
run_prog tfill < "$T/nan" > "$T/o"
assert_eq "all NaN stays NaN" "$(values "$T/o" | sort -u)" nan
echo "5 1 5 0 5" | mkstream 1 5 height > "$T/col"
run_prog tfill < "$T/col" > "$T/o"
assert_eq "1 cell wide" "$(values "$T/o" | tr '\n' ' ')" "5 1 5 0 5 "

# The real DEM (Int16 metres, EPSG:4326): --flat raises the 6373 cells, by
# 34124 m in all, that SAGA 8.5 Planchon-Darboux (MINSLOPE 0) and GRASS 8.2
# r.fill.dir (repeated until nothing changes, 3 passes) raise, to the same
# heights (both checked cell by cell, see scripts/bench-hydro.sh). The
# default keeps a gradient: the same cells and more (the flats), each a
# few float steps (3e-5 m each at 500 m) above the flat fill.
run_prog timport "$DATA/jacksboro_fault_dem.tif" > "$T/orig"
run_prog tfill --flat < "$T/orig" > "$T/flat"
assert_eq "DEM: cells raised (SAGA, GRASS: 6373)" \
    "$(stat "$T/flat" height '(a > o).sum()')" 6373
assert_eq "DEM: volume raised (SAGA, GRASS: 34124)" \
    "$(stat "$T/flat" height 'int((a.astype(float) - o).sum())')" 34124
run_prog tfill --verbose < "$T/orig" > "$T/next" 2>"$T/err"
grep -q "raised" "$T/err" && pass || fail "--verbose prints counts"
run_prog tfill --verbose -j 2 --tile-size 64 < "$T/orig" > /dev/null 2>"$T/err"
grep -q "in tiles of 64, [0-9]* tile relaxations" "$T/err" && ! grep -q "valid" "$T/err" &&
    pass || fail "--verbose in tiles: $(cat "$T/err")"
assert_eq "DEM: flat-raised cells are raised by default" \
    "$(stat "$T/next" height 'bool(((a > o) | ~(b > o)).all())' "$T/flat")" True
assert_eq "DEM: next-float heights 0 to 0.01 m above flat" \
    "$(stat "$T/next" height '0 <= float((a - b).min()) and float((a - b).max()) < 0.01' "$T/flat")" True
for rule in "" "--flat" "--epsilon 0.001"; do
	run_prog tfill $rule < "$T/orig" > "$T/a"
	run_prog tfill $rule -m planchon-darboux < "$T/orig" > "$T/b"
	cmp -s <(body "$T/a") <(body "$T/b") && pass ||
	    fail "DEM: planchon-darboux differs from priority-flood ($rule)"
done

# --flat labels each cell's basin, 4 bytes a cell; where they do not fit
# it fills by the flood's bit a cell, to the same bytes: 4096x4096 (64 MB
# of heights) under a 100 MB address-space limit.
run_prog tnoise -q -s 4096x4096 -S 5 > "$T/big.tp"
run_prog tfill --flat < "$T/big.tp" > "$T/a"
lim=$(vm_limit 100000)
( ulimit -v "$lim"; exec $MEMCHECK "$TP_BIN/tfill" --flat < "$T/big.tp" > "$T/b" ) &&
    pass || fail "--flat under a memory limit"
cmp -s "$T/a" "$T/b" && pass || fail "--flat: the flood's bytes differ from the basins'"
rm -f "$T/big.tp" "$T/a" "$T/b"

# A grid as rough as white noise (a pit in about 9 cells) is declined by
# the basins' graph after its first pass and filled by the flood: the
# same bytes as Planchon-Darboux.
py 'print(" ".join("%.6f" % v for v in np.random.default_rng(3).random(300 * 200)))' |
    mkstream 300 200 height > "$T/white"
run_prog tfill --flat < "$T/white" > "$T/a"
run_prog tfill --flat -m planchon-darboux < "$T/white" > "$T/b"
cmp -s <(body "$T/a") <(body "$T/b") && pass ||
    fail "--flat on white noise differs from planchon-darboux"

# A pipeline: noise filled has no sink left (every cell has a lower
# neighbour or is an outlet), so tflow reports none.
run_prog tnoise -q -s 200x150 -S 5 | run_prog tfill | run_prog tflow -v \
    > "$T/o" 2> "$T/err"
grep -q " 0 sinks" "$T/err" && pass || fail "pipeline: sinks left: $(cat "$T/err")"

# The sea (SEALEVEL 2): cells below it are outlets and stay as they are,
# the sea-floor pit (the 0) included; the island cell 3 keeps its height;
# the land pit 4, 3 drains through the 3, which touches the sea, so neither
# is raised; the pit 5 away from the sea is filled (to 9). Without the sea
# (--no-sea) every cell below 9 lies in one basin and is filled to 9.
sea="9 9 9 9 9 9 9  9 5 9 1 0.5 1 9  9 9 9 1.5 3 1 9  9 4 3 9 1 0 9  9 9 9 9 9 9 9"
echo "$sea" | mkstream 7 5 height "SEALEVEL 2" > "$T/sea"
echo "$sea" | mkstream 7 5 height > "$T/nosea"
run_prog tfill --flat -d < "$T/sea" > "$T/o"
assert_eq "sea: heights" "$(stat "$T/o" height 'a.ravel().tolist()')" \
    "$(py 'print([float(v) for v in np.array(sys.argv[1].split(), "<f4")])' \
    "$(echo "$sea" | sed 's/9 5 9 1/9 9 9 1/')")"
assert_eq "sea: depth 4 in the land pit, 0 elsewhere (the sea too)" \
    "$(stat "$T/o" depth 'a.ravel().tolist() == [4.0 * (i == 8) for i in range(35)]')" True
assert_eq "sea: SEALEVEL passes" "$(header "$T/o" SEALEVEL)" 2
run_prog tfill --flat -d -m planchon-darboux < "$T/sea" > "$T/p"
cmp -s <(body "$T/o") <(body "$T/p") && pass ||
    fail "planchon-darboux differs from priority-flood (sea)"
run_prog tfill --flat --sea 2 < "$T/nosea" > "$T/p"
run_prog tfill --flat < "$T/sea" > "$T/o"
cmp -s <(body "$T/o") <(body "$T/p") && pass ||
    fail "--sea 2 differs from SEALEVEL 2"
assert_eq "--sea is recorded" "$(header "$T/p" SEALEVEL) | $(header "$T/p" HISTORY)" \
    "2 | tfill --flat --sea 2"
run_prog tfill --flat --sea 0.25 < "$T/sea" > "$T/p"
assert_eq "--sea overrides SEALEVEL" "$(header "$T/p" SEALEVEL) $(header_lines "$T/p" | grep -c SEALEVEL)" "0.25 1"
run_prog tfill --flat --no-sea < "$T/sea" > "$T/o"
assert_eq "--no-sea fills the sea" "$(values "$T/o" | sort -u)" 9
run_prog tfill --flat < "$T/nosea" > "$T/p"
cmp -s <(body "$T/o") <(body "$T/p") && pass || fail "--no-sea differs from no SEALEVEL"
# The island pipeline: no cell below the sea level changes, and no lake
# (depth > 0) lies below it; both methods agree.
run_prog tnoise -q -s 200x150 -S 5 | run_prog tisland --sea 0.3 > "$T/isl"
run_prog tfill -d < "$T/isl" > "$T/o"
run_prog tfill -d -m planchon-darboux < "$T/isl" > "$T/p"
cmp -s <(body "$T/o") <(body "$T/p") && pass ||
    fail "planchon-darboux differs from priority-flood (island)"
assert_eq "island: the sea unchanged, no lake in it, some sea" \
    "$(py 'i = band(sys.argv[1], "height"); b = bands(sys.argv[2]); s = i < 0.3
print(bool((b["height"][s].view("<u4") == i[s].view("<u4")).all()),
      bool((b["depth"][s] == 0).all()), bool(s.sum() > 1000))' "$T/isl" "$T/o")" \
    "True True True"
echo "1 2 3 4" | mkstream 2 2 height "SEALEVEL x" > "$T/badsea"
expect_err 1 "^tfill: SEALEVEL: 'x' is not a number$" "malformed SEALEVEL" \
    run_prog tfill < "$T/badsea"
assert_eq "malformed SEALEVEL: one line" "$(wc -l < "$T/.err")" 1
expect_exit 0 "--no-sea ignores a malformed SEALEVEL" run_prog tfill --no-sea < "$T/badsea"
expect_exit 2 "--sea with --no-sea" run_prog tfill --sea 1 --no-sea
expect_exit 2 "bad --sea" run_prog tfill --sea low

# --breach: a valley (row 3) falling east, dammed by a wall of 12 one
# cell thick at x = 4 above a pit of 6; walls of 15 and 16, a west end of
# 30. The dam is cut to the next float below 6 (depth about -6), nothing
# is raised, and every cell drains (tflow's directions, tp.py's
# drain_check).
dam() {	# dam THICK: the valley with a dam THICK cells thick
	py 'import sys
t = int(sys.argv[1]); z = np.full((7, 11), 15.0, np.float32)
z[1] = z[5] = 16; z[0] = z[6] = 20; z[:, 0] = 30
z[3] = [30, 8, 7, 6, 5, 4, 3, 2, 1.5, 1.2, 1]; z[3, 4:4 + t] = 12
write(z)' "$1"
}
dam 1 > "$T/dam"
run_prog tfill --breach -d < "$T/dam" > "$T/o"
assert_eq "breach: the dam cut, nothing else changed" \
    "$(py 'b = bands(sys.argv[1]); d = b["depth"]
print(int((d < 0).sum()), int((d > 0).sum()),
      b["height"][3, 4] == np.nextafter(np.float32(6), np.float32(0)))' "$T/o")" \
    "1 0 True"
run_prog tflow < "$T/o" > "$T/of"
assert_eq "breach: every cell drains" \
    "$(py 'b = bands(sys.argv[1]); print(drain_check(b["dir"], ~np.isnan(b["height"])))' "$T/of")" ok
# Too deep (cutting 6 > 5), or too long (a dam 3 cells thick, 2 allowed,
# the way round dearer still): filled as without --breach, byte for byte.
run_prog tfill -d < "$T/dam" > "$T/p"
run_prog tfill -d --breach-depth 5 < "$T/dam" > "$T/o"
cmp -s <(body "$T/o") <(body "$T/p") && pass ||
    fail "breach: a cut deeper than --breach-depth is filled"
assert_eq "breach: the pit raised above the dam" \
    "$(py 'd = band(sys.argv[1], "depth"); print(bool(d[3, 3] > 6), int((d < 0).sum()))' "$T/o")" \
    "True 0"
dam 3 > "$T/dam3"
run_prog tfill -d < "$T/dam3" > "$T/p"
run_prog tfill -d --breach-length 2 < "$T/dam3" > "$T/o"
cmp -s <(body "$T/o") <(body "$T/p") && pass ||
    fail "breach: a cut longer than --breach-length is filled"
run_prog tfill -d --breach-length 3 < "$T/dam3" > "$T/o"
assert_eq "breach: three cells cut within --breach-length 3" \
    "$(py 'd = band(sys.argv[1], "depth"); print(int((d < 0).sum()), int((d > 0).sum()))' "$T/o")" \
    "3 0"
# The real DEM: the same bytes on any -j and tile size; cuts and fills
# both happen with a depth limit; everything drains.
run_prog tfill --breach -d < "$T/orig" > "$T/b1"
for j in "-j 2" "-j 4 --tile-size 64"; do
	run_prog tfill --breach -d $j < "$T/orig" > "$T/bj"
	cmp -s <(body "$T/b1") <(body "$T/bj") && pass ||
	    fail "breach: $j differs from one thread"
done
run_prog tfill --breach-depth 2 -d < "$T/orig" | run_prog tflow > "$T/bf"
assert_eq "breach: the DEM drains, cut and filled" \
    "$(py 'b = bands(sys.argv[1]); d = b["depth"]
print(drain_check(b["dir"], ~np.isnan(b["height"])), bool((d < 0).sum() > 100),
      bool((d > 0).sum() > 100), float(-d.min()) <= 2 + 1e-3)' "$T/bf")" \
    "ok True True True"
# Every rule and the sea: the island's sea floor is left as it is, and
# each rule's output drains (flat channels and lakes through tflow's
# flats).
for rule in "" "--flat" "-e 0.01"; do
	run_prog tfill --breach -d $rule < "$T/isl" > "$T/o"
	run_prog tflow < "$T/o" > "$T/of"
	assert_eq "breach $rule: the sea kept, cuts made, it drains" \
	    "$(py 'i = band(sys.argv[1], "height"); b = bands(sys.argv[2]); s = i < 0.3
print(bool((b["height"][s].view("<u4") == i[s].view("<u4")).all()),
      bool((b["depth"] < 0).any()), drain_check(b["dir"], ~np.isnan(i) & ~s))' "$T/isl" "$T/of")" \
	    "True True ok"
done
expect_exit 2 "breach: not in a tile phase" run_prog tfill --breach --tile-prepare x
expect_exit 2 "breach: bad length" run_prog tfill --breach-length 0
expect_exit 2 "breach: bad depth" run_prog tfill --breach-depth -1

# Misuse: exit 2; a truncated or wrong stream: exit 1 with the reason.
expect_exit 2 "bad epsilon" run_prog tfill --epsilon -1
expect_exit 2 "flat and epsilon" run_prog tfill --flat -e 1
expect_exit 2 "bad method" run_prog tfill -m bubble
expect_exit 2 "unknown option" run_prog tfill --frobnicate
head -c $(( $(body_offset "$T/pit") + 10 )) "$T/pit" > "$T/trunc"
expect_err 1 "tfill: .*row" "truncated input" run_prog tfill < "$T/trunc"
expect_err 1 "no band 'elev'" "missing band" run_prog tfill -b elev < "$T/pit"
finish
