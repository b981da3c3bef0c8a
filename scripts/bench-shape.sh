#!/bin/bash
# bench-shape: the shaping stages (tshape, tterrace, tisland, tridge) on a
# 1 GiB stream (16384 x 16384 float32, uniform random heights in [0,1]:
# every block reaches tridge's mask, its worst case). Each stage runs as
# `cat in | STAGE > /dev/null` and is compared with `cat in | cat >
# /dev/null` on the same bytes: wall-clock seconds and CPU seconds (user +
# system of the whole pipeline) as ratios to cat, and the stage's peak
# memory (maximum resident set size). Each figure is run twice; both runs
# and their median (the mean of two) are printed. Figures only: nothing
# here passes or fails on time.
# usage: scripts/bench-shape.sh BINDIR
set -u
bin=${1:-bin}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
PY=/usr/bin/python3
N=16384
for p in tshape tterrace tisland tridge; do
	[ -x "$bin/$p" ] || { echo "bench-shape: no $bin/$p"; exit 1; }
done
[ -x /usr/bin/time ] || { echo "bench-shape: needs /usr/bin/time (package time)"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-bench-shape.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
in=$tmp/in.tp

"$PY" - "$in" $N <<'PYEOF' || { echo "bench-shape: cannot make the input"; exit 1; }
import sys, numpy as np
path, n = sys.argv[1], int(sys.argv[2])
r = np.random.default_rng(1)
with open(path, "wb") as f:
    f.write(b"TERRAPIPE 1\nWIDTH %d\nHEIGHT %d\nBANDS height\nENDHDR\n" % (n, n))
    for _ in range(0, n, 1024):
        f.write(r.random((1024, n), dtype=np.float32).tobytes())
PYEOF
cat "$in" > /dev/null	# into the page cache

# run CMD: "wall cpu maxrss_kib" of one `cat in | CMD > /dev/null`.
run() {
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" \
	    sh -c 'cat "$1" | '"$1"' > /dev/null' _ "$in" || return 1
	awk '{ printf "%s %.2f %s", $1, $2 + $3, $4 }' "$tmp/t"
}

# twice LABEL CMD: two runs; prints the medians and ratios to cat.
twice() {
	local label=$1 a b
	a=$(run "$2") && b=$(run "$2") || { echo "$label: failed"; return 1; }
	awk -v l="$label" -v a="$a" -v b="$b" -v cw="${cat_w:-0}" \
	    -v cc="${cat_c:-0}" 'BEGIN {
		split(a, x, " "); split(b, y, " ")
		w = (x[1] + y[1]) / 2; c = (x[2] + y[2]) / 2
		k = x[3] > y[3] ? x[3] : y[3]
		if (cw > 0)
			r = sprintf("%5.2fx %5.2fx", w / cw, c / cc)
		else
			r = "   (cat)     "
		printf "%-30s %6.2f s (%5.2f %5.2f) cpu %6.2f s  %s  %5.1f MiB\n",
		    l, w, x[1], y[1], c, r, k / 1024
		printf "%s %s\n", w, c > "/dev/stderr" }' 2> "$tmp/m"
}

echo "1 GiB (${N}x$N float32), cat file | STAGE > /dev/null, $(nproc) processors"
printf '%-30s %-22s %-14s %-13s %s\n' "" "wall (runs)" "cpu" "wall   cpu" "peak RSS"
cat_w= cat_c=
twice "cat" cat
read -r cat_w cat_c < "$tmp/m"
twice "tshape --curve valleys" "'$bin/tshape' -q --curve valleys"
twice "tshape --pow 2.5" "'$bin/tshape' -q --pow 2.5"
twice "tterrace --steps 8" "'$bin/tterrace' -q --steps 8"
twice "tisland" "'$bin/tisland' -q"
twice "tisland --warp 0.2" "'$bin/tisland' -q --warp 0.2"
twice "tridge -O 3 (2 octaves)" "'$bin/tridge' -q -O 3"
twice "tridge (6 octaves, 5 summed)" "'$bin/tridge' -q"
echo "targets (issue 4): wall at most 1.5x cat, peak RSS under 32 MiB"
