#!/bin/bash
# tuplift: one step by hand, the analytic steady river (n = 1 and 2),
# slope-area and Hack's law on a steady landscape measured by a brute-force
# D8 in Python, the uplift band, base level (border, nodata, sea), units,
# thread independence, HISTORY, --stats and --until-steady, misuse.
. "$(dirname "$0")/common.sh"
STATS="$ROOT/scripts/landscape-stats.py"

stat() { py 'print(eval(sys.argv[2], {**globals(), **bands(sys.argv[1])}))' "$@"; }

# One step by hand: a 10 m cell in a ring of 0 m, 100 m cells. U dt = 1 m
# lifts it to 11; it drains east (the first of the steepest) over 100 m,
# A = 10^4 m^2, so with m = 0.5 and K = 1e-4, F = dt K A^m / d = 0.1 and
# h = (11 + 0.1 x 0) / 1.1 = 10 exactly. The ring is base level.
echo "0 0 0  0 10 0  0 0 0" | mkstream 3 3 height "CELLSIZE 100" > "$T/one"
run_prog tuplift -q --steps 1 --k 1e-4 --m 0.5 --diffusion 0 --flow d8 < "$T/one" > "$T/o"
assert_eq "one step by hand" "$(values "$T/o" | tr '\n' ' ')" "0 0 0 0 10 0 0 0 0 "
# The same with the default mfd: the cell drains to all eight, each by its
# slope S_k = 10 / d_k, so sum F_k = dt K A^m sum (S_k / sum S) / d_k
# = 10 x 0.006 / 0.682843 = 0.0878680 and h = 11 / 1.0878680 = 10.111521.
run_prog tuplift -q --steps 1 --k 1e-4 --m 0.5 --diffusion 0 < "$T/one" > "$T/o"
assert_near "one step by hand, mfd" "$(stat "$T/o" 'float(height[1, 1])')" 10.111521 1e-5
# Diffusion alone: D dt / dx^2 = 1 along the row, then the column: 1/9.
echo "0 0 0  0 1 0  0 0 0" | mkstream 3 3 height "CELLSIZE 100" |
    run_prog tuplift -q -s 1 -u 0 -k 1e-30 -d 10 > "$T/o"
assert_near "diffusion by hand" "$(stat "$T/o" 'float(height[1, 1])')" 0.111111 1e-6

# The analytic steady state: a river down the middle of a 3 x 40 strip of
# 100 m cells, walls (columns 0 and 2, row 0) high and fixed, the outlet
# the middle cell of the last row at 0. The cell of row y drains y cells,
# A = y x 10^4 m^2; at steady state its slope to the next is
# (U / (K A^m))^(1/n) (U = 1e-3 m/yr, K = 1e-5, m = 0.45).
py 'z = np.full((40, 3), 1e6); z[1:, 1] = 0
write(z, extra=["CELLSIZE 100"])' > "$T/strip"
# (With --flow mfd the walls leave each cell one lower neighbour: the same.)
for n in 1 2 1m 2m; do
	fl=d8; case $n in *m) fl=mfd; n=${n%m} ;; esac
	run_prog tuplift -q --k 1e-5 --n $n -d 0 --dt 1e5 --until-steady 1e-7 \
	    --flow $fl < "$T/strip" > "$T/s$n"
	assert_eq "strip n = $n ($fl): slope within 1% of (U/(K A^m))^(1/n)" "$(py '
n = float(sys.argv[2]); z = bands(sys.argv[1])["height"][:, 1].astype(float)
y = np.arange(1, 39); s = (z[1:39] - z[2:40]) / 100
want = (1e-3 / (1e-5 * (y * 1e4) ** 0.45)) ** (1 / n)
print(bool(np.abs(s / want - 1).max() < 0.01), z[39])' "$T/s$n" $n)" "True 0.0"
done

# Slope-area on a steady 96 x 96 landscape of 100 m cells (m/n = 0.45, no
# diffusion, D8 routing), by landscape-stats.py's own D8: the concavity is
# 0.45 +- 0.05 and the steepness (U/K)^(1/n) = 100 within 5%; Hack's
# exponent lies in the 0.5 .. 0.65 natural basins show; the network
# branches to Strahler order 4 (channels: 10 cells and more).
run_prog tnoise -q -s 96x96 -c 100 -S 4 > "$T/n96"
run_prog tuplift -z 100 --k 1e-5 -d 0 --dt 1e6 --until-steady 0.01 --stats \
    --flow d8 < "$T/n96" > "$T/s96" 2> "$T/err"
tail -n 1 "$T/err" | grep -q "^tuplift: steady after [0-9]* steps$" && pass ||
    fail "--until-steady: $(tail -n 1 "$T/err")"
assert_eq "--stats: a line a step" "$(grep -c 'max change' "$T/err")" \
    "$(tail -n 1 "$T/err" | awk '{ print $4 }')"
"$PY" "$STATS" --zscale 100 --threshold 10 "$T/s96" > "$T/fig"
fig() { awk -v k="$1" '$1 == k { print $2 }' "$T/fig"; }
assert_near "concavity" "$(fig concavity)" 0.45 0.05
assert_near "steepness / (U/K)" "$(awk -v s="$(fig steepness)" 'BEGIN { print s / 100 }')" 1 0.05
assert_near "Hack's exponent" "$(fig hack_exponent)" 0.575 0.075
assert_eq "Strahler order 4" "$(fig max_strahler)" 4

# The band 'uplift' multiplies U cell by cell (2 x 0.001 m/yr: +2 m a
# step), with --uplift too (2 x 0.0005: +1 m); it passes through
# unchanged. K so small and no diffusion, so that nothing else moves the
# cell.
py 'write(np.stack([np.pad([[0.5]], 1), np.full((3, 3), 2.0)], 1), "height uplift",
    ["CELLSIZE 100"])' > "$T/ub"
run_prog tuplift -q -s 1 -k 1e-30 -d 0 < "$T/ub" > "$T/o"
assert_eq "uplift band" "$(stat "$T/o" '(float(height[1, 1]), float(uplift[1, 1]))')" \
    "(2.5, 2.0)"
run_prog tuplift -q -s 1 -k 1e-30 -d 0 -u 0.0005 < "$T/ub" > "$T/o"
assert_eq "--uplift scales the band" "$(stat "$T/o" 'float(height[1, 1])')" 1.5

# Base level: a NaN cell stays NaN and its neighbours keep their bytes;
# the sea (an island, SEALEVEL 0.3) keeps its bytes and land stays at or
# above the level; --sea records SEALEVEL; --no-sea lets the sea evolve.
run_prog tnoise -q -s 64x48 -S 5 | run_prog tisland -q --sea 0.3 > "$T/isl"
py 'h, a = read(sys.argv[1]); a = a.copy(); a[20, 0, 30] = np.nan
write(a[:, 0], extra=["SEALEVEL 0.3"])' "$T/isl" > "$T/isln"
run_prog tuplift -q -z 300 < "$T/isln" > "$T/o"
assert_eq "sea and nodata kept" "$(py '
a = bands(sys.argv[1])["height"]; b = bands(sys.argv[2])["height"]
sea = a < np.float32(0.3); near = np.zeros_like(sea); near[19:22, 29:32] = True
land = ~sea & ~near
print(bool(np.isnan(b[20, 30])), bool((a[sea] == b[sea]).all()),
      bool((a[near & ~np.isnan(a)] == b[near & ~np.isnan(b)]).all()),
      bool((b[land] >= np.float32(0.3)).all()), bool((a[land] != b[land]).any()))' \
    "$T/isln" "$T/o")" "True True True True True"
run_prog tuplift -q -s 3 --sea 0.3 < "$T/isl" > "$T/p"
run_prog tuplift -q -s 3 < "$T/isl" > "$T/o"
assert_same "--sea 0.3 = SEALEVEL 0.3" <(body "$T/o") <(body "$T/p")
assert_eq "--sea recorded" "$(header "$T/p" SEALEVEL)" 0.3
run_prog tuplift -q -s 3 --no-sea < "$T/isl" > "$T/o"
assert_eq "--no-sea: the sea floor rises" \
    "$(stat "$T/o" 'bool((height[10:-10, 10:-10] > 0).all())')" True

# Units: the same landscape in kilometres with --zscale 1000.
run_prog tnoise -q -s 48x40 -c 100 -S 2 | py 'h, a = read("/dev/stdin")
write(a[:, 0] * 300, extra=["CELLSIZE 100"])' > "$T/m"
py 'h, a = read(sys.argv[1]); write(a[:, 0] / 1000, extra=["CELLSIZE 100"])' "$T/m" > "$T/km"
run_prog tuplift -q -s 20 --n 1.5 < "$T/m" > "$T/om"
run_prog tuplift -q -s 20 --n 1.5 -z 1000 < "$T/km" > "$T/okm"
assert_eq "--zscale: kilometres as metres" "$(py '
a = bands(sys.argv[1])["height"].astype(float); b = bands(sys.argv[2])["height"] * 1000.0
print(bool(np.abs(a - b).max() < 1e-3 * np.abs(a).max()), bool(np.abs(a - read(sys.argv[3])[1][:, 0]).max() > 1))' \
    "$T/om" "$T/okm" "$T/m")" "True True"

# The same with the default routing (mfd) to a balance of erosion and
# uplift (--until-balanced: the mean change of a step 1e-4 of its uplift;
# MFD's divides keep creeping, so no cell-wise steady state comes soon):
# a 128 x 128 landscape has the same concavity and Hack's exponent, and
# A8, the eight-fold anisotropy of aspects, is 0.02 or less (D8: 0.024).
run_prog tnoise -q -s 128x128 -c 100 -S 4 > "$T/n128c"
run_prog tuplift -z 100 --k 1e-5 -d 0 --dt 1e7 --until-balanced 1e-4 --stats \
    < "$T/n128c" > "$T/s128" 2> "$T/err"
tail -n 1 "$T/err" | grep -q "^tuplift: balanced after [0-9]* steps$" && pass ||
    fail "--until-balanced: $(tail -n 1 "$T/err")"
assert_eq "--until-balanced: the last step within 1e-4 of its uplift" "$(grep \
    'max change' "$T/err" | tail -n 1 | tr -d ',' | awk '{ print ($9 <= 1e-4 * $12) }')" 1
"$PY" "$STATS" --zscale 100 --threshold 10 "$T/s128" > "$T/fig"
assert_near "mfd: concavity" "$(fig concavity)" 0.45 0.05
assert_near "mfd: Hack's exponent" "$(fig hack_exponent)" 0.575 0.075
assert_eq "mfd: A8 0.02 or less" "$(fig a8 | awk '{ print ($1 <= 0.02) }')" 1

# Facets on the default run (100 steps of 1000 years) of a 512 x 512
# noise: D8's valleys run at 0, 45 and 90 degrees (A8 about 0.27), the
# default mfd's every way (0.02 or less). Smaller grids hold too few
# hillslopes for A8 to be read to 0.02.
run_prog tnoise -q -s 512x512 -S 7 > "$T/n512"
for fl in d8 mfd; do
	run_prog tuplift -q --flow $fl < "$T/n512" > "$T/f$fl"
done
run_prog tuplift -q < "$T/n512" > "$T/fdef"
assert_same "the default routing is mfd" <(body "$T/fdef") <(body "$T/fmfd")
assert_eq "A8: d8 faceted, mfd 0.02 or less" "$("$PY" "$STATS" --a8-only "$T/fd8" |
    awk '$1 == "a8" { print ($2 > 0.2) }') $("$PY" "$STATS" --a8-only "$T/fmfd" |
    awk '$1 == "a8" { print ($2 <= 0.02) }')" "1 1"

# Threads, HISTORY (no -j, -q, --stats, --progress), the pipeline.
run_prog tnoise -q -s 150x100 -S 9 > "$T/in"
run_prog tuplift -q -j 1 -s 30 -d 0.01 --n 2 -z 50 < "$T/in" > "$T/j1"
run_prog tuplift -q -j 2 --stats --progress -s 30 -d 0.01 --n 2 -z 50 < "$T/in" > "$T/j2" 2>/dev/null
assert_same "-j 1 = -j 2" "$T/j1" "$T/j2"
run_prog tuplift -q -j 1 -s 30 -d 0.01 --n 2 -z 50 --flow d8 < "$T/in" > "$T/m1"
run_prog tuplift -q -j 2 -s 30 -d 0.01 --n 2 -z 50 --flow d8 < "$T/in" > "$T/m2"
assert_same "--flow d8: -j 1 = -j 2" "$T/m1" "$T/m2"
assert_eq "HISTORY" "$(header_lines "$T/j2" | grep '^HISTORY' | tail -n 1)" \
    "HISTORY tuplift --steps 30 --diffusion 0.01 --n 2 --zscale 50"
run_prog tuplift -q -s 20 < "$T/in" | run_prog tfill -q | run_prog tflow -q -r 200 > "$T/o"
assert_eq "pipeline: rivers" "$(stat "$T/o" 'bool(river.sum() > 0)')" True

# --masks: on the cells that move (not the border), wear - deposit is the
# fall plus the run's uplift (30 x 1000 x 0.001 / 50 = 0.6 units); the
# heights as without it; the same bytes on -j 1 and 2; no deposit without
# diffusion; flow the drainage area, at least a cell's.
run_prog tuplift -q -j 1 -s 30 -d 0.01 --n 2 -z 50 --masks < "$T/in" > "$T/mk1"
run_prog tuplift -q -j 2 -s 30 -d 0.01 --n 2 -z 50 --masks < "$T/in" > "$T/mk2"
assert_same "masks: -j 1 = -j 2" "$T/mk1" "$T/mk2"
run_prog tuplift -q -s 30 -d 0 -z 50 --masks < "$T/in" > "$T/mk0"
assert_eq "masks: sums" "$(py '
h0 = band(sys.argv[1], "height").astype(float); m = bands(sys.argv[2]); bare = band(sys.argv[3], "height")
z, w, d, f = (m[b].astype(float) for b in ("height", "wear", "deposit", "flow"))
i = np.s_[1:-1, 1:-1]; b = np.ones(h0.shape, bool); b[i] = False
print(m["height"].tobytes() == bare.tobytes(), bool((w >= 0).all() and (d >= 0).all()),
    bool(np.abs(w[i] - d[i] - (h0[i] - z[i]) - 0.6).max() < 1e-4),
    bool((w[b] == 0).all() and (d[b] == 0).all() and d.max() > 0),
    bool((f[i] >= 1).all() and f.max() > 20),
    float(band(sys.argv[4], "deposit").max()))' "$T/in" "$T/mk1" "$T/j1" "$T/mk0")" \
    "True True True True True 0.0"
# The same sums when incision shares its water among several receivers.
run_prog tuplift -q -s 30 -d 0.01 --n 2 -z 50 --masks --flow mfd < "$T/in" > "$T/mkm"
assert_eq "masks: sums with --flow mfd" "$(py '
h0 = band(sys.argv[1], "height").astype(float); m = bands(sys.argv[2])
z, w, d = (m[b].astype(float) for b in ("height", "wear", "deposit"))
i = np.s_[1:-1, 1:-1]
print(bool(np.abs(w[i] - d[i] - (h0[i] - z[i]) - 0.6).max() < 1e-4), bool(w.max() > 0))' \
    "$T/in" "$T/mkm")" "True True"
expect_exit 2 "masks: the evolved band" run_prog tuplift --masks -b wear < "$T/mk1"

# Not steady in time: a warning, the output all the same.
run_prog tuplift -s 2 --until-steady 1e-9 < "$T/in" > "$T/o" 2> "$T/err"
assert_eq "not steady" "$(sed 's/[0-9][0-9.e+-]* m/X m/g' "$T/err")" \
    "tuplift: warning: not steady after 2 steps (last change X m at most, X m on average, uplift X m)"
[ -s "$T/o" ] && pass || fail "not steady: no output"
run_prog tuplift -s 2 --until-balanced 1e-9 < "$T/in" > "$T/o" 2> "$T/err"
assert_eq "not balanced" "$(sed 's/[0-9][0-9.e+-]* m/X m/g' "$T/err")" \
    "tuplift: warning: not balanced after 2 steps (last change X m at most, X m on average, uplift X m)"
expect_exit 2 "--until-steady with --until-balanced" run_prog tuplift \
    --until-steady 1 --until-balanced 0.1
expect_exit 2 "--until-balanced above 1" run_prog tuplift --until-balanced 2

expect_err 2 "^tuplift: --n: 5 is out of range \[0.5, 4\]$" "--n 5" run_prog tuplift --n 5
expect_err 2 "^tuplift: --band: 'uplift' is the uplift band$" "--band uplift" \
    run_prog tuplift -b uplift
expect_exit 2 "unknown --flow" run_prog tuplift --flow d4
expect_exit 2 "--flow-exp out of range" run_prog tuplift --flow-exp -1
expect_exit 2 "--sea with --no-sea" run_prog tuplift --sea 1 --no-sea
expect_exit 2 "negative steps" run_prog tuplift -s -1
expect_exit 2 "zero dt" run_prog tuplift --dt 0
expect_exit 2 "operand" run_prog tuplift x
expect_err 1 "^tuplift: the input has no band 'rock' (its bands: height)$" "missing band" run_prog tuplift -b rock < "$T/in"
head -c $(( $(body_offset "$T/in") + 100 )) "$T/in" > "$T/trunc"
expect_err 1 "tuplift: .*row" "truncated input" run_prog tuplift < "$T/trunc"
finish
