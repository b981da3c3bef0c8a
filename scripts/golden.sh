#!/bin/sh
# Outputs of every program on small worlds and the test DEM, for proving a
# refactoring leaves the bytes alone: run it with the build before and the
# build after, then compare the two folders (scripts/golden.sh --compare).
# usage: scripts/golden.sh BINDIR OUTDIR
#        scripts/golden.sh --compare DIR1 DIR2
# GeoPackages are compared as SQL dumps without their timestamps; every other
# file byte for byte.
set -eu
if [ "${1:-}" = --compare ]; then
	a=$2 b=$3 bad=0 n=0
	for f in "$a"/*; do
		name=$(basename "$f")
		n=$((n + 1))
		case $name in
		*.gpkg)
			for d in "$a" "$b"; do
				sqlite3 "$d/$name" .dump |
				    sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z//g' > "$d/$name.sql"
			done
			cmp -s "$a/$name.sql" "$b/$name.sql" || { echo "differs: $name"; bad=$((bad + 1)); }
			rm -f "$a/$name.sql" "$b/$name.sql" ;;
		*)
			cmp -s "$f" "$b/$name" || { echo "differs: $name"; bad=$((bad + 1)); } ;;
		esac
	done
	for f in "$b"/*; do
		[ -e "$a/$(basename "$f")" ] || { echo "only in $b: $(basename "$f")"; bad=$((bad + 1)); }
	done
	echo "golden: $n files, $bad differ"
	[ "$bad" = 0 ]
	exit
fi
bin=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
PATH=$bin:$PATH
cd "$out"
# The inputs copied in and named relatively, so HISTORY lines (which record
# file names) do not depend on where the checkout lies.
cp "$root/tests/data/jacksboro_fault_dem.tif" dem.tif
cp "$root/share/island.materials" island.materials
[ -d "$root/share/textures" ] && cp -r "$root/share/textures" textures
run() {	# NAME PIPELINE: the pipeline's standard output into NAME
	name=$1; shift
	sh -c "$*" > "$name" 2> "$name.err" || { echo "golden: $name failed" >&2; cat "$name.err" >&2; }
	[ -s "$name.err" ] || rm -f "$name.err"
}
N="tnoise -s 256x256 -S 7 -c 30 --origin 500000,4649776 --crs EPSG:32633 -q"
run noise.tp "$N"
run warp.tp "$N -w 0.6 --octaves 8"
run island.tp "$N -w 0.3 | tisland -q --sea 0.05"
run shaped.tp "tshape -q -c valleys < island.tp"
run terraced.tp "tterrace -q -s 8 --riser 0.35 < shaped.tp"
run ridged.tp "tridge -q < terraced.tp"
run eroded.tp "terode -q -n 30000 --sediment < ridged.tp"
run eroded-j1.tp "terode -q -j 1 -n 30000 --thermal 3 < island.tp"
run eroded-sync.tp "terode -q -n 20000 --batch-sync < island.tp"
run filled.tp "tfill -q --depth < eroded.tp"
run filled-flat.tp "tfill -q --flat < eroded.tp"
run filled-eps.tp "tfill -q --epsilon 0.0001 < eroded.tp"
run flow.tp "tflow -q --rivers 80 --order --basins < filled.tp"
run flow-mfd.tp "tflow -q -m mfd < filled.tp"
run flow-flat.tp "tflow -q --rivers 80 < filled-flat.tp"
run flow-carve.tp "tflow -q --carve --rivers 80 < eroded.tp"
run flow-trace.tp "tflow -q --carve first --river-rule trace --rivers 80 < eroded.tp"
run flow-outlet.tp "tflow -q --outlet 503840,4645936 --snap 5 < filled.tp"
run world.tp "tnoise -q --band moisture -S 8 < flow.tp | tbiome -q --zscale 1800"
run climate.tp "tbiome -q --climate --wind 270 < flow.tp"
run uplift.tp "tnoise -q -s 128x128 -S 7 | tuplift -q"
run slope.tp "tslope -q --hillshade --curvature < eroded.tp"
run slope-zt.tp "tslope -q --alg zt < eroded.tp"
run info.txt "tinfo < world.tp"
run info.json "tinfo --json < world.tp"
run band.tp "tband --keep moisture,height --rename moisture=wet < world.tp"
run crop.tp "tcrop -w 10,20,100,50 < world.tp"
run crop-bbox.tp "tcrop --bbox 501000,4644000,504000,4648000 < world.tp"
run feature.tp "printf 'base 100\nhill 503000 4646000 700 1500\nridge 501000 4647000 506000 4645000 250 900\nresidual 7 25 4000 6\n' > v.txt; tfeature -q v.txt -s 256x256 -c 30 --origin 500000,4649776"
run world.tif.log "tgeotiff -q --zrange 0,1800 world.tif < world.tp"
run biome.tif.log "tgeotiff -q -b biome biome.tif < world.tp"
run cog.tif.log "tgeotiff -q --cog --type Int16 --scale 0.1 cog.tif < eroded.tp"
run world.png.log "tview -q -o world.png < world.tp"
run biome.png.log "tview -q -b biome --legend -o biome.png < world.tp"
run flowview.png.log "tview -q -b flow --log -o flowview.png < flow.tp"
run export.log "texport -q -f png16 -e unreal --pad e.png < eroded.tp; texport -q -f r16 -e unity --pad --zscale 900 e.r16 < eroded.tp; texport -q -f r32 e.r32 < eroded.tp; texport -q -f pgm e.pgm < eroded.tp"
run splat.log "printf 'grassland 0\n\"temperate deciduous forest\" 0\n* 1\n' > g.txt; texport -q -f splat --biome-groups g.txt --blend 2 s.png < world.tp; texport -q -f normal --normal-y down n.png < world.tp"
run vector.log "tvector -q --rivers --basins --contours 0.1 v.gpkg < flow.tp; tvector -q -r v.geojson < flow.tp"
run tiles.log "ttile -q --size 100 tiles < eroded.tp"
run mosaic.tp "tmosaic -q tiles/manifest"
run tfill-j2.tp "tfill -q -j 2 --tile-size 64 < eroded.tp"
run tflow-j2.tp "tflow -q -j 2 --tile-size 64 --rivers 80 < filled.tp"
run dem.tp "timport dem.tif"
run dem-fill.tp "tfill -q --depth < dem.tp"
run dem-flow.tp "tflow -q --rivers 300 --order --basins < dem-fill.tp"
run dem-carve.tp "tflow -q --carve first --river-rule trace --rivers 300 < dem.tp"
run dem-slope.tp "tslope -q < dem.tp"
run dem-climate.tp "tbiome -q --climate --wind 270 --lake 2 < dem-flow.tp"
run dem-vector.log "tvector -q --rivers dv.gpkg < dem-flow.tp"
run dem-fit.txt "tfeature -q --fit 50 < dem.tp"
run texture.log "[ -f textures/grass.png ] && ttexture -q --materials island.materials --ppc 1 --shade -z 1800 -o t.png < world.tp"
rm -rf tiles textures dem.tif island.materials
for f in *.log; do [ -s "$f" ] || rm -f "$f"; done
echo "golden: $(ls | wc -l) files in $out"
