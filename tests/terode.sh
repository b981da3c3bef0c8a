#!/bin/bash
# terode: droplet erosion through the program: golden values, mass balance,
# the sediment band, thread-count independence, misuse and bad input.
. "$(dirname "$0")/common.sh"

# A 64 x 48 terrain of hills in [0,1] (and the same in "metres", x 1024).
py - "$T" <<'EOF'
t = sys.argv[1]
y, x = np.mgrid[0:48, 0:64].astype(np.float64)
z = 0.5 + 0.2 * np.sin(x * 0.11) * np.cos(y * 0.07) + 0.1 * np.sin((x + 2 * y) * 0.23)
z = (z - z.min()) / (z.max() - z.min())
for name, s in (("hills", 1.0), ("metres", 1024.0)):
    write(z * s, "height", ["CELLSIZE 30", "CRS EPSG:32633"], "%s/%s.tp" % (t, name))
EOF

# Flat ground: every droplet stops where it lands, nothing changes.
yes 0.25 | head -n 48 | mkstream 8 6 height > "$T/flat.tp"
ok "flat" run_prog terode -n 1000 < "$T/flat.tp"; cp "$T/.out" "$T/flat.out"
body "$T/flat.tp" > "$T/a"; body "$T/flat.out" > "$T/b"
assert_same "flat ground unchanged" "$T/a" "$T/b"
assert_eq "history appended" "$(header "$T/flat.out" HISTORY)" "terode --droplets 1000"

# Thermal only, one spike of 1 on 0, talus 0.1: the edge neighbours get
# 0.0625*(1-0.1) = 0.05625, the corners 0.0625*(1-0.1*sqrt 2) = 0.0536612,
# the spike keeps 1 - 4*0.05625 - 4*0.0536612 = 0.5603553.
echo "0 0 0 0 1 0 0 0 0" | mkstream 3 3 height > "$T/spike.tp"
ok "thermal" run_prog terode -n 0 --thermal 1 --talus 0.1 < "$T/spike.tp"
cp "$T/.out" "$T/spike.out"
values "$T/spike.out" > "$T/v"
assert_near "thermal corner" "$(sed -n 1p "$T/v")" 0.0536612 1e-7
assert_near "thermal edge" "$(sed -n 2p "$T/v")" 0.05625 1e-7
assert_near "thermal centre" "$(sed -n 5p "$T/v")" 0.56035534 2e-7

# Mass balance: the grid loses exactly what the summary says left it:
# nothing, as droplets that reach the edge keep their load on the grid.
ok "stats" run_prog terode -n 20000 -S 4 --stats < "$T/hills.tp"
cp "$T/.out" "$T/e.tp"; cp "$T/.err" "$T/stats"
grep -q '^terode: 20000 droplets, [0-9]* left the grid; eroded' "$T/stats"; assert_eq "summary line" $? 0
lost=$(sed -n 's/.*lost \([0-9.e+-]*\)$/\1/p' "$T/stats")
eroded=$(sed -n 's/.*eroded \([0-9.e+-]*\),.*/\1/p' "$T/stats")
deposited=$(sed -n 's/.*deposited \([0-9.e+-]*\),.*/\1/p' "$T/stats")
assert_near "eroded = deposited + lost" "$eroded" "$(awk -v a="$deposited" -v b="$lost" 'BEGIN { print a + b }')" 0.01
change=$(py '
load = lambda p: floats(p).astype(np.float64)
print(load(sys.argv[2]).sum() - load(sys.argv[1]).sum())' "$T/hills.tp" "$T/e.tp")
assert_near "grid lost what left it" "$change" "-$lost" 0.001
py '
z = floats(sys.argv[1])
sys.exit(0 if np.isfinite(z).all() and z.min() >= 0 else 1)' "$T/e.tp"
assert_eq "finite, not below the lowest input" $? 0
assert_eq "georeference kept" "$(header "$T/e.tp" CRS) $(header "$T/e.tp" CELLSIZE)" "EPSG:32633 30"

# Without --keep-mass the load of droplets that die on the grid is lost
# too (short lives: most die on the grid).
ok "keep mass" run_prog terode -n 20000 -S 4 --lifetime 8 --stats < "$T/hills.tp"
cp "$T/.err" "$T/stats1"
ok "no keep mass" run_prog terode -n 20000 -S 4 --lifetime 8 --no-keep-mass --stats < "$T/hills.tp"
cp "$T/.err" "$T/stats2"
lost1=$(sed -n 's/.*lost \([0-9.e+-]*\)$/\1/p' "$T/stats1")
lost2=$(sed -n 's/.*lost \([0-9.e+-]*\)$/\1/p' "$T/stats2")
assert_eq "more lost without keep-mass" "$(awk -v a="$lost2" -v b="$lost1" 'BEGIN { print (a > 3 * b) }')" 1

# No grain: on a 256 x 256 fBm with the slopes of the bench's 1024 x 1024
# terrain (tnoise at 1/256 cycles per cell), 65536 droplets leave no more
# strict local maxima (cells above all their neighbours; counted here by
# brute force) than the input has, 109 (dropping each dying droplet's load
# in one place, as terode did before, made 316), and change the volume by
# less than 0.1% of the volume they cut (before: 30% less).
run_prog tnoise -q -s 256x256 -S 2 -f 0.00390625 > "$T/fbm.tp"
ok "grain" run_prog terode -n 65536 -S 1 < "$T/fbm.tp"
cp "$T/.out" "$T/fbm.out"
assert_eq "no new maxima; volume kept" "$(py '
a = grid(sys.argv[1])[:, 0].astype(np.float64); b = grid(sys.argv[2])[:, 0].astype(np.float64)
def maxima(z):
    h, w = z.shape; p = np.pad(z, 1, constant_values=-np.inf); top = np.ones((h, w), bool)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dy or dx:
                top &= z > p[1 + dy:1 + dy + h, 1 + dx:1 + dx + w]
    return int(top.sum())
low = a - b; cut = low[low > 0].sum()
print(maxima(a), maxima(b) <= maxima(a), cut > 10, abs(b.sum() - a.sum()) < 1e-3 * cut)' "$T/fbm.tp" "$T/fbm.out")" \
    "109 True True True"

# Depth: Lague's model (scripts/bench-erode-lague.c) with the same number
# of droplets lowers the 99th-percentile cell of that terrain by 0.0209;
# the default, whose droplets lay their load back and so carry twice the
# reference's capacity, cuts at least as deep (0.0231), where capacity 4
# with the load kept falls short (0.0153).
ok "capacity 4" run_prog terode -n 65536 -S 1 --capacity 4 < "$T/fbm.tp"
cp "$T/.out" "$T/fbm4.out"
if ${CC:-cc} -O2 -o "$T/lague" "$ROOT/scripts/bench-erode-lague.c" -lm; then
	py 'sys.stdout.buffer.write(grid(sys.argv[1])[:, 0].astype("<f4").tobytes())' \
	    "$T/fbm.tp" > "$T/fbm.f32"
	"$T/lague" 256 256 65536 1 < "$T/fbm.f32" > "$T/lague.f32"
	assert_eq "as deep as the reference" "$(py '
a = grid(sys.argv[1])[:, 0].astype(np.float64)
ref = np.fromfile(sys.argv[2], "<f4").reshape(a.shape).astype(np.float64)
def p99(b): return np.percentile(a - b, 99)
r = p99(ref)
print(round(r, 3), p99(grid(sys.argv[3])[:, 0]) >= r, p99(grid(sys.argv[4])[:, 0]) < r)' \
	    "$T/fbm.tp" "$T/lague.f32" "$T/fbm.out" "$T/fbm4.out")" "0.021 True True"
else
	fail "no C compiler for the reference model"
fi

# The default capacity is 8 with the load kept and the reference's 4
# without: the same bytes as giving them.
ok "capacity 8" run_prog terode -n 2000 -S 4 --capacity 8 < "$T/hills.tp"
cp "$T/.out" "$T/c8.tp"
ok "default capacity" run_prog terode -n 2000 -S 4 < "$T/hills.tp"
assert_eq "default capacity is 8" "$(body "$T/.out" | cmp -s - <(body "$T/c8.tp") && echo same)" same
ok "capacity 4, no keep" run_prog terode -n 2000 -S 4 --no-keep-mass --capacity 4 < "$T/hills.tp"
cp "$T/.out" "$T/c4.tp"
ok "no keep, default capacity" run_prog terode -n 2000 -S 4 --no-keep-mass < "$T/hills.tp"
assert_eq "without keep-mass, 4" "$(body "$T/.out" | cmp -s - <(body "$T/c4.tp") && echo same)" same

# The sediment band is the change in height.
ok "sediment" run_prog terode -n 20000 -S 4 --sediment < "$T/hills.tp"
cp "$T/.out" "$T/s.tp"
assert_eq "sediment band" "$(header "$T/s.tp" BANDS)" "height sediment"
py '
a = grid(sys.argv[1])[:, 0]; e = grid(sys.argv[2])[:, 0]; s = grid(sys.argv[3])
ok = (s[:, 0] == e).all() and np.abs(s[:, 1] - (e - a)).max() < 1e-7 and (s[:, 1] < 0).any() and (s[:, 1] > 0).any()
sys.exit(0 if ok else 1)' "$T/hills.tp" "$T/e.tp" "$T/s.tp"
assert_eq "sediment = deposited - eroded" $? 0
# a second pass adds to the band it finds
ok "sediment again" run_prog terode -n 100 --sediment < "$T/s.tp"
cp "$T/.out" "$T/s2.tp"
assert_eq "one sediment band" "$(header "$T/s2.tp" BANDS)" "height sediment"
py '
a = grid(sys.argv[1]).astype(np.float64); b = grid(sys.argv[2]).astype(np.float64)
add = (b[:, 1] - a[:, 1]) - (b[:, 0] - a[:, 0])
sys.exit(0 if np.abs(add).max() < 1e-7 and (b[:, 0] != a[:, 0]).any() else 1)' "$T/s.tp" "$T/s2.tp"
assert_eq "second pass adds its change" $? 0

# Thread count and repetition do not change a byte.
ok "j1" run_prog terode -n 30000 -S 9 -j 1 --thermal 2 < "$T/hills.tp"
cp "$T/.out" "$T/j1.tp"
ok "j2" run_prog terode -n 30000 -S 9 -j 2 --thermal 2 < "$T/hills.tp"
cp "$T/.out" "$T/j2.tp"
ok "j2 again" run_prog terode -n 30000 -S 9 -j 2 --thermal 2 < "$T/hills.tp"
cp "$T/.out" "$T/j2b.tp"
body "$T/j1.tp" > "$T/a"; body "$T/j2.tp" > "$T/b"
assert_same "-j 1 and -j 2 identical" "$T/a" "$T/b"
assert_same "repeated run identical" "$T/j2.tp" "$T/j2b.tp"

# Heights in "metres" (x 1024, range 1024) with --zscale auto erode
# exactly like the [0,1] terrain: a power of two scales every step of the
# model without rounding, so the result is the [0,1] result times 1024.
ok "metres" run_prog terode -n 5000 --thermal 2 --zscale auto < "$T/metres.tp"
cp "$T/.out" "$T/m.tp"
ok "unit" run_prog terode -n 5000 --thermal 2 < "$T/hills.tp"
cp "$T/.out" "$T/u.tp"
py '
m, u, a = floats(sys.argv[1]), floats(sys.argv[2]), floats(sys.argv[3])
sys.exit(0 if (m == u * np.float32(1024)).all() and (u != a).any() else 1)' "$T/m.tp" "$T/u.tp" "$T/hills.tp"
assert_eq "zscale auto: the same erosion, scaled" $? 0

# Heights outside [0, 1] without --zscale: one warning, and the run goes
# on as asked (zscale 1); none with --zscale or -q, none for [0, 1].
ok "metres, no zscale" run_prog terode -n 100 < "$T/metres.tp"
assert_eq "zscale warning" "$(cat "$T/.err")" \
    "terode: warning: heights span [0, 1024], not [0, 1]: give --zscale auto (or the relief as --zscale Z)"
ok "metres, zscale 1" run_prog terode -n 100 --zscale 1 < "$T/metres.tp"
assert_eq "no warning with --zscale" "$(cat "$T/.err")" ""
ok "metres, quiet" run_prog terode -q -n 100 < "$T/metres.tp"
assert_eq "no warning with -q" "$(cat "$T/.err")" ""
ok "unit, no zscale" run_prog terode -n 100 < "$T/hills.tp"
assert_eq "no warning for [0, 1]" "$(cat "$T/.err")" ""

# Another band is eroded with -b, the height band then passes through.
py '
h, z = read(sys.argv[1])
write(np.concatenate([z, z], axis=1), "height rock", ["CELLSIZE 30", "CRS EPSG:32633"], sys.argv[2])' "$T/hills.tp" "$T/two.tp"
ok "band rock" run_prog terode -b rock -n 2000 < "$T/two.tp"
cp "$T/.out" "$T/two.out"
py '
a, o = grid(sys.argv[1]), grid(sys.argv[2])
sys.exit(0 if (a[:, 0] == o[:, 0]).all() and (a[:, 1] != o[:, 1]).any() else 1)' "$T/two.tp" "$T/two.out"
assert_eq "only the chosen band changes" $? 0

# NaN holes stay holes; nothing else becomes NaN.
py '
head, data = split(open(sys.argv[1], "rb").read())
z = np.frombuffer(data, "<u4").copy()
z[300:2800:37] = 0x7fc00000			# quiet NaN
open(sys.argv[2], "wb").write(head + z.tobytes())' "$T/hills.tp" "$T/holes.tp"
ok "holes" run_prog terode -n 20000 -j 2 < "$T/holes.tp"
cp "$T/.out" "$T/holes.out"
py '
a, o = floats(sys.argv[1]), floats(sys.argv[2])
sys.exit(0 if (np.isnan(a) == np.isnan(o)).all() and np.isfinite(o[~np.isnan(o)]).all() else 1)' "$T/holes.tp" "$T/holes.out"
assert_eq "nodata kept, no NaN made" $? 0

# A pipeline: noise, erosion, then erosion's output read by another stage.
run_prog tnoise -q -s 96x80 -S 2 | run_prog terode -q -n 8000 |
    run_prog terode -q -n 0 --thermal 3 > "$T/p.tp"
assert_eq "pipeline" "${PIPESTATUS[*]}" "0 0 0"
assert_eq "pipeline history" "$(grep -ac '^HISTORY terode' "$T/p.tp")" 2

# The sea: an island (tisland --sea 0.3, metres x 1024 so SEALEVEL is in
# the stream's unit: 307.2). Droplets and thermal passes leave every cell
# below the sea level bit for bit as it was, land stays at or above it, 1
# and 2 threads agree; --sea-floor erodes the sea floor as before, which is
# what --no-sea gives too; --sea overrides SEALEVEL and is recorded.
run_prog tnoise -q -s 128x96 -S 3 | run_prog tisland |
    py 'h, z = read("/dev/stdin"); write(z * 1024, "height", ["SEALEVEL 307.2"], sys.argv[1])' "$T/isl.tp"
ok "sea j1" run_prog terode -n 30000 -S 5 --thermal 3 -j 1 < "$T/isl.tp"
cp "$T/.out" "$T/sea1.tp"
ok "sea j2" run_prog terode -n 30000 -S 5 --thermal 3 -j 2 < "$T/isl.tp"
cp "$T/.out" "$T/sea2.tp"
body "$T/sea1.tp" > "$T/a"; body "$T/sea2.tp" > "$T/b"
assert_same "sea: -j 1 and -j 2 identical" "$T/a" "$T/b"
ok "sea floor" run_prog terode -n 30000 -S 5 --thermal 3 --sea-floor < "$T/isl.tp"
cp "$T/.out" "$T/floor.tp"
ok "no sea" run_prog terode -n 30000 -S 5 --thermal 3 --no-sea < "$T/isl.tp"
cp "$T/.out" "$T/nosea.tp"
body "$T/floor.tp" > "$T/a"; body "$T/nosea.tp" > "$T/b"
assert_same "--sea-floor erodes as --no-sea" "$T/a" "$T/b"
assert_eq "sea: untouched, land above it; --sea-floor changes it" \
    "$(py 'i, e, f = (floats(p) for p in sys.argv[1:4]); s = i < 307.2
print(int(s.sum()) > 1000, bool((e[s].view("<u4") == i[s].view("<u4")).all()),
      bool((e[~s] >= 307.2).all()), bool((e[~s] != i[~s]).any()),
      int((f[s] != i[s]).sum()) > 100)' "$T/isl.tp" "$T/sea1.tp" "$T/floor.tp")" \
    "True True True True True"
ok "--sea" run_prog terode -n 3000 --sea 500 < "$T/isl.tp"
cp "$T/.out" "$T/sea500.tp"
assert_eq "--sea recorded" "$(header "$T/sea500.tp" SEALEVEL) | $(header "$T/sea500.tp" HISTORY)" \
    "500 | terode --droplets 3000 --sea 500"
assert_eq "--sea: below 500 untouched" \
    "$(py 'i, e = floats(sys.argv[1]), floats(sys.argv[2]); s = i < 500
print(bool((e[s].view("<u4") == i[s].view("<u4")).all()), bool((e != i).any()))' "$T/isl.tp" "$T/sea500.tp")" \
    "True True"
echo "1 2 3 4" | mkstream 2 2 height "SEALEVEL 1e999" > "$T/badsea.tp"
expect_err 1 "^terode: SEALEVEL: '1e999' is not a number$" "malformed SEALEVEL" \
    run_prog terode < "$T/badsea.tp"
assert_eq "malformed SEALEVEL: one line" "$(wc -l < "$T/.err")" 1
expect_exit 2 "--sea with --no-sea" run_prog terode --sea 1 --no-sea < "$T/hills.tp"

# --masks: wear - deposit is the fall of each cell (thermal passes too),
# both >= 0 and never both above 0; flow >= 0 and above 0 where droplets
# ran; the heights are those without --masks; the bytes on any -j; a
# power-of-two width (eroded at a wider pitch, in place) and a sea too.
ok "masks j1" run_prog terode -n 20000 -S 4 --thermal 2 --masks -j 1 < "$T/hills.tp"
cp "$T/.out" "$T/m1.tp"
ok "masks j2" run_prog terode -n 20000 -S 4 --thermal 2 --masks -j 2 < "$T/hills.tp"
assert_same "masks: the same bytes on -j 1 and -j 2" "$T/m1.tp" "$T/.out"
ok "no masks" run_prog terode -n 20000 -S 4 --thermal 2 < "$T/hills.tp"
assert_eq "masks: bands" "$(header "$T/m1.tp" BANDS)" "height wear deposit flow"
check_masks() {
	py 'h0 = band(sys.argv[1], "height").astype(np.float64)
m = sys.argv[2]; z = band(m, "height").astype(np.float64)
w, d, f = (band(m, b) for b in ("wear", "deposit", "flow"))
bare = band(sys.argv[3], "height")
fall = h0 - z; land = np.isfinite(h0)
print(bool((w >= 0).all() and (d >= 0).all() and (f >= 0).all()),
      bool((np.minimum(w, d) == 0).all()),
      bool(np.abs((w - d)[land] - fall[land]).max() <= 1e-7 * max(1, np.abs(h0[land]).max())),
      bool(w.max() > 0 and d.max() > 0 and (f > 0).mean() > 0.2),
      bool((band(m, "height").view("<u4") == bare.view("<u4")).all()))' "$@"
}
assert_eq "masks: sums" "$(check_masks "$T/hills.tp" "$T/m1.tp" "$T/.out")" \
    "True True True True True"
py 'z = band(sys.argv[1], "height"); write(np.tile(z, (5, 16))[:, :1024], "height", [], sys.argv[2])' \
    "$T/hills.tp" "$T/wide.tp"
ok "masks wide j1" run_prog terode -n 30000 --masks -j 1 < "$T/wide.tp"
cp "$T/.out" "$T/mw1.tp"
ok "masks wide j2" run_prog terode -n 30000 --masks -j 2 < "$T/wide.tp"
assert_same "masks wide: the same bytes on -j 1 and -j 2" "$T/mw1.tp" "$T/.out"
ok "no masks wide" run_prog terode -n 30000 < "$T/wide.tp"
assert_eq "masks wide: sums" "$(check_masks "$T/wide.tp" "$T/mw1.tp" "$T/.out")" \
    "True True True True True"
ok "masks sea" run_prog terode -n 30000 -S 5 --masks --sediment < "$T/isl.tp"
cp "$T/.out" "$T/ms.tp"
ok "no masks sea" run_prog terode -n 30000 -S 5 < "$T/isl.tp"
assert_eq "masks sea: sums" "$(check_masks "$T/isl.tp" "$T/ms.tp" "$T/.out")" \
    "True True True True True"
assert_eq "masks sea: sediment is deposit - wear" \
    "$(py 'm = sys.argv[1]
print(bool(np.abs(band(m, "sediment") - (band(m, "deposit") - band(m, "wear"))).max() < 1e-4))' "$T/ms.tp")" \
    "True"
expect_err 1 "^terode: the masks are made on the CPU" "masks: not batch-sync" \
    run_prog terode --masks --batch-sync < "$T/hills.tp"
ok "masks: auto runs on the CPU" run_prog terode -n 20000 -S 4 --thermal 2 --masks --device auto < "$T/hills.tp"
body "$T/m1.tp" > "$T/a"; body "$T/.out" > "$T/b"
assert_same "masks: auto = cpu" "$T/a" "$T/b"
expect_exit 2 "masks: the eroded band" run_prog terode -b flow --masks < "$T/m1.tp"

# Help, misuse, bad input.
ok "help" grep -q 'inertia.*default: 0.05' <(run_prog terode --help)
expect_exit 2 "radius 0" run_prog terode -r 0 < "$T/hills.tp"
expect_exit 2 "unknown option" run_prog terode --bogus < "$T/hills.tp"
expect_exit 2 "bad zscale" run_prog terode --zscale metres < "$T/hills.tp"
expect_exit 2 "bad lifetime" run_prog terode --lifetime 0 < "$T/hills.tp"
expect_exit 2 "sediment into itself" run_prog terode -b sediment --sediment < "$T/s.tp"
expect_exit 2 "extra argument" run_prog terode file < "$T/hills.tp"
head -c 5000 "$T/hills.tp" > "$T/trunc.tp"
expect_err 1 "terode: .*" "truncated input" run_prog terode < "$T/trunc.tp"
expect_err 1 "no band 'moisture'" "missing band" run_prog terode -b moisture < "$T/hills.tp"
printf 'garbage\n' > "$T/bad.tp"
expect_exit 1 "not a stream" run_prog terode < "$T/bad.tp"

finish
