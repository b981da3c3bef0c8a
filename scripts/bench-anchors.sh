#!/bin/bash
# bench-anchors: the speed targets each set beside an anchor measured in
# the same run, as ratios from interleaved pairs: A and B alternate, each
# pair gives A/B, and the median of the pairs' ratios is printed with the
# least and the greatest (the spread). CPU seconds (user + system of the
# whole command) are the figure: the machine is shared, and wall time says
# more of the load than of the program; wall ratios and peak memory
# (largest resident set of any one process) stand beside them, and the
# load (uptime) before each group.
#
#   flow    tflow -j 1 (D8 directions and accumulation, the default bands)
#           beside RichDEM's d8_flow_directions + d8_flow_accum, 4096^2
#           and 8192^2 (goal: at most 0.5x, peak memory at most RichDEM's)
#   fill    tfill -j 2 beside tfill -j 1 at 8192^2 (goal: 1.6x faster,
#           memory at most 1.3x); tfill --flat beside RichDEM's
#           PriorityFlood_Zhou2016 (goal: at most 0.4x)
#   geotiff tgeotiff beside gdal_translate, DEFLATE, predictor 3, tiled
#           256, 4096^2, on one thread and two (goal: at most 0.6x); the
#           file sizes
#   stream  tridge -j 1 and tbiome -j 1 beside cat, each after a cat whose
#           output pipe is widened to 1 MiB (goal: within 2x)
#
# The RichDEM driver (scripts/richdem-anchor.cpp) is built against the
# RichDEM tree given, as scripts/richdem-compare.sh builds its own; without
# one the RichDEM rows are left out. RichDEM is read from and written to
# raw files, tflow and tfill through their streams; all outputs go to
# /dev/null but the GeoTIFFs.
#
# usage: scripts/bench-anchors.sh [--pairs N] [--quick] [--only GROUP]
#            BINDIR [RICHDEM_SRC]
#   RICHDEM_SRC: a RichDEM source tree (its include/richdem), or the
#   variable RICHDEM_SRC (make bench RICHDEM_SRC=...), e.g.
#   git --git-dir=RICHDEM.git archive HEAD include | tar -x -C /tmp/rd
#   --quick: 4096^2 only where 8192^2 is measured, 256 MiB streams
set -u
me=bench-anchors
pairs=5 quick=0 only=
while [ $# -gt 0 ]; do
	case $1 in
	--pairs) pairs=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	--only) only=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { echo "usage: scripts/$me.sh [--pairs N] [--quick] [--only GROUP] BINDIR [RICHDEM_SRC]"; exit 2; }
bin=$1
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
src=${2:-${RICHDEM_SRC:-}}
scripts=$(cd "$(dirname "$0")" && pwd)
PY=/usr/bin/python3
[ -x /usr/bin/time ] || { echo "$me: needs /usr/bin/time (package time)"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-$me.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

rd=
if [ -n "$src" ]; then
	[ -f "$src/include/richdem/common/Array2D.hpp" ] ||
	    { echo "$me: no include/richdem in $src"; exit 1; }
	# NDEBUG and no progress bars, as richdem-compare.sh builds; no
	# OpenMP: one thread
	${CXX:-g++} -std=c++17 -O2 -DNDEBUG -DRICHDEM_NO_PROGRESS \
	    -DRICHDEM_GIT_HASH='"unknown"' -DRICHDEM_COMPILE_TIME='"unknown"' \
	    -Wno-unknown-pragmas -I"$src/include" -o "$tmp/richdem-anchor" \
	    "$scripts/richdem-anchor.cpp" 2> "$tmp/cxx.log" ||
	    { cat "$tmp/cxx.log"; echo "$me: cannot build the driver"; exit 1; }
	rd=$tmp/richdem-anchor
	echo "RichDEM: $src ($(cd "$src" && git log -1 --format=%h 2>/dev/null || echo "a tree"))"
fi

# one CMD: "cpu wall maxrss_mib" of sh -c CMD.
one() {
	/usr/bin/time -f '%U %S %e %M' -o "$tmp/t" sh -c "$1" > /dev/null 2>&1 ||
	    return 1
	awk '{ printf "%.3f %.3f %.1f", $1 + $2, $3, $4 / 1024 }' "$tmp/t"
}

# pair LABEL CMD_A CMD_B [INVERT]: $pairs rounds of A then B (B then A on
# every other round); prints the medians and the median of A/B (of B/A
# with INVERT: a speed-up) with its spread.
pair() {
	local label=$1 a=$2 b=$3 inv=${4:-0} i ra rb
	: > "$tmp/rounds"
	for i in $(seq "$pairs"); do
		if [ $((i % 2)) = 1 ]; then
			ra=$(one "$a") && rb=$(one "$b")
		else
			rb=$(one "$b") && ra=$(one "$a")
		fi || { echo "$label: failed"; return 1; }
		echo "$ra $rb" >> "$tmp/rounds"
	done
	"$PY" - "$label" "$inv" "$tmp/rounds" <<'PYEOF'
import sys, statistics as st
label, inv = sys.argv[1], sys.argv[2] == "1"
r = [list(map(float, l.split())) for l in open(sys.argv[3]) if l.strip()]
def ratio(i, j):
    q = sorted((x[j] / x[i] if inv else x[i] / x[j]) for x in r)
    return "%.2fx (%.2f..%.2f)" % (st.median(q), q[0], q[-1])
m = lambda k: st.median(x[k] for x in r)
print("%s: %s cpu, %s wall over %d pairs" % (label, ratio(0, 3),
    ratio(1, 4), len(r)))
print("    A cpu %.2f s wall %.2f s peak %.0f MiB; B cpu %.2f s wall %.2f s peak %.0f MiB (medians)"
      % (m(0), m(1), m(2), m(3), m(4), m(5)))
PYEOF
}

# raw IN OUT: the body of a one-band stream, for RichDEM.
raw() {
	local off
	off=$("$PY" -c 'import sys; d=open(sys.argv[1],"rb").read(1<<16); print(d.index(b"\nENDHDR\n")+8)' "$1")
	tail -c +$((off + 1)) "$1" > "$2"
}

load() { echo "load: $(uptime | sed 's/.*load average: //')"; }
want() { [ -z "$only" ] || [ "$only" = "$1" ]; }

sizes="4096 8192"
[ "$quick" = 1 ] && sizes=4096

if want flow; then
	echo "== flow: tflow -j 1 (A) beside RichDEM d8_flow_directions + d8_flow_accum (B); goal A/B <= 0.5"
	for n in $sizes; do
		"$bin/tnoise" -q -s ${n}x$n -S 3 | "$bin/tfill" -q > "$tmp/f.tp" ||
		    { echo "$me: cannot make the input"; exit 1; }
		raw "$tmp/f.tp" "$tmp/f.f32"
		load
		if [ -n "$rd" ]; then
			pair "${n}^2, filled tnoise -S 3" \
			    "'$bin/tflow' -q -j 1 < '$tmp/f.tp'" \
			    "'$rd' flow $n $n '$tmp/f.f32' /dev/null /dev/null"
		else
			echo "${n}^2: tflow -j 1 cpu/wall/MiB $(one "'$bin/tflow' -q -j 1 < '$tmp/f.tp'") (no RichDEM given)"
		fi
	done
	rm -f "$tmp/f.tp" "$tmp/f.f32"
fi

if want fill; then
	n=8192
	[ "$quick" = 1 ] && n=4096
	"$bin/tnoise" -q -s ${n}x$n -S 3 > "$tmp/n.tp" ||
	    { echo "$me: cannot make the input"; exit 1; }
	echo "== fill: tfill -j 2 (A) beside tfill -j 1 (B), ${n}^2 tnoise -S 3; goal B/A >= 1.6, A's memory <= 1.3x B's"
	load
	pair "tfill -j 1 / -j 2 (speed-up)" "'$bin/tfill' -q -j 2 < '$tmp/n.tp'" \
	    "'$bin/tfill' -q -j 1 < '$tmp/n.tp'" 1
	if [ -n "$rd" ]; then
		echo "== fill: tfill --flat -j 1 (A) beside RichDEM PriorityFlood_Zhou2016 (B); goal A/B <= 0.4"
		raw "$tmp/n.tp" "$tmp/n.f32"
		load
		pair "${n}^2 --flat" "'$bin/tfill' -q --flat -j 1 < '$tmp/n.tp'" \
		    "'$rd' zhou $n $n '$tmp/n.f32' /dev/null"
	fi
	rm -f "$tmp/n.tp" "$tmp/n.f32"
fi

if want geotiff; then
	n=4096
	"$bin/tnoise" -q -s ${n}x$n -S 7 --octaves 6 > "$tmp/g.tp" ||
	    { echo "$me: cannot make the input"; exit 1; }
	off=$("$PY" -c 'import sys; d=open(sys.argv[1],"rb").read(1<<16); print(d.index(b"\nENDHDR\n")+8)' "$tmp/g.tp")
	printf 'ENVI\nsamples = %d\nlines = %d\nbands = 1\nheader offset = %d\ndata type = 4\ninterleave = bsq\nbyte order = 0\n' \
	    $n $n "$off" > "$tmp/g.hdr"
	co="-co TILED=YES -co BLOCKXSIZE=256 -co BLOCKYSIZE=256 -co COMPRESS=DEFLATE -co PREDICTOR=3"
	echo "== geotiff: tgeotiff (A) beside gdal_translate $co (B), ${n}^2; goal A/B <= 0.6"
	for j in 1 2; do
		load
		pair "-j $j, NUM_THREADS=$j" \
		    "'$bin/tgeotiff' -q -j $j '$tmp/a.tif' < '$tmp/g.tp'" \
		    "gdal_translate -q $co -co NUM_THREADS=$j '$tmp/g.tp' '$tmp/b.tif'"
		echo "    sizes: tgeotiff $(stat -c %s "$tmp/a.tif") bytes, gdal_translate $(stat -c %s "$tmp/b.tif") bytes"
	done
	rm -f "$tmp"/g.* "$tmp"/a.tif "$tmp"/b.tif
fi

if want stream; then
	n=16384
	[ "$quick" = 1 ] && n=8192
	"$bin/tnoise" -q -s ${n}x$n -S 5 > "$tmp/s.tp" &&
	    "$bin/tnoise" -q --band moisture -S 6 < "$tmp/s.tp" > "$tmp/s2.tp" ||
	    { echo "$me: cannot make the input"; exit 1; }
	wide="$PY -c 'import fcntl, os, sys
fcntl.fcntl(1, 1031, 1 << 20); os.execvp(\"cat\", [\"cat\", sys.argv[1]])'"
	echo "== stream: STAGE -j 1 (A) beside cat (B), each after a cat into a 1 MiB pipe; goal A/B <= 2"
	load
	pair "tridge -j 1, $(($(stat -c %s "$tmp/s.tp") >> 20)) MiB" \
	    "$wide '$tmp/s.tp' | '$bin/tridge' -q -j 1" "$wide '$tmp/s.tp' | cat"
	load
	pair "tbiome -j 1, $(($(stat -c %s "$tmp/s2.tp") >> 20)) MiB" \
	    "$wide '$tmp/s2.tp' | '$bin/tbiome' -q -j 1" "$wide '$tmp/s2.tp' | cat"
fi
