#!/bin/bash
# zones-compare.sh [DEM] - tinfo --zones against GRASS's r.univar zones=
# (and r.stats -a for the areas) on the basins of a DEM (default: the
# shared tests/data/jacksboro_fault_dem.tif): timport DEM | tfill |
# tflow --basins gives the band 'basin'; its zones' statistics of the
# bands height and flow are compared with GRASS's, run in a temporary
# location of the stream's CRS on GeoTIFFs tgeotiff writes. Prints the
# zones each found and, per band and statistic, the largest absolute and
# relative difference. Needs grass (8.x) on PATH.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${TP_BIN:-$ROOT/bin}
DEM=${1:-$ROOT/tests/data/jacksboro_fault_dem.tif}
BANDS="height flow"
T=$(mktemp -d "${TMPDIR:-/tmp}/zones-compare.XXXXXX")
trap 'rm -rf "$T"' EXIT
"$BIN/timport" "$DEM" | "$BIN/tfill" | "$BIN/tflow" --basins > "$T/b.tp"
"$BIN/tinfo" -q --zones basin --json "$T/b.tp" > "$T/tp.json"
crs=$(sed -n 's/^CRS //p;/^ENDHDR$/q' "$T/b.tp")
{
	echo "r.in.gdal -o input=$T/basin.tif output=basin --q"
	echo "g.region raster=basin"
	echo 'r.mapcalc "zone = int(basin)" --q'
	echo "r.stats -a -n input=zone separator=comma > $T/area.csv"
	for b in $BANDS; do
		"$BIN/tgeotiff" -q -b "$b" "$T/b.tp" "$T/$b.tif"
		echo "r.in.gdal -o input=$T/$b.tif output=$b --q"
		echo "r.univar -t map=$b zones=zone separator=comma > $T/$b.csv"
	done
} > "$T/grass.sh"
"$BIN/tgeotiff" -q -b basin "$T/b.tp" "$T/basin.tif"
grass --tmp-location "$crs" --exec bash "$T/grass.sh" > /dev/null 2> "$T/grass.err" ||
    { cat "$T/grass.err" >&2; exit 1; }
/usr/bin/python3 - "$T" $BANDS <<'PY'
import csv, json, sys
t, bands = sys.argv[1], sys.argv[2:]
tp = json.load(open(t + "/tp.json"))
zones = {z["zone"]: z for z in tp["zones"]}
area = {int(r[0]): float(r[1]) for r in csv.reader(open(t + "/area.csv"))}
print("zones of band %s: %d (GRASS: %d), areas in %s" % (
    tp["zone_band"], len(zones), len(area), tp["area_unit"]))

def worst(pairs):
    a = max((abs(x - y) for x, y in pairs), default=0.0)
    r = max((abs(x - y) / abs(y) for x, y in pairs if y != 0), default=0.0)
    return a, r

a, r = worst([(zones[k]["area"], area[k]) for k in area if k in zones])
print("  area (r.stats -a): largest difference %.6g, relative %.3g" % (a, r))
stats = [("non_null_cells", "valid"), ("null_cells", "nodata"),
         ("min", "min"), ("max", "max"), ("mean", "mean"),
         ("stddev", "stddev"), ("sum", "sum")]
for b in bands:
    rows = list(csv.DictReader(open("%s/%s.csv" % (t, b))))
    mine = {k: {x["name"]: x for x in z["bands"]}[b] for k, z in zones.items()}
    missing = [r_["zone"] for r_ in rows if int(r_["zone"]) not in mine]
    print("band %s: %d zones compared%s" % (b, len(rows),
          ", missing here: " + " ".join(missing) if missing else ""))
    for g, m in stats:
        pairs = [(float(mine[int(r_["zone"])][m] or 0), float(r_[g]))
                 for r_ in rows if int(r_["zone"]) in mine]
        a, r = worst(pairs)
        print("  %-8s largest difference %.6g, relative %.3g" % (m, a, r))
PY
