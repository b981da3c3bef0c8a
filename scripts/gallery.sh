#!/bin/sh
# Remake the README's pipeline gallery: docs/gallery/*.png, each from the
# pipeline printed beside it. usage: scripts/gallery.sh BINDIR
set -eu
bin=$(cd "$1" && pwd)
PATH=$bin:$PATH
out=docs/gallery
mkdir -p "$out"
show() {	# NAME "TVIEW OPTIONS" PIPELINE: draw the stream at 512x512
	name=$1 view=$2; shift 2
	echo "$name: $* | tview -s 2 $view"
	sh -c "$* | tview -q -s 2 $view $out/$name.png"
}
N="tnoise -s 1024x1024 -S 7 -q"
show 01-noise "" "$N"
show 02-warp "" "$N -w 0.6"
show 03-island "--sea 0.3" "$N -w 0.3 | tisland -q"
show 04-shaped "--sea 0.09" "$N -w 0.3 | tisland -q | tshape -c valleys -q"
show 05-terraced "--sea 0.09" "$N -w 0.3 | tisland -q | tshape -c valleys -q | tterrace -s 8 -q"
show 06-ridged "--sea 0.3" "$N -w 0.3 | tisland -q | tridge -a 0.6 -q"
show 07-eroded "--sea 0.3" "$N -w 0.3 | tisland -q | tridge -a 0.6 -q | terode -n 500000 -q"
E="$N -w 0.3 | tisland -q --sea 0.3 | tridge -a 0.6 -q | terode -n 500000 -q"
echo "08-flow: $E | tfill | tflow | tview -b flow --log"
sh -c "$E | tfill -q | tflow -q | tview -q -s 2 -b flow --log $out/08-flow.png"
echo "09-jacksboro: timport tests/data/jacksboro_fault_dem.tif | tview"
timport tests/data/jacksboro_fault_dem.tif | tview -q "$out/09-jacksboro.png"
B="$E | tfill -q --depth | tflow -q --rivers 2000 | tnoise -q --band moisture -S 8 | tbiome -q --zscale 100"
echo "10-biome: $B | tview -b biome --legend"
sh -c "$B | tview -q -s 2 -b biome --legend $out/10-biome.png"
J="timport tests/data/jacksboro_fault_dem.tif | tfill -q --depth | tflow -q --rivers 300 | tbiome -q --climate --wind 270 --lake 2"
echo "11-jacksboro-climate: $J | tview -b biome --legend"
sh -c "$J | tview -q -b biome --legend $out/11-jacksboro-climate.png"
