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
echo "08-rivers: ... | tfill | tflow --rivers 2000 | tview -b flow --log"
sh -c "$N -w 0.3 | tisland -q | tridge -a 0.6 -q | terode -n 500000 -q | tfill -q | tflow -q | tview -q -s 2 -b flow --log $out/08-flow.png"
echo "09-jacksboro: timport tests/data/jacksboro_fault_dem.tif | tview"
timport tests/data/jacksboro_fault_dem.tif | tview -q "$out/09-jacksboro.png"
