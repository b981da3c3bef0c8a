#!/bin/bash
# terode: droplet erosion through the program: golden values, mass balance,
# the sediment band, thread-count independence, misuse and bad input.
. "$(dirname "$0")/common.sh"

# body FILE: the samples only (the header holds the command line).
body() { tail -c +"$(($(body_offset "$1") + 1))" "$1"; }

# A 64 x 48 terrain of hills in [0,1] (and the same in "metres", x 1024).
"$PY" - "$T" <<'EOF'
import sys, numpy as np
t = sys.argv[1]
y, x = np.mgrid[0:48, 0:64].astype(np.float64)
z = 0.5 + 0.2 * np.sin(x * 0.11) * np.cos(y * 0.07) + 0.1 * np.sin((x + 2 * y) * 0.23)
z = (z - z.min()) / (z.max() - z.min())
for name, s in (("hills", 1.0), ("metres", 1024.0)):
    hdr = "TERRAPIPE 1\nWIDTH 64\nHEIGHT 48\nBANDS height\nCELLSIZE 30\nCRS EPSG:32633\nENDHDR\n"
    open("%s/%s.tp" % (t, name), "wb").write(hdr.encode() + (z * s).astype("<f4").tobytes())
EOF

# Flat ground: every droplet stops where it lands, nothing changes.
yes 0.25 | head -n 48 | mkstream 8 6 height > "$T/flat.tp"
ok "flat" sh -c "terode -n 1000 < '$T/flat.tp' > '$T/flat.out'"
body "$T/flat.tp" > "$T/a"; body "$T/flat.out" > "$T/b"
assert_same "flat ground unchanged" "$T/a" "$T/b"
assert_eq "history appended" "$(header "$T/flat.out" HISTORY)" "terode -n 1000"

# Thermal only, one spike of 1 on 0, talus 0.1: the edge neighbours get
# 0.0625*(1-0.1) = 0.05625, the corners 0.0625*(1-0.1*sqrt 2) = 0.0536612,
# the spike keeps 1 - 4*0.05625 - 4*0.0536612 = 0.5603553.
echo "0 0 0 0 1 0 0 0 0" | mkstream 3 3 height > "$T/spike.tp"
ok "thermal" sh -c "terode -n 0 --thermal 1 --talus 0.1 < '$T/spike.tp' > '$T/spike.out'"
values "$T/spike.out" > "$T/v"
assert_near "thermal corner" "$(sed -n 1p "$T/v")" 0.0536612 1e-7
assert_near "thermal edge" "$(sed -n 2p "$T/v")" 0.05625 1e-7
assert_near "thermal centre" "$(sed -n 5p "$T/v")" 0.56035534 2e-7

# Mass balance: the grid loses exactly what the summary says left it.
ok "stats" sh -c "terode -n 20000 -s 4 --stats < '$T/hills.tp' > '$T/e.tp' 2> '$T/stats'"
grep -q '^terode: 20000 droplets, [0-9]* left the grid; eroded' "$T/stats"; assert_eq "summary line" $? 0
lost=$(sed -n 's/.*lost \([0-9.e+-]*\)$/\1/p' "$T/stats")
eroded=$(sed -n 's/.*eroded \([0-9.e+-]*\),.*/\1/p' "$T/stats")
deposited=$(sed -n 's/.*deposited \([0-9.e+-]*\),.*/\1/p' "$T/stats")
assert_near "eroded = deposited + lost" "$eroded" "$(awk -v a="$deposited" -v b="$lost" 'BEGIN { print a + b }')" 0.01
change=$("$PY" -c '
import sys, numpy as np
def load(p):
    d = open(p, "rb").read(); i = d.index(b"\nENDHDR\n") + 8
    return np.frombuffer(d[i:], "<f4").astype(np.float64)
print(load(sys.argv[2]).sum() - load(sys.argv[1]).sum())' "$T/hills.tp" "$T/e.tp")
assert_near "grid lost what left it" "$change" "-$lost" 0.001
"$PY" -c '
import sys, numpy as np
d = open(sys.argv[1], "rb").read(); z = np.frombuffer(d[d.index(b"\nENDHDR\n") + 8:], "<f4")
sys.exit(0 if np.isfinite(z).all() and z.min() >= 0 else 1)' "$T/e.tp"
assert_eq "finite, not below the lowest input" $? 0
assert_eq "georeference kept" "$(header "$T/e.tp" CRS) $(header "$T/e.tp" CELLSIZE)" "EPSG:32633 30"

# Without --keep-mass the load of droplets that die on the grid is lost
# too (short lives: most die on the grid).
ok "keep mass" sh -c "terode -n 20000 -s 4 --lifetime 8 --stats < '$T/hills.tp' 2> '$T/stats1' > /dev/null"
ok "no keep mass" sh -c "terode -n 20000 -s 4 --lifetime 8 --no-keep-mass --stats < '$T/hills.tp' 2> '$T/stats2' > /dev/null"
lost1=$(sed -n 's/.*lost \([0-9.e+-]*\)$/\1/p' "$T/stats1")
lost2=$(sed -n 's/.*lost \([0-9.e+-]*\)$/\1/p' "$T/stats2")
assert_eq "more lost without keep-mass" "$(awk -v a="$lost2" -v b="$lost1" 'BEGIN { print (a > 3 * b) }')" 1

# The sediment band is the change in height.
ok "sediment" sh -c "terode -n 20000 -s 4 --sediment < '$T/hills.tp' > '$T/s.tp'"
assert_eq "sediment band" "$(header "$T/s.tp" BANDS)" "height sediment"
"$PY" -c '
import sys, numpy as np
def load(p, bands):
    d = open(p, "rb").read(); i = d.index(b"\nENDHDR\n") + 8
    return np.frombuffer(d[i:], "<f4").reshape(48, bands, 64)
a = load(sys.argv[1], 1)[:, 0]; e = load(sys.argv[2], 1)[:, 0]; s = load(sys.argv[3], 2)
ok = (s[:, 0] == e).all() and np.abs(s[:, 1] - (e - a)).max() < 1e-7 and (s[:, 1] < 0).any() and (s[:, 1] > 0).any()
sys.exit(0 if ok else 1)' "$T/hills.tp" "$T/e.tp" "$T/s.tp"
assert_eq "sediment = deposited - eroded" $? 0
# a second pass adds to the band it finds
ok "sediment again" sh -c "terode -n 100 --sediment < '$T/s.tp' > '$T/s2.tp'"
assert_eq "one sediment band" "$(header "$T/s2.tp" BANDS)" "height sediment"
"$PY" -c '
import sys, numpy as np
def load(p):
    d = open(p, "rb").read(); i = d.index(b"\nENDHDR\n") + 8
    return np.frombuffer(d[i:], "<f4").reshape(48, 2, 64).astype(np.float64)
a = load(sys.argv[1]); b = load(sys.argv[2])
add = (b[:, 1] - a[:, 1]) - (b[:, 0] - a[:, 0])
sys.exit(0 if np.abs(add).max() < 1e-7 and (b[:, 0] != a[:, 0]).any() else 1)' "$T/s.tp" "$T/s2.tp"
assert_eq "second pass adds its change" $? 0

# Thread count and repetition do not change a byte.
ok "j1" sh -c "terode -n 30000 -s 9 -j 1 --thermal 2 < '$T/hills.tp' > '$T/j1.tp'"
ok "j2" sh -c "terode -n 30000 -s 9 -j 2 --thermal 2 < '$T/hills.tp' > '$T/j2.tp'"
ok "j2 again" sh -c "terode -n 30000 -s 9 -j 2 --thermal 2 < '$T/hills.tp' > '$T/j2b.tp'"
body "$T/j1.tp" > "$T/a"; body "$T/j2.tp" > "$T/b"
assert_same "-j 1 and -j 2 identical" "$T/a" "$T/b"
assert_same "repeated run identical" "$T/j2.tp" "$T/j2b.tp"

# Heights in "metres" (x 1024, range 1024) with --zscale auto erode
# exactly like the [0,1] terrain: a power of two scales every step of the
# model without rounding, so the result is the [0,1] result times 1024.
ok "metres" sh -c "terode -n 5000 --thermal 2 --zscale auto < '$T/metres.tp' > '$T/m.tp'"
ok "unit" sh -c "terode -n 5000 --thermal 2 < '$T/hills.tp' > '$T/u.tp'"
"$PY" -c '
import sys, numpy as np
def load(p):
    d = open(p, "rb").read(); i = d.index(b"\nENDHDR\n") + 8
    return np.frombuffer(d[i:], "<f4")
m, u, a = load(sys.argv[1]), load(sys.argv[2]), load(sys.argv[3])
sys.exit(0 if (m == u * np.float32(1024)).all() and (u != a).any() else 1)' "$T/m.tp" "$T/u.tp" "$T/hills.tp"
assert_eq "zscale auto: the same erosion, scaled" $? 0

# Another band is eroded with -b, the height band then passes through.
"$PY" -c '
import sys
d = open(sys.argv[1], "rb").read(); i = d.index(b"\nENDHDR\n") + 8
h = d[:i].replace(b"BANDS height", b"BANDS height rock")
rows = [d[i + r * 256:i + (r + 1) * 256] for r in range(48)]
open(sys.argv[2], "wb").write(h + b"".join(r + r for r in rows))' "$T/hills.tp" "$T/two.tp"
ok "band rock" sh -c "terode -b rock -n 2000 < '$T/two.tp' > '$T/two.out'"
"$PY" -c '
import sys, numpy as np
def load(p, b):
    d = open(p, "rb").read(); i = d.index(b"\nENDHDR\n") + 8
    return np.frombuffer(d[i:], "<f4").reshape(48, b, 64)
a, o = load(sys.argv[1], 2), load(sys.argv[2], 2)
sys.exit(0 if (a[:, 0] == o[:, 0]).all() and (a[:, 1] != o[:, 1]).any() else 1)' "$T/two.tp" "$T/two.out"
assert_eq "only the chosen band changes" $? 0

# NaN holes stay holes; nothing else becomes NaN.
"$PY" -c '
import sys
d = bytearray(open(sys.argv[1], "rb").read()); i = d.index(b"\nENDHDR\n") + 8
for c in range(300, 2800, 37): d[i + 4 * c:i + 4 * c + 4] = b"\x00\x00\xc0\x7f"
open(sys.argv[2], "wb").write(d)' "$T/hills.tp" "$T/holes.tp"
ok "holes" sh -c "terode -n 20000 -j 2 < '$T/holes.tp' > '$T/holes.out'"
"$PY" -c '
import sys, numpy as np
def load(p):
    d = open(p, "rb").read(); i = d.index(b"\nENDHDR\n") + 8
    return np.frombuffer(d[i:], "<f4")
a, o = load(sys.argv[1]), load(sys.argv[2])
sys.exit(0 if (np.isnan(a) == np.isnan(o)).all() and np.isfinite(o[~np.isnan(o)]).all() else 1)' "$T/holes.tp" "$T/holes.out"
assert_eq "nodata kept, no NaN made" $? 0

# A pipeline: noise, erosion, then erosion's output read by another stage.
if [ -x "$TP_BIN/tnoise" ]; then
	ok "pipeline" sh -c "tnoise -q -s 96x80 -S 2 | terode -q -n 8000 | terode -q -n 0 --thermal 3 > '$T/p.tp'"
else
	ok "pipeline" sh -c "terode -q -n 8000 < '$T/hills.tp' | terode -q -n 0 --thermal 3 > '$T/p.tp'"
fi
assert_eq "pipeline history" "$(grep -ac '^HISTORY terode' "$T/p.tp")" 2

# Help, misuse, bad input.
ok "help" sh -c "terode --help | grep -q 'inertia.*default: 0.05'"
expect_exit 2 "radius 0" sh -c "terode -r 0 < '$T/hills.tp'"
expect_exit 2 "unknown option" sh -c "terode --bogus < '$T/hills.tp'"
expect_exit 2 "bad zscale" sh -c "terode --zscale metres < '$T/hills.tp'"
expect_exit 2 "bad lifetime" sh -c "terode --lifetime 0 < '$T/hills.tp'"
expect_exit 2 "sediment into itself" sh -c "terode -b sediment --sediment < '$T/s.tp'"
expect_exit 2 "extra argument" sh -c "terode file < '$T/hills.tp'"
head -c 5000 "$T/hills.tp" > "$T/trunc.tp"
expect_err 1 "terode: .*" "truncated input" sh -c "terode < '$T/trunc.tp' > /dev/null"
expect_err 1 "no band 'moisture'" "missing band" sh -c "terode -b moisture < '$T/hills.tp' > /dev/null"
printf 'garbage\n' > "$T/bad.tp"
expect_exit 1 "not a stream" sh -c "terode < '$T/bad.tp' > /dev/null"

finish
