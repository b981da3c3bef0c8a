#!/bin/bash
# bench-vector: tvector beside GRASS r.to.vect on the same 4096 x 4096 grid.
#
# Input: rough noise (tnoise, 10 octaves, 30 m cells, EPSG:32633), filled,
# tflow --rivers 2000, and a labels band `basin` (tflow --basins where
# tflow has it; else noise cut into 24 classes by tterrace --naive, as
# many polygons and edges as basins, more). The same rasters go to GRASS
# as GeoTIFFs (tgeotiff).
#   rivers: tvector -r (reaches with order, areas, lengths) against
#           r.thin + r.to.vect type=line on the river band;
#   basins: tvector --basins (polygons with holes) against r.to.vect type=area;
#   contours: tvector -c 0.02 (marching squares), tvector's figure only.
# Medians of 2 runs (the mean of the two), wall and CPU (user + system)
# seconds of the whole run, CPU the steadier on a shared machine:
# tvector's includes reading the stream and writing the GeoPackage, the
# GRASS modules' their own work inside a session (the import is left out,
# which flatters GRASS). Figures only: nothing here passes or fails on time.
# usage: scripts/bench-vector.sh BINDIR [SIZE]   (SIZE default 4096)
set -u
bin=${1:-bin}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
n=${2:-4096}
for p in tnoise tfill tflow tterrace tvector tgeotiff tband; do
	[ -x "$bin/$p" ] || { echo "bench-vector: no $bin/$p"; exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-bench-vector.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export GDAL_PAM_ENABLED=NO

# measure CMD...: "WALL CPU" seconds of a command (it must succeed).
measure() {
	/usr/bin/time -f "%e %U %S" -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" ||
	    { echo "bench-vector: failed: $* $(head -c 300 "$tmp/err")" >&2; echo "NaN NaN"; return; }
	awk '{ printf "%.2f %.2f", $1, $2 + $3 }' "$tmp/time"
}
# median2 "W C" "W C": the mean of two runs, "W s wall, C s CPU".
median2() { echo "$1 $2" | awk '{ printf "%.2f s wall, %.2f s CPU", ($1 + $3) / 2, ($2 + $4) / 2 }'; }
[ -x /usr/bin/time ] || { echo "bench-vector: needs /usr/bin/time"; exit 1; }

echo "bench-vector: ${n}x${n} noise, 30 m cells, tflow --rivers 2000"
"$bin/tnoise" -q -s "${n}x$n" -c 30 --origin 500000,4700000 --crs EPSG:32633 \
    -O 10 | "$bin/tfill" -q > "$tmp/filled.tp"
if "$bin/tflow" --help | grep -q -- '--basins'; then
	"$bin/tflow" -q --rivers 2000 --order --basins < "$tmp/filled.tp" > "$tmp/in.tp"
	labels="tflow --basins"
else
	"$bin/tflow" -q --rivers 2000 < "$tmp/filled.tp" |
	    "$bin/tnoise" -q --band basin -O 6 |
	    "$bin/tterrace" -q -b basin -n -s 24 > "$tmp/in.tp"
	labels="noise in 24 classes"
fi
rm -f "$tmp/filled.tp"
"$bin/tgeotiff" -q -b river "$tmp/river.tif" < "$tmp/in.tp"
"$bin/tgeotiff" -q -b basin "$tmp/basin.tif" < "$tmp/in.tp"

for layer in r b c; do
	arg=-$layer
	[ $layer = c ] && arg="-c 0.02"
	t1=$(measure sh -c "'$bin/tvector' -q $arg '$tmp/o$layer.gpkg' < '$tmp/in.tp'")
	t2=$(measure sh -c "'$bin/tvector' -q $arg '$tmp/o$layer.gpkg' < '$tmp/in.tp'")
	eval "tv_$layer=\"$t1 $t2\""
done
feat() { ogrinfo -so "$1" "$2" 2>/dev/null | sed -n 's/^Feature Count: //p'; }
echo "  tvector --rivers   $(median2 $tv_r)  ($(feat "$tmp/or.gpkg" rivers) reaches)"
echo "  tvector --basins   $(median2 $tv_b)  ($(feat "$tmp/ob.gpkg" basins) labels, $labels)"
echo "  tvector -c 0.02    $(median2 $tv_c)  ($(feat "$tmp/oc.gpkg" contours) lines)"

if ! command -v grass >/dev/null 2>&1; then
	echo "  GRASS: not installed (scripts/install-deps check), skipped"
	exit 0
fi
cat > "$tmp/grass.sh" <<GRASS
set -e
r.in.gdal --q input=$tmp/river.tif output=river
r.in.gdal --q input=$tmp/basin.tif output=basin
g.region raster=river
r.mapcalc --q "riv = if(river > 0, 1, null())"
t() { /usr/bin/time -f "%e %U %S" -o $tmp/gtime "\$@" >/dev/null 2>&1; awk '{ printf "%.2f %.2f", \$1, \$2 + \$3 }' $tmp/gtime; }
for i in 1 2; do
	echo "line \$(t sh -c 'r.thin --o --q input=riv output=thin && r.to.vect --o --q input=thin output=rl type=line')"
	echo "area \$(t r.to.vect --o --q input=basin output=ba type=area)"
done
echo "lines \$(v.info -t rl | sed -n 's/^lines=//p')"
echo "areas \$(v.info -t ba | sed -n 's/^areas=//p')"
GRASS
grass --tmp-location EPSG:32633 --exec bash "$tmp/grass.sh" > "$tmp/grass.out" 2>"$tmp/grass.err" ||
    { echo "  GRASS failed: $(tail -c 300 "$tmp/grass.err")"; exit 0; }
gl=$(awk '$1 == "line" { printf "%s %s ", $2, $3 }' "$tmp/grass.out")
ga=$(awk '$1 == "area" { printf "%s %s ", $2, $3 }' "$tmp/grass.out")
echo "  GRASS r.thin + r.to.vect type=line   $(median2 $gl)  ($(awk '$1 == "lines" { print $2 }' "$tmp/grass.out") lines)"
echo "  GRASS r.to.vect type=area            $(median2 $ga)  ($(awk '$1 == "areas" { print $2 }' "$tmp/grass.out") areas)"
# ratio "GRASS runs" "tvector runs": wall and CPU, GRASS over tvector
ratio() { echo "$1 $2" | awk '{ printf "%.1fx wall, %.1fx CPU", ($1 + $3) / ($5 + $7), ($2 + $4) / ($6 + $8) }'; }
echo "  GRASS / tvector: rivers $(ratio "$gl" "$tv_r"); basins $(ratio "$ga" "$tv_b")"
