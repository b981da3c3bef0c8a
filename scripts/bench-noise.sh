#!/bin/bash
# bench-noise: tnoise throughput in Msamples/s at 4096x4096 for each kind,
# 1 and 8 octaves, on 1 thread and on all threads, written to /dev/null.
# Each figure is run twice; both runs and their median (the mean of two)
# are printed, with the rate per CPU-second beside it (what the code does
# when other processes compete for the cores). Figures only: nothing here
# passes or fails on time.
# usage: scripts/bench-noise.sh BINDIR
set -u
bin=${1:-bin}
tnoise=$bin/tnoise
[ -x "$tnoise" ] || { echo "bench-noise: no $tnoise"; exit 1; }
W=4096 H=4096
all=$(nproc)
cells=$((W * H))
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# secs CMD...: "wall cpu" seconds of one run.
secs() {
	local a b
	a=$(date +%s.%N)
	if command -v /usr/bin/time > /dev/null; then
		/usr/bin/time -o "$tmp" -f '%U %S' "$@" > /dev/null || return 1
	else
		"$@" > /dev/null || return 1
		echo "0 0" > "$tmp"
	fi
	b=$(date +%s.%N)
	awk -v a="$a" -v b="$b" '{ printf "%.4f %.4f", b - a, $1 + $2 }' "$tmp"
}

# rate LABEL ARGS...: two runs; Msamples/s of each, their median, and the
# median rate per CPU-second.
rate() {
	local label=$1 t1 t2
	shift
	t1=$(secs "$tnoise" -q -s ${W}x$H "$@") || return 1
	t2=$(secs "$tnoise" -q -s ${W}x$H "$@") || return 1
	echo "$t1 $t2" | awk -v l="$label" -v n=$cells '{
		ra = n / $1 / 1e6; rb = n / $3 / 1e6; c = $2 + $4
		pc = c > 0 ? 2 * n / c / 1e6 : 0
		printf "%-40s %7.1f Msamples/s  (runs %.1f, %.1f; %.1f per CPU-s)\n",
		    l, (ra + rb) / 2, ra, rb, pc }'
}

echo "tnoise ${W}x$H to /dev/null, Msamples/s (median of 2 runs); $all threads = all"
echo "(wall clock; load now: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null))"
for k in value gradient simplex; do
	for o in 1 8; do
		rate "$k, $o octave(s), 1 thread" -k $k -O $o -j 1
		rate "$k, $o octave(s), $all threads" -k $k -O $o -j "$all"
	done
done
rate "gradient, 8 octaves, warp 0.5, 1 thread" -O 8 -w 0.5 -j 1
rate "gradient, 8 octaves, warp 0.5, $all threads" -O 8 -w 0.5 -j "$all"

g1=$(rate x -k gradient -O 8 -j 1 | awk '{ print $2 }')
g2=$(rate x -k gradient -O 8 -j "$all" | awk '{ print $2 }')
echo
echo "8-octave gradient fBm: $g1 Msamples/s on 1 thread, $g2 on $all threads"
awk -v a="$g1" -v b="$g2" 'BEGIN {
	printf "  target (issue 3):   50 on 1 thread, 95 on 2   -> %.2fx, %.2fx\n", a / 50, b / 95
	printf "  FastNoiseLite here: 13 on 1 thread, 25 on 2   -> %.1fx, %.1fx\n", a / 13, b / 25 }'
