#!/bin/sh
# make demo: the longest pipeline the toolchain has, leaving demo.tif (and
# demo.png when tview exists) in the working directory.
set -eu
bin=$(cd "$1" && pwd)
PATH=$bin:$PATH
have() { [ -x "$bin/$1" ]; }

if ! have tnoise || ! have tgeotiff; then
	echo "demo: needs tnoise and tgeotiff" >&2
	exit 1
fi
set -- tnoise --size 1024x1024 --cellsize 30 --origin 500000,4649776 --crs EPSG:32633 \
    --seed 7 --octaves 8 --warp 0.3
pipe="$*"
for stage in "tisland" "tshape --curve valleys" "tterrace --steps 8 --riser 0.35" \
    "tridge" "terode --droplets 200000" "tfill" "tflow --rivers 800" \
    "tnoise --band moisture --seed 8"; do
	have "${stage%% *}" && pipe="$pipe | $stage"
done
pipe="$pipe | tee demo.tp | tgeotiff --zrange 0,1800 demo.tif"
echo "demo: $pipe"
sh -c "$pipe"
if have tview; then
	tview --sea 0.05 -o demo.png < demo.tp
	echo "demo: wrote demo.tif and demo.png"
else
	echo "demo: wrote demo.tif"
fi
rm -f demo.tp
