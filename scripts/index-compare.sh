#!/bin/sh
# index-compare.sh - tindex against TauDEM (twi, slopearearatio,
# dinfdistdown) and SAGA (Topographic Wetness Index) on the shared real
# DEM, printing the largest differences.
#
# usage: scripts/index-compare.sh [TAUDEM_BIN]   (or $TAUDEM_BIN)
#
# TAUDEM_BIN holds TauDEM's dinfflowdir, areadinf, twi, slopearearatio and
# dinfdistdown (built from github.com/dtarb/TauDEM with cmake); without
# it the TauDEM part is left out. SAGA's part runs where saga_cmd is on
# PATH (Debian's package saga). Run from the repository root after
# `make`; TP_BIN (default bin) holds terrapipe's programs. Needs gdalwarp
# and /usr/bin/python3 with numpy and GDAL. RIVERS (default 100) is the
# drainage threshold in cells.
#
# As in taudem-compare.sh the DEM is first warped to UTM 17N at 90 m
# (TauDEM measures geographic rows its own way) and filled by tfill, whose
# gradient leaves no cell flat. TauDEM gets the same filled heights, and
# for dinfdistdown the same drainage cells: tflow -m dinf's river band
# (D-infinity's cells >= RIVERS), which tindex reads too.
#   twi   tindex -m dinf's against TauDEM's twi (ln(sca / slp)) on the
#         cells where TauDEM has one and slp >= 0.001 (tindex's floor);
#   sar   exp(-twi) = tan b / a against slopearearatio;
#   hand  tindex -m dinf's against dinfdistdown -m ave v -nc, and the
#         cells one of them has and the other not: first with drainage
#         only where TauDEM has an angle (it leaves the border and cells
#         next to nodata NoData, streams too, so water reaching a river
#         there is measured from elsewhere), then with every river cell;
#   SAGA  tindex -m d8 and -m mfd's twi against SAGA's TWI (ta_hydrology
#         20, pseudo specific catchment area: area / cell size) on its
#         maximum slope (ta_morphometry 0, Travis) and its D8 and MFD
#         accumulation (ta_hydrology 0, area units), and for D8 on the
#         cells where SAGA's area equals tflow -a's.
set -eu

tb=${1:-${TAUDEM_BIN:-}}
bin=${TP_BIN:-bin}
rivers=${RIVERS:-100}
dem=tests/data/jacksboro_fault_dem.tif
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

gdalwarp -q -t_srs EPSG:32617 -tr 90 90 -r bilinear -ot Float32 \
    -dstnodata -32768 "$dem" "$t/utm.tif"
"$bin/timport" "$t/utm.tif" | "$bin/tfill" |
    "$bin/tflow" -q -m dinf --rivers "$rivers" > "$t/f.tp"
# NaN nodata as -32768, which TauDEM's equality test matches
"$bin/tgeotiff" -q -b height "$t/f.tp" "$t/f-nan.tif"
gdalwarp -q -srcnodata nan -dstnodata -32768 "$t/f-nan.tif" "$t/fel.tif"
for m in d8 mfd dinf; do
	"$bin/tindex" -q -m $m < "$t/f.tp" |
	    "$bin/tgeotiff" -q -b height,twi,spi,hand,river "$t/tp-$m.tif"
done

if [ -n "$tb" ]; then
	for p in dinfflowdir areadinf twi slopearearatio dinfdistdown; do
		[ -x "$tb/$p" ] || { echo "$0: no $tb/$p" >&2; exit 1; }
	done
	q() { "$@" > "$t/log" 2>&1 || { cat "$t/log" >&2; exit 1; }; }
	q "$tb/dinfflowdir" -fel "$t/fel.tif" -ang "$t/ang.tif" -slp "$t/slp.tif"
	q "$tb/areadinf" -ang "$t/ang.tif" -sca "$t/sca.tif" -nc
	q "$tb/twi" -slp "$t/slp.tif" -sca "$t/sca.tif" -twi "$t/twi.tif"
	q "$tb/slopearearatio" -slp "$t/slp.tif" -sca "$t/sca.tif" \
	    -sar "$t/sar.tif"
	# The drainage as TauDEM's src grid (Int16): the river band as it is
	# (src-all), and without the cells TauDEM has no angle for, the
	# border and next to nodata (src), which it leaves NoData even on a
	# stream; tindex gets the latter as a river band too (f2.tp).
	PYTHONPATH=tests /usr/bin/python3 - "$t" <<'EOF2'
import sys
import numpy as np
from osgeo import gdal
import tp
t = sys.argv[1]
h, a = tp.read(f"{t}/f.tp")
a = a.copy()
names = h["BANDS"].split()
d = gdal.Open(f"{t}/ang.tif")
b = d.GetRasterBand(1)
noang = b.ReadAsArray() == b.GetNoDataValue()
r = a[:, names.index("river"), :]
for name, keep in (("src-all", r), ("src", np.where(noang, 0, r))):
    o = gdal.GetDriverByName("GTiff").Create(f"{t}/{name}.tif", d.RasterXSize,
                                             d.RasterYSize, 1, gdal.GDT_Int16)
    o.SetGeoTransform(d.GetGeoTransform())
    o.SetProjection(d.GetProjection())
    o.GetRasterBand(1).SetNoDataValue(-1)
    o.GetRasterBand(1).WriteArray(np.where(np.isnan(keep), -1, keep).astype(np.int16))
    o = None
a[:, names.index("river"), :] = np.where(noang & ~np.isnan(r), 0, r)
extra = ["%s %s" % (k, h[k]) for k in ("CELLSIZE", "ORIGIN", "CRS") if k in h]
tp.write(a, h["BANDS"], extra, f"{t}/f2.tp")
EOF2
	for s in src src-all; do
		q "$tb/dinfdistdown" -ang "$t/ang.tif" -fel "$t/fel.tif" \
		    -src "$t/$s.tif" -dd "$t/dd-$s.tif" -m ave v -nc
	done
	"$bin/tindex" -q -m dinf --bands hand < "$t/f2.tp" |
	    "$bin/tgeotiff" -q -b hand "$t/tp-hand.tif"
	echo "TauDEM $(sed -n 's/^DinfDistDown -v version //p' "$t/log"), tindex -m dinf, drainage: D-inf cells >= $rivers"
fi
if command -v saga_cmd > /dev/null; then
	s() { saga_cmd "$@" > "$t/log" 2>&1 || { cat "$t/log" >&2; exit 1; }; }
	s ta_morphometry 0 -ELEVATION "$t/fel.tif" -SLOPE "$t/saga-slope.tif" \
	    -METHOD 0 -UNIT_SLOPE 0
	for m in 0 4; do
		s ta_hydrology 0 -ELEVATION "$t/fel.tif" -FLOW "$t/saga-a$m.tif" \
		    -METHOD $m -FLOW_UNIT 1 -CONVERGENCE 1.1
		s ta_hydrology 20 -SLOPE "$t/saga-slope.tif" -AREA \
		    "$t/saga-a$m.tif" -CONV 1 -TWI "$t/saga-twi$m.tif"
	done
	"$bin/tflow" -q -a < "$t/f.tp" | "$bin/tgeotiff" -q -b flow "$t/tp-area.tif"
	echo "$(saga_cmd --version 2>&1 | head -n 1), tindex -m d8 and -m mfd"
else
	echo "SAGA: no saga_cmd on PATH (apt-get install saga): left out"
fi

/usr/bin/python3 - "$t" "$tb" <<'EOF'
import os
import sys
import numpy as np
from osgeo import gdal

t, tb = sys.argv[1], sys.argv[2]


def read(name, band=1):
    d = gdal.Open(f"{t}/{name}.tif")
    b = d.GetRasterBand(band)
    a = b.ReadAsArray().astype(np.float64)
    nd = b.GetNoDataValue()
    if nd is not None and not np.isnan(nd):
        a[a == nd] = np.nan
    return a


def worst(label, mine, ref, rel=False):
    m = ~np.isnan(mine) & ~np.isnan(ref)
    d = np.abs(mine[m] - ref[m])
    if rel:
        d = d / np.abs(ref[m])
    i = np.argmax(d)
    print(f"  {label}: {int(m.sum())} cells, max {'relative ' if rel else ''}"
          f"difference {d[i]:.3g} (tindex {mine[m][i]:.7g}, reference "
          f"{ref[m][i]:.7g}), {int((d > 1e-5).sum())} beyond 1e-5")


if tb:
    twi = read("tp-dinf", 2)
    slp, ttwi = read("slp"), read("twi")
    ok = slp >= 1e-3
    print(f"twi: TauDEM has {int((~np.isnan(ttwi)).sum())} cells, "
          f"{int((~np.isnan(ttwi) & ~ok).sum())} of them with slp < 0.001 "
          f"(tindex floors those)")
    worst("twi", np.where(ok, twi, np.nan), ttwi)
    worst("slope/area", np.where(ok, np.exp(-twi), np.nan), read("sar"),
          rel=True)
    for label, mine, ref in (
            ("hand, drainage TauDEM has an angle on", "tp-hand", "dd-src"),
            ("hand, every river cell drainage", "tp-dinf", "dd-src-all")):
        hand, dd = read(mine, 1 if mine == "tp-hand" else 4), read(ref)
        print(f"{label}: tindex has {int((~np.isnan(hand)).sum())} cells, "
              f"TauDEM {int((~np.isnan(dd)).sum())}; "
              f"{int((np.isnan(dd) & ~np.isnan(hand)).sum())} only tindex, "
              f"{int((~np.isnan(dd) & np.isnan(hand)).sum())} only TauDEM")
        worst("hand", hand, dd)
if os.path.exists(f"{t}/saga-twi0.tif"):
    same = np.abs(read("saga-a0") - read("tp-area")) <= \
        1e-6 * read("tp-area")
    for m, name in ((0, "d8"), (4, "mfd")):
        mine, ref = read(f"tp-{name}", 2), read(f"saga-twi{m}")
        print(f"SAGA TWI against tindex -m {name}:")
        worst("every cell", mine, ref)
        ok = ~np.isnan(mine) & ~np.isnan(ref)
        print(f"  median |difference| {np.median(np.abs(mine[ok] - ref[ok])):.3g}, "
              f"correlation {np.corrcoef(mine[ok], ref[ok])[0, 1]:.6f}")
        if m == 0:
            print(f"  {int((~same & ok).sum())} cells where SAGA's D8 area "
                  f"differs from tflow -a's")
            worst("where the areas agree", np.where(same, mine, np.nan), ref)
EOF
