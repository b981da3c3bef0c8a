#!/bin/bash
# bench-feature: tfeature at 4096x4096 cells of 30 m (a 123 km square in
# UTM) written to /dev/null, on 2 threads:
#   - 100 features against 10,000 (hills, ridges, cliffs, plateaus in equal
#     shares, tens of metres to a few kilometres across): the time ratio,
#     which the index keeps near the ratio of the work per cell rather than
#     of the feature count (target: within 3x);
#   - 1,000 hills (sigma 200 to 1200 m) in Mcells/s (target: >= 50).
# The files are drawn by awk from fixed seeds; beside each figure is the
# mean number of items whose bounds reach a cell (the work the index
# cannot avoid). Each figure is run twice; both runs and their mean are
# printed. Figures only: nothing here passes or fails on time.
# usage: scripts/bench-feature.sh BINDIR
set -u
bin=${1:-bin}
tf=$bin/tfeature
[ -x "$tf" ] || { echo "bench-feature: no $tf"; exit 1; }
W=4096 CS=30 X0=500000 Y0=4650000
cells=$((W * W))
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# gen N SEED HILLSONLY SIZE: N items over the grid; SIZE scales every length.
gen() {
	awk -v n="$1" -v seed="$2" -v hills="$3" -v z="$4" -v x0=$X0 \
	    -v y0=$((Y0 - W * CS)) -v s=$((W * CS)) 'BEGIN { srand(seed)
	print "base 100"
	for (i = 0; i < n; i++) {
		k = hills ? 0 : int(rand() * 4); x = x0 + rand() * s; y = y0 + rand() * s
		a = rand() * 6.2832
		if (k == 0)
			printf "hill %.1f %.1f %.1f %.1f\n", x, y, rand() * 400 - 100,
			    z * (200 + rand() * 1000)
		else if (k == 1) {
			l = z * (1000 + rand() * 4000)
			printf "ridge %.1f %.1f %.1f %.1f %.1f %.1f\n", x, y,
			    x + l * cos(a), y + l * sin(a), 50 + rand() * 150,
			    z * (80 + rand() * 300)
		} else if (k == 2) {
			l = z * (500 + rand() * 3000)
			printf "cliff %.1f %.1f %.1f %.1f %.1f %.1f %.1f\n", x, y,
			    x + l * cos(a), y + l * sin(a), 20 + rand() * 80,
			    z * (100 + rand() * 400), z * (10 + rand() * 60)
		} else
			printf "plateau %.1f %.1f %.1f %.1f %.1f\n", x, y,
			    z * (100 + rand() * 800), rand() * 120 - 60,
			    z * (20 + rand() * 200)
	} }'
}

# reach FILE: the mean count of items whose bounds hold a cell (the sum of
# their bounds' areas over the grid's; boxes as tfeature(1) has them).
reach() {
	awk -v area=$((W * CS * W * CS)) 'function abs(v) { return v < 0 ? -v : v }
	$1 == "hill" { r = 3.7169 * $5; a += 4 * r * r }
	$1 == "ridge" { r = 3 * $7; a += (abs($4 - $2) + 2 * r) * (abs($5 - $3) + 2 * r) }
	$1 == "cliff" { l = sqrt(($4 - $2) ^ 2 + ($5 - $3) ^ 2); u = abs($4 - $2) / l; v = abs($5 - $3) / l
		L = l + 2 * $8; D = $7 + 2 * $8; a += (L * u + D * v) * (L * v + D * u) }
	$1 == "plateau" { r = $4 + $6; a += 4 * r * r }
	END { printf "%.2f", a / area }' "$1"
}

# secs FILE: "wall cpu" seconds of one run.
secs() {
	local a b
	a=$(date +%s.%N)
	if command -v /usr/bin/time > /dev/null; then
		/usr/bin/time -o "$dir/time" -f '%U %S' "$tf" "$1" -q -s ${W}x$W \
		    -c $CS --origin $X0,$Y0 -j 2 > /dev/null || return 1
	else
		"$tf" "$1" -q -s ${W}x$W -c $CS --origin $X0,$Y0 -j 2 > /dev/null ||
		    return 1
		echo "0 0" > "$dir/time"
	fi
	b=$(date +%s.%N)
	awk -v a="$a" -v b="$b" '{ printf "%.4f %.4f", b - a, $1 + $2 }' "$dir/time"
}

# run LABEL FILE: two runs; prints the mean wall time, both runs, Mcells/s
# and Mcells per CPU-second (what 2 free cores would give is twice that,
# when other processes compete for them), and leaves the mean wall time in
# $mean and the mean CPU time in $cpu.
run() {
	local t1 t2
	t1=$(secs "$2") || return 1
	t2=$(secs "$2") || return 1
	mean=$(echo "$t1 $t2" | awk '{ printf "%.4f", ($1 + $3) / 2 }')
	cpu=$(echo "$t1 $t2" | awk '{ printf "%.4f", ($2 + $4) / 2 }')
	echo "$t1 $t2" | awk -v l="$1" -v n=$cells -v r="$(reach "$2")" '{
		m = ($1 + $3) / 2; c = ($2 + $4) / 2
		printf "%-16s %6.3f s (runs %.3f, %.3f) %6.1f Mcells/s, %6.1f per CPU-s; reach %s/cell\n",
		    l, m, $1, $3, n / m / 1e6, (c > 0 ? n / c / 1e6 : 0), r }'
}

gen 100 2 0 0.2 > "$dir/f100.txt"
gen 10000 1 0 0.2 > "$dir/f10000.txt"
gen 1000 3 1 1 > "$dir/h1000.txt"
echo "tfeature ${W}x$W cells of $CS m to /dev/null, 2 threads (mean of 2 runs)"
echo "(wall clock; load now: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null))"
run "100 features" "$dir/f100.txt"; m100=$mean c100=$cpu
run "10,000 features" "$dir/f10000.txt"; m10k=$mean c10k=$cpu
run "1,000 hills" "$dir/h1000.txt"; mh=$mean ch=$cpu
echo
awk -v a="$m100" -v b="$m10k" -v ca="$c100" -v cb="$c10k" -v h="$mh" -v ch="$ch" \
    -v n=$cells 'BEGIN {
	printf "10,000 features / 100 features: %.2fx wall, %.2fx CPU   (target: within 3x)\n",
	    b / a, (ca > 0 ? cb / ca : 0)
	printf "1,000 hills on 2 threads: %.1f Mcells/s wall, %.1f per CPU-s x 2 threads = %.1f\n",
	    n / h / 1e6, (ch > 0 ? n / ch / 1e6 : 0), (ch > 0 ? 2 * n / ch / 1e6 : 0)
	printf "  (target: >= 50 Mcells/s on 2 threads)\n" }'
