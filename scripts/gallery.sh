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
echo "08-flow: $E | tfill --depth | tflow | tview -b flow --log"
sh -c "$E | tfill -q --depth | tflow -q | tview -q -s 2 -b flow --log $out/08-flow.png"
echo "09-jacksboro: timport tests/data/jacksboro_fault_dem.tif | tview"
timport tests/data/jacksboro_fault_dem.tif | tview -q "$out/09-jacksboro.png"
B="$E | tfill -q --depth | tflow -q --rivers 2000 | tnoise -q --band moisture -S 8 | tbiome -q --zscale 100"
echo "10-biome: $B | tview -b biome --legend"
sh -c "$B | tview -q -s 2 -b biome --legend $out/10-biome.png"
J="timport tests/data/jacksboro_fault_dem.tif | tfill -q --depth | tflow -q --rivers 300 | tbiome -q --climate --wind 270"
echo "11-jacksboro-climate: $J | tview -b biome --legend"
sh -c "$J | tview -q -b biome --legend $out/11-jacksboro-climate.png"
V=$(mktemp)
trap 'rm -f "$V" "$V.fit"' EXIT
cat > "$V" <<'VALLEY'
# a valley between four hills, a ridge to the north, a lake
base 100
hill 508000 4642000 700 5000
hill 524000 4640000 900 6000
hill 520000 4626000 500 4500
hill 503000 4625000 350 3500
ridge 506000 4646000 526000 4644000 250 900
cliff 503000 4631000 511000 4636000 80 1200 150
plateau 514000 4632000 2500 -60 800
residual 7 25 4000 6
VALLEY
echo "12-valley: tfeature valley.txt -s 1024x1024 -c 30 --origin 500000,4650000 | tview -s 2"
tfeature -q "$V" -s 1024x1024 -c 30 --origin 500000,4650000 | tview -q -s 2 "$out/12-valley.png"
echo "13-jacksboro-fit: timport ... | tfeature --fit 1000 > fit.txt; tfeature fit.txt GEOMETRY -l hills | tview --range 236,1076"
timport tests/data/jacksboro_fault_dem.tif | tfeature -q --fit 1000 > "$V.fit" 2>/dev/null
tfeature -q "$V.fit" $(sed -n '1s/^# tfeature //p' "$V.fit") -l hills |
    tview -q --range 236,1076 "$out/13-jacksboro-fit.png"
# ttexture: the four sampling modes on the same flat ground (128 cells of
# 1 m, a rock texture 16 m across), and the island textured by biome.
T=$(cd "$bin/.." && pwd)/share/textures
[ -f "$T/rock.png" ] || { echo "gallery: make textures first" >&2; exit 1; }
M=$(mktemp)
trap 'rm -f "$V" "$V.fit" "$M" "$M.tp" "$M.png"' EXIT
echo "* $T/rock.png 16" > "$M"
for m in plain hex-linear hex-vp iq; do
	n=$(( $(echo "plain hex-linear hex-vp iq" | tr ' ' '\n' | grep -n "^$m$" | cut -d: -f1) + 13 ))
	echo "$n-$m: tnoise -s 128x128 -f 0.0001 | ttexture --mode $m --ppc 4"
	tnoise -q -s 128x128 -f 0.0001 | ttexture -q --materials "$M" --mode "$m" --ppc 4 "$out/$n-$m.png"
done
cat > "$M" <<MATERIALS
ocean $T/snow.png 200 #3050a0
lake $T/snow.png 200 #4070b0
river $T/snow.png 200 #4070b0
beach $T/sand.png 60
"temperate desert" $T/sand.png 80
"subtropical desert" $T/sand.png 80
rock $T/rock.png 60
bare $T/rock.png 60
scorched $T/rock.png 60 #808080
snow $T/snow.png 60
tundra $T/rock.png 80 #d0d0c0
* $T/grass.png 60
MATERIALS
echo "18-textured: $B | ttexture --ppc 1 --shade -z 100, halved"
sh -c "$B" > "$M.tp"
ttexture -q --materials "$M" --ppc 1 --shade -z 100 "$M.png" < "$M.tp"
gdal_translate -q -of PNG -outsize 512 512 "$M.png" "$out/18-textured.png"
rm -f "$out/18-textured.png.aux.xml"
# The noise of 01-noise after droplets, and after stream-power evolution
# with its rivers (tuplift, then the biome map's river band).
show 20-droplets "" "$N | terode -q"
U="$N | tuplift -q | tfill -q --depth | tflow -q --rivers 300 | tnoise -q --band moisture -S 8 | tbiome -q --top 95 --rock-slope 89"
show 21-tuplift "-b biome" "$U"
show 24-tuplift-d8 "-b biome" "$(echo "$U" | sed 's/tuplift -q/tuplift -q --flow d8/')"
# tvector: the island's river network as a GeoPackage, coloured by Strahler
# order over its tview picture (burnt in by GDAL, scripts/gallery-rivers.py).
R="$E | tfill -q --depth | tflow -q --rivers 2000"
echo "19-rivers: $R | tvector -r rivers.gpkg; over tview -s 2, by order"
sh -c "$R" > "$M.tp"
tview -q -s 2 "$M.png" < "$M.tp"
tvector -q -r "$M.gpkg" < "$M.tp"
/usr/bin/python3 scripts/gallery-rivers.py "$M.tp" "$M.png" "$M.gpkg" "$out/19-rivers.png"
rm -f "$M.gpkg" "$out/19-rivers.png.aux.xml"
# The README's whole world (2048x2048, drawn one pixel per 4x4 cells) as it
# was, terraces stacked on a flattened island, and as it is: land raised by
# an uplift band and carved by tuplift, with lakes and a coast all round.
W0="tnoise -q --size 2048x2048 --cellsize 30 --origin 500000,4650000 --crs EPSG:32633 --seed 7 --octaves 8 --warp 0.3 | tisland -q --sea 0.05 | tshape -q --curve valleys | tterrace -q --steps 8 --riser 0.35 | tridge -q | terode -q --droplets 500000 | tfill -q --depth | tflow -q --rivers 800 | tnoise -q --band moisture --seed 8 | tbiome -q --zscale 1800"
echo "22-world-terraced: $W0 | tview -s 4 -b biome"
sh -c "$W0 | tview -q -s 4 -b biome $out/22-world-terraced.png"
W1="tnoise -q --size 2048x2048 --cellsize 30 --origin 500000,4650000 --crs EPSG:32633 --seed 7 --octaves 8 --warp 0.3 --frequency 6.5e-5 | tshape -q --stretch 0.2,0.8 | tisland -q --mix 0.6 --shape square-bump --warp 0.3 --sea 0.38 | tnoise -q --band uplift --seed 3 --octaves 3 --frequency 6.5e-5 | tshape -q --band uplift --stretch 0.3,0.65 | tuplift -q --flow mfd --zscale 1800 --k 1e-5 --uplift 1.3e-4 --diffusion 0.08 --dt 50000 --steps 50 | terode -q --droplets 800000 | tfill -q --depth | tflow -q --rivers 400 | tnoise -q --band moisture --seed 8 | tbiome -q --zscale 1800"
echo "23-world: $W1 | tview -s 4 -b biome"
sh -c "$W1 | tview -q -s 4 -b biome $out/23-world.png"
