#!/bin/bash
# tisland: radial falloff to an island, on hand-computed values, tiles of
# one island, and a warped coast.
. "$(dirname "$0")/common.sh"

# Golden values on 4x4 cells of 0.5 (centre (2,2), radius 2): cell (1,1)
# is at nx = -0.25, ny = 0.25, d = sqrt(0.125) = 0.35355339, so
# 0.5 + 0.5 * (1 - d - 0.5) = 0.57322330; the corner cell has d = min(1,
# 1.06) = 1 -> 0.25. square-bump: 1 - (15/16)^2 = 0.12109375 -> mix 1:
# 0.87890625.
py 'write(np.full((4, 1, 4), 0.5))' > "$T/a"
run_prog tisland < "$T/a" > "$T/b"
assert_near "euclidean (1,1)" "$(values "$T/b" | sed -n 6p)" 0.5732233 1e-7
assert_eq "corner" "$(values "$T/b" | sed -n 1p)" 0.25
run_prog tisland -s square-bump -m 1 < "$T/a" > "$T/b"
assert_eq "square-bump (1,1)" "$(values "$T/b" | sed -n 6p)" 0.87890625

# mix 0 changes nothing; euclidean corners go to (1 - mix) h.
py 'write(np.random.default_rng(4).uniform(0, 1, (33, 2, 41)), "height moisture", "CELLSIZE 30\nORIGIN 500000 4649776\nFOO x\n")' > "$T/r"
run_prog tisland -m 0 < "$T/r" > "$T/b"
assert_eq "mix 0" "$(body "$T/r" | md5sum)" "$(body "$T/b" | md5sum)"
run_prog tisland -m 0.3 -j 1 < "$T/r" > "$T/j1"
assert_eq "corners and bands" "$(py '
a, b = grid(sys.argv[1]), grid(sys.argv[2])
c = [(0, 0), (0, -1), (-1, 0), (-1, -1)]
ok = all(abs(b[y, 0, x] - 0.7 * a[y, 0, x]) <= 1e-7 for y, x in c)
print(ok and a[:, 1].tobytes() == b[:, 1].tobytes())' "$T/r" "$T/j1")" True
run_prog tisland -m 0.3 -j 2 < "$T/r" > "$T/j2"
assert_eq "-j 1 vs -j 2" "$(body "$T/j1" | md5sum)" "$(body "$T/j2" | md5sum)"
assert_eq "extra key" "$(header "$T/j1" FOO)" x
assert_eq "history" "$(header_lines "$T/j1" | tail -n 1)" \
    "HISTORY tisland --mix 0.3"
run_prog tisland --sea 0.2 < "$T/r" > "$T/b"
assert_eq "sea level recorded" "$(header "$T/b" SEALEVEL)" 0.2
run_prog tisland --sea 0.35 < "$T/b" > "$T/c"
assert_eq "sea level replaced" "$(grep -a -c '^SEALEVEL' "$T/c")" 1

# Tiles of one island with --center/--radius equal the whole, warped too:
# four tiles cut from the input with shifted ORIGIN, shaped alone.
py 'write(np.random.default_rng(7).uniform(0, 1, (40, 1, 56)), extra="CELLSIZE 30\nORIGIN 500000 4649776\n")' > "$T/w"
tiles="0:0 0:23 17:0 17:23"
py '
a = grid(sys.argv[1])
for t in sys.argv[3:]:
    r0, c0 = map(int, t.split(":"))
    write(a[r0:r0 + 23, :, c0:c0 + 33], extra="CELLSIZE 30\nORIGIN %r %r\n" % (500000 + 30 * c0, 4649776 - 30 * r0),
          out="%s/in%s" % (sys.argv[2], t))' "$T/w" "$T" $tiles
for warp in 0 0.3; do
	opts="--center 500800,4649200 --radius 700 -w $warp --seed 3"
	run_prog tisland $opts < "$T/w" > "$T/whole"
	for t in $tiles; do
		run_prog tisland $opts < "$T/in$t" > "$T/out$t"
	done
	assert_eq "tiles, warp $warp" "$(py '
a = grid(sys.argv[1])
for t in sys.argv[3:]:
    r0, c0 = map(int, t.split(":"))
    print(a[r0:r0 + 23, :, c0:c0 + 33].tobytes() == grid("%s/out%s" % (sys.argv[2], t)).tobytes())' "$T/whole" "$T" $tiles | tr '\n' ' ')" "True True True True "
done

# The coast (cells above sea level 0.5 after mix 1 on flat ground) is a
# circle, symmetric under a quarter turn, without a warp, and not with one.
py 'write(np.full((64, 1, 64), 0.5))' > "$T/flat"
for warp in 0 0.25; do
	run_prog tisland -m 1 -w $warp < "$T/flat" > "$T/isl"
	sym=$(py '
l = grid(sys.argv[1])[:, 0] > 0.5
print(bool((l == np.rot90(l)).all()), int(l.sum()))' "$T/isl")
	case $warp in
	0) assert_eq "round coast" "${sym% *}" True ;;
	*) assert_eq "warped coast" "${sym% *}" False ;;
	esac
done

# A pipeline: noise, island, curve; the corners are sea (0) with mix 1.
run_prog tnoise -s 96x64 -S 5 -q | run_prog tisland -m 1 -w 0.2 |
    run_prog tshape -c valleys > "$T/p"
assert_eq "pipeline corners" "$(py '
a = grid(sys.argv[1])[:, 0]
print(a[0, 0], a[0, -1], a[-1, 0], a[-1, -1], a[32, 48] > 0.5)' "$T/p")" "0.0 0.0 0.0 0.0 True"

# Misuse: exit 2; bad streams: exit 1 with a message.
expect_exit 2 "mix > 1" run_prog tisland -m 1.5
expect_exit 2 "bad shape" run_prog tisland -s circle
expect_exit 2 "radius 0" run_prog tisland -r 0
expect_exit 2 "center syntax" run_prog tisland -c 5
expect_exit 2 "negative warp" run_prog tisland -w -1
ok "help" run_prog tisland --help
head -c $(( $(stat -c %s "$T/r") - 7 )) "$T/r" > "$T/trunc"
expect_err 1 "tisland: " "truncated input" run_prog tisland < "$T/trunc"
expect_err 1 "no band 'depth'" "missing band" run_prog tisland -b depth < "$T/r"
finish
