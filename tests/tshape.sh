#!/bin/bash
# tshape: the monotone height curve, its presets, pow, stretch and the
# clamp rule, on hand-computed values.
. "$(dirname "$0")/common.sh"

# rand W H BANDS SEED: a stream of uniform values in [-0.2, 1.2] with NaNs.
rand() {
	py - "$@" <<'PYEOF'
w, h, bands, seed = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split(','), int(sys.argv[4])
r = np.random.default_rng(seed)
a = r.uniform(-0.2, 1.2, (h, len(bands), w)).astype('<f4')
a[r.random(a.shape) < 0.01] = np.nan
write(a, bands, ["CELLSIZE 30", "ORIGIN 1000 2000", "CRS EPSG:32633", "FOO bar baz"])
PYEOF
}

# Golden values: seed 000's S (knots 0,0,0,1,1: x = 0.625 -> 0.5, 0.5625
# -> 3u^2 - 2u^3 = 0.15625) and the clamp rule (below 0 -> 0, above 1 -> 1,
# NaN -> 0).
echo "0 0.5 0.5625 0.625 0.75 1 -0.5 1.5 nan" | mkstream 9 1 height > "$T/a"
run_prog tshape -k 0,0,0,1,1 < "$T/a" > "$T/b"
assert_eq "seed S curve" "$(values "$T/b" | tr '\n' ' ')" \
    "0 0 0.15625 0.5 1 1 0 1 0 "
# valleys = x^2 on the knots; Red Blob's pow(e, 2); stretch [-1,3] -> [0,1]
run_prog tshape --curve valleys < "$T/a" > "$T/b"
assert_eq "valleys" "$(values "$T/b" | sed -n 2p)" "0.25"
run_prog tshape --pow 2 < "$T/a" > "$T/b"
assert_eq "pow 2" "$(values "$T/b" | sed -n 2p)" "0.25"
run_prog tshape --stretch -1,3 < "$T/a" > "$T/b"
assert_eq "stretch" "$(values "$T/b" | sed -n 7,8p | tr '\n' ' ')" "0.125 0.625 "
# Fritsch-Carlson by hand: knots 0,0.25,1 (x 0,.5,1): slopes .5 .75 1.5,
# at x = .25: .125*.25 + .5*.25 - .125*.375 = 0.109375; as points too
echo "0.25" | mkstream 1 1 height > "$T/q"
run_prog tshape -k 0,0.25,1 < "$T/q" > "$T/b"
assert_eq "slopes" "$(values "$T/b")" "0.109375"
run_prog tshape -p 0:0,0.5:0.25,1:1 < "$T/q" > "$T/b"
assert_eq "points" "$(values "$T/b")" "0.109375"

# The linear curve is the identity (within 2e-7) on values in [0, 1].
py 'write(np.linspace(0, 1, 4099).astype("<f4")[None, :])' > "$T/lin"
run_prog tshape --curve linear < "$T/lin" > "$T/b"
assert_eq "linear identity" "$(py '
print(float(np.max(np.abs(floats(sys.argv[1]) - floats(sys.argv[2])))) <= 2e-7)' "$T/lin" "$T/b")" True

# Other bands, unknown keys and the CRS pass through; HISTORY is appended;
# -j 1 and -j 2 give the same bytes; every preset output rises with input.
rand 300 97 moisture,height 5 > "$T/r"
run_prog tshape -j 1 -c s-curve < "$T/r" > "$T/j1"
run_prog tshape -j 2 -c s-curve < "$T/r" > "$T/j2"
assert_eq "-j 1 vs -j 2" "$(body "$T/j1" | md5sum)" "$(body "$T/j2" | md5sum)"
assert_eq "history" "$(header_lines "$T/j1" | tail -n 1)" \
    "HISTORY tshape --curve s-curve"
assert_eq "extra key" "$(header "$T/j1" FOO)" "bar baz"
assert_eq "crs" "$(header "$T/j1" CRS)" "EPSG:32633"
assert_eq "bands kept" "$(py '
a, b = grid(sys.argv[1]), grid(sys.argv[2])
ok = a[:, 0].tobytes() == b[:, 0].tobytes()
x, y = a[:, 1].ravel(), b[:, 1].ravel()
x = np.where(np.isnan(x), 0, np.clip(x, 0, 1)); o = np.argsort(x, kind="stable")
ok = ok and not np.isnan(y).any() and bool(np.all(np.diff(y[o]) >= 0)) and y.min() >= 0 and y.max() <= 1
print(ok)' "$T/r" "$T/j1")" True
rand 40 3 height 9 > "$T/r1"
run_prog tshape -b height -c peaks < "$T/r1" > "$T/o1"
run_prog tshape -k 0,0.015625,0.125,0.421875,1 < "$T/r1" > "$T/o2"
assert_eq "peaks = x^3 knots" "$(body "$T/o1" | md5sum)" "$(body "$T/o2" | md5sum)"

# A pipeline: seed 000's order, curve then terraces; 0.625 -> 0.5 -> 0.5
# (a tread edge of 4 steps), 0.5625 -> 0.15625 -> t = 0.625, x = 0.8125,
# smoothstep 0.90771484375, / 4 = 0.2269287109375.
run_prog tshape -k 0,0,0,1,1 < "$T/a" | run_prog tterrace -s 4 -r 0.4 > "$T/b"
assert_eq "pipeline" "$(values "$T/b" | sed -n 3,4p | tr '\n' ' ')" \
    "0.226928711 0.5 "

# Misuse: exit 2; a bad stream: exit 1 with a message.
expect_exit 2 "unknown preset" run_prog tshape --curve wobbly
expect_exit 2 "two curve options" run_prog tshape -c linear -k 0,1
expect_exit 2 "one knot" run_prog tshape -k 0.5
expect_exit 2 "17 knots" run_prog tshape -k 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1
expect_exit 2 "knot above 1" run_prog tshape -k 0,2
expect_exit 2 "points not rising" run_prog tshape -p 0:0,0.5:0.5,0.5:1
expect_exit 2 "points syntax" run_prog tshape -p 0,1
expect_exit 2 "points empty entry" run_prog tshape -p 0:0,,1:1
expect_exit 2 "bad pow" run_prog tshape --pow 0
expect_exit 2 "bad stretch" run_prog tshape --stretch 1,1
expect_exit 2 "stray argument" run_prog tshape foo
ok "help" run_prog tshape --help
head -c $(( $(stat -c %s "$T/r") - 10 )) "$T/r" > "$T/trunc"
expect_err 1 "tshape: " "truncated input" run_prog tshape < "$T/trunc"
expect_err 1 "no band 'depth'" "missing band" run_prog tshape -b depth < "$T/r"
finish
