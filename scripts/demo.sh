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
# The README's whole world at half its resolution: 1024 cells of 60 m,
# heights 0..1 standing for 0..1800 m (--zscale), the sea at 0.38, which
# the GeoTIFF's --zrange puts at 0 m. The land rises where the band
# 'uplift' says (not in the basins, which keep lakes) while tuplift's
# rivers cut valleys back from the coast; the droplets add gullies.
set -- tnoise --size 1024x1024 --cellsize 60 --origin 500000,4650000 --crs EPSG:32633 \
    --seed 7 --octaves 8 --warp 0.3 --frequency 6.5e-5
pipe="$*"
for stage in "tshape --stretch 0.2,0.8" \
    "tisland --mix 0.6 --shape square-bump --warp 0.3 --sea 0.38" \
    "tnoise --band uplift --seed 3 --octaves 3 --frequency 6.5e-5" \
    "tshape --band uplift --stretch 0.3,0.65" \
    "tuplift --flow mfd --zscale 1800 --k 1e-5 --uplift 1.3e-4 --diffusion 0.08 --dt 50000 --steps 50" \
    "terode --droplets 200000" "tfill --depth" "tflow --rivers 400" \
    "tnoise --band moisture --seed 8" "tbiome --zscale 1800"; do
	have "${stage%% *}" && pipe="$pipe | $stage"
done
pipe="$pipe | tee demo.tp | tgeotiff --zrange -684,1116 demo.tif"
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
