#!/bin/bash
# tridge: ridged noise under the height mask: hand values at a lattice
# point, flat inputs, peaks kept (seed 000's bug), seamless tiles.
. "$(dirname "$0")/common.sh"

# Golden values: the cell centred on the world origin is a lattice point of
# every octave, where gradient noise is 0, so r = 1 - |n| = 1 and the ridge
# field is exactly 1: h + w * 0.5 * 0.3. At h = 0.8 the mask is full
# (0.95), at 0.65 half (0.725), at 0.3 zero (0.3); with --naive 0.3 + 0.15.
for h in 0.8 0.65 0.3; do
	echo "$h" | mkstream 1 1 height "ORIGIN -0.5 0.5" > "$T/a"
	run_prog tridge < "$T/a" > "$T/b"
	v=$(values "$T/b")
	case $h in
	0.8) assert_near "ridge at 0.8" "$v" 0.95 1e-7 ;;
	0.65) assert_near "ridge at 0.65" "$v" 0.725 1e-7 ;;
	0.3) assert_eq "ridge at 0.3" "$v" 0.300000012 ;;
	esac
done
run_prog tridge --naive < "$T/a" > "$T/b"
assert_near "naive at 0.3" "$(values "$T/b")" 0.45 1e-7

# Flat 0.3 (below the mask): the output is the input, so is its mean.
py 'write(np.full((256, 2, 512), 0.3), "height moisture", "CELLSIZE 30\nFOO bar\n")' > "$T/f3"
run_prog tridge < "$T/f3" > "$T/b"
assert_eq "flat 0.3 unchanged" "$(body "$T/f3" | md5sum)" "$(body "$T/b" | md5sum)"
# Flat 0.9 (full mask): the ridge field moves values both up and down.
py 'write(np.full((128, 2, 512), 0.9), "moisture height", "CELLSIZE 30\nFOO bar\n")' > "$T/f9"
run_prog tridge -j 1 < "$T/f9" > "$T/j1"
assert_eq "flat 0.9 both ways" "$(py '
a, b = grid(sys.argv[1]), grid(sys.argv[2])
h = b[:, 1]
print(bool(h.min() < 0.85), bool(h.max() > 0.95), a[:, 0].tobytes() == b[:, 0].tobytes())' "$T/f9" "$T/j1")" "True True True"
run_prog tridge -j 2 < "$T/f9" > "$T/j2"
assert_eq "-j 1 vs -j 2" "$(body "$T/j1" | md5sum)" "$(body "$T/j2" | md5sum)"
assert_eq "extra key" "$(header "$T/j1" FOO)" bar
assert_eq "history" "$(header_lines "$T/j1" | tail -n 1)" \
    "HISTORY tridge"

# Peaks survive: fBm terrain (tnoise, stretched by fixed constants) whose
# maximum is above 0.9 keeps a maximum above 0.9. Seed 000's bug (the first
# octave in the sum), emulated by shifting the octaves down one (-O 7 at
# half the frequency and seed - 1013), drops it below 0.9.
for s in 1 4; do
	run_prog tnoise -s 512x512 -S $s -f 0.015625 -q |
	    run_prog tshape --stretch 0.2,0.8 > "$T/t"
	run_prog tridge -S $s -f 0.015625 < "$T/t" > "$T/good"
	run_prog tridge -S $((4294967296 + s - 1013)) -O 7 \
	    -f 0.0078125 < "$T/t" > "$T/bad"
	assert_eq "peaks, seed $s" "$(py '
m = [float(grid(p).max()) for p in sys.argv[1:]]
print(m[0] > 0.9, m[1] > 0.9, m[2] < 0.9)' "$T/t" "$T/good" "$T/bad")" "True True True"
done
# Peaks with a hand-made terrain (no tnoise needed): a smooth dome to 0.95.
py 'y, x = np.mgrid[0:200, 0:200]
write((0.95 - ((x - 100.0) ** 2 + (y - 100.0) ** 2) / 25000)[:, None, :])' > "$T/dome"
run_prog tridge < "$T/dome" > "$T/b"
assert_eq "dome peak" "$(py 'print(float(grid(sys.argv[1]).max()) > 0.9)' "$T/b")" True

# Tiles are seamless: four tiles with shifted ORIGIN give the bytes of the
# matching windows of one run (all cells ridged with --naive).
py 'write(np.random.default_rng(2).uniform(0, 1, (40, 1, 70)), extra="CELLSIZE 30\nORIGIN 500000 4649776\n")' > "$T/w"
tiles="0:0 0:35 21:0 21:35"
py '
a = grid(sys.argv[1])
for t in sys.argv[3:]:
    r0, c0 = map(int, t.split(":"))
    write(a[r0:r0 + 19, :, c0:c0 + 35], extra="CELLSIZE 30\nORIGIN %r %r\n" % (500000 + 30 * c0, 4649776 - 30 * r0),
          out="%s/in%s" % (sys.argv[2], t))' "$T/w" "$T" $tiles
run_prog tridge --naive -O 4 -f 0.01 < "$T/w" > "$T/whole"
for t in $tiles; do
	run_prog tridge --naive -O 4 -f 0.01 < "$T/in$t" > "$T/out$t"
done
assert_eq "tiles" "$(py '
a = grid(sys.argv[1])
for t in sys.argv[3:]:
    r0, c0 = map(int, t.split(":"))
    print(a[r0:r0 + 19, :, c0:c0 + 35].tobytes() == grid("%s/out%s" % (sys.argv[2], t)).tobytes())' "$T/whole" "$T" $tiles | tr '\n' ' ')" "True True True True "

# A pipeline in seed 000's order: curve, terraces, ridges.
run_prog tnoise -s 128x96 -S 7 -q | run_prog tshape -c valleys |
    run_prog tterrace -s 8 | run_prog tridge -S 7 > "$T/p"
assert_eq "pipeline" "$(py '
a = grid(sys.argv[1])
print(a.shape, bool(np.isfinite(a).all() and a.min() >= 0 and a.max() <= 1))' "$T/p")" "(96, 1, 128) True"
assert_eq "pipeline history" "$(grep -a -c '^HISTORY' "$T/p")" 4

# Misuse: exit 2; bad streams: exit 1 with a message.
expect_exit 2 "octaves 0" run_prog tridge -O 0
expect_exit 2 "octaves 17" run_prog tridge --octaves 17
expect_exit 2 "mask reversed" run_prog tridge --mask 0.8,0.5
expect_exit 2 "bad kind" run_prog tridge -k perlin
expect_exit 2 "negative amount" run_prog tridge -a -1
ok "help" run_prog tridge --help
head -c $(( $(stat -c %s "$T/f9") - 3 )) "$T/f9" > "$T/trunc"
expect_err 1 "tridge: " "truncated input" run_prog tridge < "$T/trunc"
expect_err 1 "no band 'flow'" "missing band" run_prog tridge -b flow < "$T/f9"
finish
