#!/bin/sh
# bench-texture: ttexture's modes in numbers on a flat ground: repetition
# (autocorrelation at whole texture periods; plain 1, the others below
# 0.3), contrast at the hex triangles' centres and edges (hex-vp 1 within
# 5%, hex-linear lower), speed on 2 threads (hex-vp within 4x plain, iq
# within 2.5x), the kernels alone and in ttexture's whole loop (the PNG left
# out). bench-texture.c is built against the library beside
# BINDIR. Figures only: nothing here passes or fails on time.
# usage: scripts/bench-texture.sh BINDIR
set -u
bin=${1:-bin}
dir=$(cd "$(dirname "$0")" && pwd)
lib=$(cd "$bin/.." && pwd)/obj/libterrapipe.a
[ -f "$lib" ] || { echo "bench-texture: no $lib"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-bench-texture.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
    -I"$dir/../lib" -o "$tmp/bench-texture" "$dir/bench-texture.c" "$lib" \
    $(pkg-config --libs libpng 2>/dev/null || echo -lpng) -lm -pthread ||
    { echo "bench-texture: cannot build the harness"; exit 1; }
echo "2 threads; load now: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
"$tmp/bench-texture"

# Triplanar: a plane rising 60 degrees to the east, a 64 x 64 texture of
# 16 map units with 4 waves a period each way, 4 pixels a cell of 1; the dominant frequency of
# the luminance along the slope (per map unit of the surface: a pixel east
# is 1 / cos 60 of them) over the one across it (north-south). 1: the
# texture keeps its size; 0.5: stretched by 1 / cos 60. The YZ projection
# that dominates at 60 degrees with S = 6 shows sin 60 = 0.87 at best.
# Plain only: the other modes' offsets spread the spectrum.
py=/usr/bin/python3
"$py" - "$tmp" <<'PY'
import sys, numpy as np
from osgeo import gdal
t = sys.argv[1]
y, x = np.mgrid[0:64, 0:64] + 0.5
a = np.repeat((128 + 50 * np.cos(2 * np.pi * 4 * x / 64) +
    50 * np.cos(2 * np.pi * 4 * y / 64))[None], 3, 0).astype("uint8")
d = gdal.GetDriverByName("MEM").Create("", 64, 64, 3, gdal.GDT_Byte)
for i in range(3): d.GetRasterBand(i + 1).WriteArray(a[i])
gdal.GetDriverByName("PNG").CreateCopy(t + "/r.png", d)
open(t + "/m.txt", "w").write("* r.png 16\n")
z = np.tile((np.arange(256) + 0.5) * np.tan(np.pi / 3), (256, 1)).astype("<f4")
hdr = b"TERRAPIPE 1\nWIDTH 256\nHEIGHT 256\nBANDS height\nENDHDR\n"
open(t + "/tilt.tp", "wb").write(hdr + z.tobytes())
PY
dom() {	# PNG: dominant frequency along x (per surface unit) / along y
	"$py" - "$1" <<'PY'
import sys, numpy as np
from osgeo import gdal
a = gdal.Open(sys.argv[1]).ReadAsArray()[:3].astype(float).mean(0)
def f(b, unit):
    b = b - b.mean(1, keepdims=True)
    p = (np.abs(np.fft.rfft(b, axis=1)) ** 2).mean(0)
    p[:2] = 0
    return np.argmax(p) / (b.shape[1] * unit)
print("%.3f" % (f(a, 0.25 / np.cos(np.pi / 3)) / f(a.T, 0.25)))
PY
}
for m in plain; do
	for tri in "" --triplanar; do
		"$bin/ttexture" -q -j 2 --materials "$tmp/m.txt" --mode $m \
		    $tri "$tmp/o.png" < "$tmp/tilt.tp" || exit 1
		printf '60-degree plane, %-7s %-12s frequency along/across the slope: %s\n' \
		    $m "${tri:-top-down}" "$(dom "$tmp/o.png")"
	done
done
