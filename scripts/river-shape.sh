#!/bin/bash
# river-shape: how much of the river network of the worlds the README and
# `make demo` make lies in ruler-straight runs (scripts/straight-runs.py:
# the share of river cells in a run of 8 or more cells of one D8
# direction; a real DEM's network has about 0.1).
#
# Each world is filled with tfill --depth, then routed two ways: as tflow
# did before flats converged and lakes were found (--flats nearest
# --no-lakes: the filled depressions crossed by parallel lines) and as it
# does now (converging flats, lakes). Prints river cells, lakes and the
# share for each.
# usage: scripts/river-shape.sh BINDIR [SIZE...]   (default 1024 2048)
set -eu
bin=${1:-bin}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
shift || true
sizes=${*:-1024 2048}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-river-shape.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
PATH=$bin:$PATH

# world NAME SIZE DROPLETS: the README's recipe (the demo's has fewer
# droplets), up to the fill
world() {
	tnoise -q --size "$2x$2" --cellsize 30 --origin 500000,4650000 \
	    --crs EPSG:32633 --seed 7 --octaves 8 --warp 0.3 |
	    tisland --sea 0.05 | tshape --curve valleys |
	    tterrace --steps 8 --riser 0.35 | tridge |
	    terode -q --droplets "$3" | tfill --depth > "$tmp/$1.tp"
}

# share FILE: river cells, lakes and the straight-run share
share() {
	/usr/bin/python3 "$here/straight-runs.py" "$1" |
	    sed 's/.*: \([0-9]*\) river cells, .*share \(.*\)/\1 \2/'
}

echo "river-shape: share of river cells in straight runs of 8+ (a real DEM: about 0.1)"
printf "  %-34s %8s %8s %8s %8s %6s\n" world "before" "rivers" "after" "rivers" lakes
for n in $sizes; do
	kinds=readme
	[ "$n" = 1024 ] && kinds="readme demo"	# the demo is 1024 wide
	for kind in $kinds; do
		# as printed: the README's 500000 droplets, the demo's 200000
		d=500000
		[ $kind = readme ] || d=200000
		world "$kind$n" "$n" "$d"
		tflow -q --rivers 800 --flats nearest --no-lakes < "$tmp/$kind$n.tp" > "$tmp/b.tp"
		tflow -q --rivers 800 < "$tmp/$kind$n.tp" > "$tmp/a.tp"
		read -r rb sb <<< "$(share "$tmp/b.tp")"
		read -r ra sa <<< "$(share "$tmp/a.tp")"
		lakes=$(/usr/bin/python3 -c "
import sys; sys.path.insert(0, '$here/../tests')
from tp import band
print(int(band(sys.argv[1], 'lake').max()))" "$tmp/a.tp")
		printf "  %-34s %8s %8s %8s %8s %6s\n" "$kind ${n}x$n, $d droplets" \
		    "$sb" "$rb" "$sa" "$ra" "$lakes"
	done
done
