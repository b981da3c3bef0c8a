#!/bin/bash
# tterrace: terraces with sloped risers, on hand-computed values and
# against the seed document's formula computed independently in numpy.
. "$(dirname "$0")/common.sh"

# Golden values, 4 steps, riser 0.4 (seed 000): the middle of a riser is
# the identity (0.375 -> 0.375); 0.3 is on a tread (t = 1.2 -> 0.25); 0.4
# 0.40625 is on a riser (t = 1.625, x = (0.625 - 0.3) / 0.4 = 0.8125,
# smoothstep 0.90771484375 -> 1.90771484375 / 4 = 0.4769287109375);
# 0 and 1 are fixed; NaN passes through.
echo "0.375 0.3 0.40625 0 1 nan 0.125 0.875" | mkstream 8 1 height > "$T/a"
run_prog tterrace --steps 4 --riser 0.4 < "$T/a" > "$T/b"
assert_eq "seed values" "$(values "$T/b" | tr '\n' ' ')" \
    "0.375 0.25 0.476928711 0 1 nan 0.125 0.875 "
run_prog tterrace -s 4 --naive < "$T/a" > "$T/b"
assert_eq "naive" "$(values "$T/b" | tr '\n' ' ')" \
    "0.5 0.25 0.5 0 1 nan 0.25 1 "

# A 2-band stream of random heights in [0, 1] (and a few outside).
py - > "$T/r" <<'PYEOF'
r = np.random.default_rng(3)
a = r.uniform(-0.1, 1.1, (150, 2, 257)).astype('<f4')
a[0, 1, :5] = np.nan
write(a, "height moisture", ["CELLSIZE 2", "FOO 1 2 3"])
PYEOF
# The formula, computed again in numpy: the same float32 bytes.
run_prog tterrace -s 7 -r 0.35 -j 1 < "$T/r" > "$T/j1"
assert_eq "formula" "$(py - "$T/r" "$T/j1" <<'PYEOF'
a, b = grid(sys.argv[1]), grid(sys.argv[2])
h = a[:, 0].astype(np.float64)
steps, half = 7.0, 0.5 * 0.35
e0, e1 = 0.5 - half, 0.5 + half
t = h * steps; level = np.floor(t)
x = np.clip((t - level - e0) * (1.0 / (e1 - e0)), 0, 1)
ref = ((level + x * x * (3 - 2 * x)) * (1.0 / steps)).astype('<f4')
same = ref.tobytes() == b[:, 0].tobytes()
print(same and a[:, 1].tobytes() == b[:, 1].tobytes())
PYEOF
)" True
run_prog tterrace -s 7 -r 0.35 -j 2 < "$T/r" > "$T/j2"
assert_eq "-j 1 vs -j 2" "$(body "$T/j1" | md5sum)" "$(body "$T/j2" | md5sum)"
assert_eq "extra key" "$(header "$T/j1" FOO)" "1 2 3"
assert_eq "history" "$(header_lines "$T/j1" | tail -n 1)" \
    "HISTORY tterrace --steps 7 --riser 0.35"
# riser 0 is the same as the naive hard steps
run_prog tterrace -s 5 -r 0 < "$T/r" > "$T/h1"
run_prog tterrace -s 5 --naive < "$T/r" > "$T/h2"
assert_eq "riser 0 = naive" "$(body "$T/h1" | md5sum)" "$(body "$T/h2" | md5sum)"
# -b works on another band and leaves height alone
run_prog tterrace -b moisture -s 3 < "$T/r" > "$T/m"
assert_eq "band option" "$(py - "$T/r" "$T/m" <<'PYEOF'
a, b = grid(sys.argv[1]), grid(sys.argv[2])
print(a[:, 0].tobytes() == b[:, 0].tobytes() and a[:, 1].tobytes() != b[:, 1].tobytes())
PYEOF
)" True

# A pipeline, seed 000's order: curve first, then terraces. valleys maps
# 0.5 to 0.25, which 4 steps keep (a tread edge) -> 0.25.
echo "0.5" | mkstream 1 1 height | run_prog tshape -c valleys |
    run_prog tterrace -s 4 -r 0.4 > "$T/p"
assert_eq "pipeline" "$(values "$T/p")" "0.25"

# Misuse: exit 2; bad streams: exit 1 with a message.
expect_exit 2 "steps 0" run_prog tterrace -s 0
expect_exit 2 "riser > 1" run_prog tterrace -r 1.5
expect_exit 2 "riser not a number" run_prog tterrace -r abc
expect_exit 2 "unknown option" run_prog tterrace --cliffs
ok "help" run_prog tterrace -h
head -c $(( $(stat -c %s "$T/r") - 1 )) "$T/r" > "$T/trunc"
expect_err 1 "tterrace: " "truncated input" run_prog tterrace < "$T/trunc"
printf 'TERRAPIPE 1\nWIDTH x\nENDHDR\n' > "$T/bad"
expect_exit 1 "bad header" run_prog tterrace < "$T/bad"
finish
