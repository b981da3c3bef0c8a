#!/bin/sh
# taudem-compare.sh - tflow -m dinf against TauDEM's dinfflowdir and
# areadinf on the shared real DEM.
#
# usage: scripts/taudem-compare.sh [TAUDEM_BIN]   (or $TAUDEM_BIN)
#
# TAUDEM_BIN holds TauDEM's dinfflowdir, areadinf and pitremove (built
# from github.com/dtarb/TauDEM with cmake). Run from the repository root
# after `make`; TP_BIN (default bin) holds terrapipe's programs. Needs
# gdalwarp and /usr/bin/python3 with numpy and GDAL.
#
# The DEM (3 arc-second degrees) is first warped to UTM 17N at 90 m,
# bilinear: TauDEM measures geographic rows with a spacing of its own (its
# row latitudes sit a cell south of the centres), so on degrees the two
# tools would differ by their geometry, not by D-infinity. Two fills:
#   tfill      terrapipe's default, a next-float gradient over every
#              depression and flat: no cell is flat, every angle comes
#              from the facets;
#   pitremove  TauDEM's own fill, flat lakes: thousands of flat cells,
#              resolved by both after Garbrecht and Martz.
# Each prints the cells compared, the largest angle difference (radians,
# modulo 2 pi) and the cells beyond 1e-6 rad (2 ulps of float32 at 2 pi:
# both round one double to float32), the largest relative SCA difference
# and the cells beyond 1e-5 (areadinf sums in float32, rounding once per
# neighbour along every path, tflow in double rounded once: 2^-24 a step
# over paths of some hundred cells), against areadinf with its edge
# contamination check (NoData on cells with upslope cells at the border
# or next to nodata) and without it (-nc).
set -eu

tb=${1:-${TAUDEM_BIN:-}}
[ -n "$tb" ] || { echo "usage: $0 TAUDEM_BIN (or set TAUDEM_BIN)" >&2; exit 2; }
for p in dinfflowdir areadinf pitremove; do
	[ -x "$tb/$p" ] || { echo "$0: no $tb/$p" >&2; exit 1; }
done
bin=${TP_BIN:-bin}
dem=tests/data/jacksboro_fault_dem.tif
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

gdalwarp -q -t_srs EPSG:32617 -tr 90 90 -r bilinear -ot Float32 \
    -dstnodata -32768 "$dem" "$t/utm.tif"
"$bin/timport" "$t/utm.tif" | "$bin/tfill" > "$t/tfill.tp"
# tgeotiff marks nodata as NaN, which TauDEM's equality test never
# matches: the same cells as -32768
"$bin/tgeotiff" -q "$t/tfill.tp" "$t/tfill-nan.tif"
gdalwarp -q -srcnodata nan -dstnodata -32768 "$t/tfill-nan.tif" "$t/tfill.tif"
"$tb/pitremove" -z "$t/utm.tif" -fel "$t/pitremove.tif" > /dev/null 2>&1

for fill in tfill pitremove; do
	"$tb/dinfflowdir" -fel "$t/$fill.tif" -ang "$t/$fill-ang.tif" \
	    -slp "$t/$fill-slp.tif" > "$t/$fill.log" 2>&1
	"$tb/areadinf" -ang "$t/$fill-ang.tif" -sca "$t/$fill-sca.tif" \
	    > /dev/null 2>&1
	"$tb/areadinf" -ang "$t/$fill-ang.tif" -sca "$t/$fill-scanc.tif" \
	    -nc > /dev/null 2>&1
	"$bin/timport" "$t/$fill.tif" | "$bin/tflow" -q -m dinf |
	    "$bin/tgeotiff" -q -b height,dinf,sca "$t/$fill-tp.tif"
done

echo "TauDEM $(sed -n 's/^DinfFlowDir version //p' "$t/tfill.log"), tflow -m dinf"
/usr/bin/python3 - "$t" <<'EOF'
import sys
import numpy as np
from osgeo import gdal

t = sys.argv[1]


def read(name, band=1):
    d = gdal.Open(f"{t}/{name}.tif")
    b = d.GetRasterBand(band)
    a = b.ReadAsArray().astype(np.float64)
    nd = b.GetNoDataValue()
    if nd is not None:
        a[a == nd] = np.nan
    return a


def flats(z):
    """Cells with all 8 neighbours valid and none strictly lower."""
    h, w = z.shape
    f = np.zeros_like(z, dtype=bool)
    c = z[1:-1, 1:-1]
    lower = np.zeros_like(c, dtype=bool)
    valid = ~np.isnan(c)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx or dy:
                n = z[1 + dy:h - 1 + dy, 1 + dx:w - 1 + dx]
                lower |= n < c
                valid &= ~np.isnan(n)
    f[1:-1, 1:-1] = valid & ~lower
    return f


for fill in ("tfill", "pitremove"):
    z = read(f"{fill}-tp", 1)
    ang, sca = read(f"{fill}-tp", 2), read(f"{fill}-tp", 3)
    tang = read(f"{fill}-ang")
    fl = flats(z)
    edge = ~np.isnan(z) & np.isnan(tang)
    print(f"{fill}: {int((~np.isnan(z)).sum())} valid cells, "
          f"{int(fl.sum())} of them flat (no lower neighbour)")
    print(f"  {int(edge.sum())} on the border or next to nodata: TauDEM "
          f"NoData, tflow -1 on {int((ang[edge] == -1).sum())}")
    m = ~np.isnan(tang)
    d = np.abs(ang[m] - tang[m])
    d = np.minimum(d, 2 * np.pi - d)
    print(f"  angle: {int(m.sum())} cells compared ({int((m & fl).sum())} "
          f"flat), max |difference| {d.max():.3g} rad, "
          f"{int((d > 1e-6).sum())} beyond 1e-6, "
          f"{int((ang[m] != tang[m]).sum())} not bit-identical")
    for label, name in (("SCA", "sca"), ("SCA -nc", "scanc")):
        ref = read(f"{fill}-{name}")
        m = ~np.isnan(ref)
        r = np.abs(sca[m] - ref[m]) / ref[m]
        print(f"  {label}: {int(m.sum())} cells compared, max relative "
              f"difference {r.max():.3g}, {int((r > 1e-5).sum())} beyond "
              f"1e-5")
EOF
