#!/bin/sh
# The figure of docs/GIS.md's "Orographic rain": tbiome --climate's rain of
# a westerly on isotropic noise terrain by the linear model and by the
# sweep, side by side with the terrain (docs/gallery/rain-models.png), and
# for each the standard deviations of the rain's first differences along
# the wind and across it.
# usage: scripts/rain-figure.sh [BIN_DIR]   (default: bin)
set -eu
bin=${1:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin/tnoise" -q -s 256x256 -c 1000 -f 0.00005 -S 3 > "$tmp/iso.tp"
for m in linear sweep; do
	"$bin/tbiome" -q --climate --bands --latitude 40,42 -z 2000 \
	    --wind 270 --rain-model "$m" < "$tmp/iso.tp" > "$tmp/$m.tp"
done
PYTHONPATH=tests /usr/bin/python3 - "$tmp" docs/gallery/rain-models.png <<'PY'
import sys
import numpy as np
from osgeo import gdal
from tp import band
d, out = sys.argv[1], sys.argv[2]
z = band(d + "/iso.tp", "height").astype(float)
panels = [(z - z.min()) / (z.max() - z.min())]
for m in ("linear", "sweep"):
    p = band("%s/%s.tp" % (d, m), "precipitation").astype(float)
    along = np.diff(p, axis=1).std()
    across = np.diff(p, axis=0).std()
    print("%-6s rain %5.0f .. %5.0f mm/year, mean %5.0f; first differences "
          "along the wind %6.1f, across %6.1f, across/along %.2f"
          % (m, p.min(), p.max(), p.mean(), along, across, across / along))
    panels.append(np.clip(p / 5000.0, 0, 1))
gap = np.zeros((256, 8))
img = np.hstack([panels[0], gap, panels[1], gap, panels[2]])
# white (dry) to dark blue (5000 mm/year and more); the terrain grey
rgb = np.empty(img.shape + (3,))
rgb[..., 0] = 1 - 0.9 * img
rgb[..., 1] = 1 - 0.7 * img
rgb[..., 2] = 1 - 0.3 * img
rgb[:, :256, :] = img[:, :256, None]
a = (rgb * 255 + 0.5).astype(np.uint8)
mem = gdal.GetDriverByName("MEM").Create("", a.shape[1], a.shape[0], 3, gdal.GDT_Byte)
for i in range(3):
    mem.GetRasterBand(i + 1).WriteArray(a[..., i])
gdal.GetDriverByName("PNG").CreateCopy(out, mem)
PY
