#!/bin/bash
# textures: scripts/make-textures.sh writes grass, rock, sand and snow as
# 256x256 8-bit RGB PNGs that tile exactly and differ in colour; the
# build's share/textures holds the same bytes.
. "$(dirname "$0")/common.sh"
MAKE_TEX=$ROOT/scripts/make-textures.sh
NAMES="grass rock sand snow"

ok "make textures" "$MAKE_TEX" "$TP_BIN" "$T/tex"
# The same at 512x512: two periods each way, the 256x256 tile repeated.
ok "make textures 512" "$MAKE_TEX" "$TP_BIN" "$T/tex2" 512
for n in $NAMES; do
	assert_eq "$n.png made" "$(test -s "$T/tex/$n.png" && echo yes)" yes
done

# Each: PNG signature, IHDR 256x256, bit depth 8, colour type 2 (RGB); GDAL
# reads three bands of bytes. Tiling: the 512x512 image wrapped by 256
# equals itself shifted (column x is column x + 256, row y row y + 256),
# its top-left quarter is the 256x256 texture, and the left column
# continues the right one: the luminance step across the wrap is no larger
# than every step inside. Then the four mean colours differ pairwise by
# more than 20 (of 255) in RGB.
py - "$T/tex" "$T/tex2" $NAMES > "$T/report" <<'PYEOF'
import struct
from osgeo import gdal
d1, d2, names = sys.argv[1], sys.argv[2], sys.argv[3:]
means = {}
for n in names:
    raw = open("%s/%s.png" % (d1, n), "rb").read(33)
    ihdr = struct.unpack(">8sI4sIIBB", raw[:26])
    print(n, "format", ihdr[0] == b"\x89PNG\r\n\x1a\n" and ihdr[2] == b"IHDR"
          and ihdr[3:] == (256, 256, 8, 2))
    g = gdal.Open("%s/%s.png" % (d1, n))
    a = g.ReadAsArray()
    b = gdal.Open("%s/%s.png" % (d2, n)).ReadAsArray()
    print(n, "gdal", g.RasterCount == 3 and a.dtype == np.uint8 and
          a.shape == (3, 256, 256) and b.shape == (3, 512, 512))
    print(n, "tiles", (b[:, :, :256] == b[:, :, 256:]).all() and
          (b[:, :256] == b[:, 256:]).all() and (b[:, :256, :256] == a).all())
    lum = (0.299 * b[0] + 0.587 * b[1] + 0.114 * b[2])
    sx, sy = np.abs(np.diff(lum, axis=1)), np.abs(np.diff(lum, axis=0))
    print(n, "seam", sx[:, 255].max() <= np.delete(sx, 255, axis=1).max() and
          sy[255].max() <= np.delete(sy, 255, axis=0).max() and
          lum.std() > 4)
    means[n] = a.reshape(3, -1).mean(axis=1)
far = all(np.linalg.norm(means[p] - means[q]) > 20
          for i, p in enumerate(names) for q in names[i + 1:])
print("means", far, " ".join("%s=%s" % (n, means[n].round(1)) for n in names))
PYEOF
for n in $NAMES; do
	for c in format gdal tiles seam; do
		assert_eq "$n $c" "$(awk -v n=$n -v c=$c '$1 == n && $2 == c { print $3 }' "$T/report")" True
	done
done
assert_eq "mean colours differ" "$(awk '$1 == "means" { print $2 }' "$T/report")" True

# The textures of the build (make textures) are these bytes: the script is
# deterministic and the build's copy is current.
built=$TP_BIN/../share/textures
if [ -d "$built" ]; then
	for n in $NAMES; do
		assert_same "built $n.png" "$built/$n.png" "$T/tex/$n.png"
	done
fi

# Misuse: no output directory exits 2 and writes nothing.
expect_exit 2 "no outdir" "$MAKE_TEX" "$TP_BIN"
finish
