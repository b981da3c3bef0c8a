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

# A pipeline: noise filled has no sink left (every cell has a lower
# neighbour or is an outlet), so tflow reports none.
run_prog tnoise -q -s 200x150 -S 5 | run_prog tfill | run_prog tflow -v \
    > "$T/o" 2> "$T/err"
grep -q " 0 sinks" "$T/err" && pass || fail "pipeline: sinks left: $(cat "$T/err")"

# Misuse: exit 2; a truncated or wrong stream: exit 1 with the reason.
expect_exit 2 "bad epsilon" run_prog tfill --epsilon -1
expect_exit 2 "flat and epsilon" run_prog tfill --flat -e 1
expect_exit 2 "bad method" run_prog tfill -m bubble
expect_exit 2 "unknown option" run_prog tfill --frobnicate
head -c $(( $(body_offset "$T/pit") + 10 )) "$T/pit" > "$T/trunc"
expect_err 1 "tfill: .*row" "truncated input" run_prog tfill < "$T/trunc"
expect_err 1 "no band 'elev'" "missing band" run_prog tfill -b elev < "$T/pit"
finish
