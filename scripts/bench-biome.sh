#!/bin/bash
# bench-biome: tbiome on a 1 GiB stream of two bands (height and moisture,
# 16384 x 8192 float32 each): smooth hills in [0,1] over 30 m cells with a
# sea at 0.3 and --zscale 3000, so every override and zone is reached and
# the slope is computed for every land cell. Runs as `cat in | tbiome >
# /dev/null` beside `cat in | cat > /dev/null` on the same bytes: wall
# seconds (median of 3) and the ratio to cat, CPU seconds of the pipeline,
# and tbiome's peak memory (maximum resident set size), also on a quarter
# of the rows: memory follows the width, not the size. Figures only:
# nothing here passes or fails on time.
# usage: scripts/bench-biome.sh BINDIR
set -u
bin=${1:-bin}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
PY=/usr/bin/python3
W=16384 H=8192
[ -x "$bin/tbiome" ] || { echo "bench-biome: no $bin/tbiome"; exit 1; }
[ -x /usr/bin/time ] || { echo "bench-biome: needs /usr/bin/time (package time)"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-bench-biome.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
in=$tmp/in.tp

# make ROWS PATH: a ROWS-row stream of the hills and random moisture.
make_in() {
	"$PY" - "$2" $W "$1" <<'PYEOF' || { echo "bench-biome: cannot make the input"; exit 1; }
import sys, numpy as np
path, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
r = np.random.default_rng(1)
x = np.arange(w, dtype=np.float32)
with open(path, "wb") as f:
    f.write(b"TERRAPIPE 1\nWIDTH %d\nHEIGHT %d\nBANDS height moisture\n"
            b"CELLSIZE 30\nSEALEVEL 0.3\nENDHDR\n" % (w, h))
    for y0 in range(0, h, 512):
        y = np.arange(y0, y0 + 512, dtype=np.float32)[:, None]
        hh = 0.45 + 0.3 * np.sin(x / 310) * np.cos(y / 270) + 0.1 * np.sin(x / 23 + y / 37)
        m = r.random((512, w), dtype=np.float32)
        f.write(np.stack([hh.astype(np.float32), m], axis=1).tobytes())
PYEOF
}
make_in $H "$in"
make_in $((H / 4)) "$tmp/quarter.tp"
cat "$in" "$tmp/quarter.tp" > /dev/null	# into the page cache
# the default table less rock and marsh: no slope to compute
"$bin/tbiome" --print-table | grep -Ev ' (rock|marsh)$' > "$tmp/zones.txt"

# run IN CMD: "wall cpu maxrss_kib" of one `cat IN | CMD > /dev/null`.
run() {
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" \
	    sh -c 'cat "$1" | '"$2"' > /dev/null' _ "$1" || return 1
	awk '{ printf "%s %.2f %s", $1, $2 + $3, $4 }' "$tmp/t"
}

# thrice LABEL IN CMD: three runs; the median wall and CPU, the ratio to
# cat, the largest peak RSS.
thrice() {
	local label=$1 a b c
	a=$(run "$2" "$3") && b=$(run "$2" "$3") && c=$(run "$2" "$3") ||
	    { echo "$label: failed"; return 1; }
	printf '%s\n%s\n%s\n' "$a" "$b" "$c" | sort -n | awk -v l="$label" \
	    -v cw="${cat_w:-0}" '{ w[NR] = $1; c[NR] = $2; if ($3 > k) k = $3 }
	    END {
		r = cw > 0 ? sprintf("%5.2fx", w[2] / cw) : "(cat) "
		printf "%-34s %6.2f s (%5.2f %5.2f %5.2f) cpu %6.2f s  %s  %6.1f MiB\n",
		    l, w[2], w[1], w[2], w[3], c[2], r, k / 1024
		print w[2] > "/dev/stderr" }' 2> "$tmp/m"
}

echo "1 GiB (${W}x$H x 2 bands float32), cat file | STAGE > /dev/null, $(nproc) processors"
printf '%-34s %-28s %-12s %-7s %s\n' "" "wall median (sorted runs)" "cpu" "wall" "peak RSS"
cat_w=
thrice "cat" "$in" cat
read -r cat_w < "$tmp/m"
thrice "tbiome --zscale 3000" "$in" "'$bin/tbiome' -q --zscale 3000"
thrice "tbiome --zscale 3000 -j 1" "$in" "'$bin/tbiome' -q --zscale 3000 -j 1"
thrice "tbiome, a table without rock, marsh" "$in" "'$bin/tbiome' -q -t '$tmp/zones.txt'"
cat_w=
thrice "cat, a quarter of the rows" "$tmp/quarter.tp" cat
read -r cat_w < "$tmp/m"
thrice "tbiome, a quarter of the rows" "$tmp/quarter.tp" "'$bin/tbiome' -q --zscale 3000"
echo "target: wall at most 1.5x cat; peak RSS the same for a quarter of the rows"
