#!/bin/sh
# make demo: the longest pipeline the toolchain has, from noise to a biome
# map, leaving in the working directory demo.tif (heights in metres),
# demo-biome.tif (the classes, with .aux.xml and .qml beside it),
# demo.png, demo-biome.png and demo-texture.png (the ground textured by
# biome, share/island.materials). Stages that are not built are left out.
set -eu
bin=$(cd "$1" && pwd)
PATH=$bin:$PATH
have() { [ -x "$bin/$1" ]; }

if ! have tnoise || ! have tgeotiff; then
	echo "demo: needs tnoise and tgeotiff" >&2
	exit 1
fi
# 1024 cells of 30 m, heights 0..1 standing for 0..1800 m (--zscale,
# --zrange), sea level at 0.05 (90 m).
set -- tnoise --size 1024x1024 --cellsize 30 --origin 500000,4649776 --crs EPSG:32633 \
    --seed 7 --octaves 8 --warp 0.3
pipe="$*"
for stage in "tisland --sea 0.05" "tshape --curve valleys" \
    "tterrace --steps 8 --riser 0.35" "tridge" "terode --droplets 200000" \
    "tfill --depth" "tflow --rivers 800" "tnoise --band moisture --seed 8" \
    "tbiome --zscale 1800"; do
	have "${stage%% *}" && pipe="$pipe | $stage"
done
pipe="$pipe | tee demo.tp | tgeotiff --zrange 0,1800 demo.tif"
echo "demo: $pipe"
sh -c "$pipe"
made="demo.tif"
if have tbiome; then
	tgeotiff -b biome demo-biome.tif < demo.tp
	made="$made, demo-biome.tif"
fi
if have tview; then
	tview -o demo.png < demo.tp
	made="$made, demo.png"
	if have tbiome; then
		tview -b biome --legend -o demo-biome.png < demo.tp
		made="$made, demo-biome.png"
	fi
fi
root=$(cd "$(dirname "$0")/.." && pwd)
if have ttexture && have tbiome && [ -f "$root/share/textures/grass.png" ]; then
	ttexture -q --materials "$root/share/island.materials" --ppc 2 \
	    --shade -z 1800 -o demo-texture.png < demo.tp
	made="$made, demo-texture.png"
fi
echo "demo: wrote $made"
rm -f demo.tp
