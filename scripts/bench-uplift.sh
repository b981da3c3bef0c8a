#!/bin/bash
# bench-uplift.sh BINDIR - tuplift:
#  1. one implicit step on 4096x4096 against tfill + tflow on the same grid
#     (the step is tuplift -s 1 less tuplift -s 0, which only reads and
#     writes; tfill and tflow whole, as a user runs them), the default
#     (mfd) routing beside --flow d8;
#  2. a 1024x1024 landscape of 100 m cells, D8 run to steady state and the
#     default mfd to the balance of erosion and uplift (--until-balanced
#     1e-4): wall time, steps, and the slope-area concavity, steepness,
#     Hack's exponent and A8 that scripts/landscape-stats.py measures
#     (expected: m/n = 0.45, (U/K)^(1/n) = 100 for D8, 0.5 to 0.6, A8
#     0.02 or less), and the same at 512x512;
#  3. the drainage network of the same 512x512 noise, as it is, after
#     terode's droplets and after tuplift (defaults; and at steady state or
#     balance), mfd and d8, each filled by tfill: drainage density, the
#     highest Strahler order and the segments of order 4 and more,
#     concavity, Hack's exponent and A8, the eight-fold anisotropy of
#     aspects (D8 facets; 0.02 or less wanted).
# Prints figures and ratios; asserts nothing about time.
set -u
B=${1:-bin}
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
PY=/usr/bin/python3
STATS=$(cd "$(dirname "$0")" && pwd)/landscape-stats.py
T=$(mktemp -d "${TMPDIR:-/tmp}/bench-uplift.XXXXXX")
trap 'rm -rf "$T"' EXIT

# best CMD...: the best wall and user seconds of two runs, "WALL USER".
best() {
	for i in 1 2; do
		/usr/bin/time -f "%e %U" -o "$T/time" "$@" || { echo "failed: $*" >&2; exit 1; }
		cat "$T/time"
	done | sort -n | head -n 1
}

echo "tuplift: one step on 4096x4096 (default threads), best of two runs"
"$B/tnoise" -q -s 4096x4096 > "$T/big.tp" || exit 1
"$B/tfill" -q < "$T/big.tp" > "$T/bigf.tp" || exit 1
set -- $(best sh -c "'$B/tfill' -q < '$T/big.tp' > /dev/null") \
    $(best sh -c "'$B/tflow' -q < '$T/bigf.tp' > /dev/null") \
    $(best sh -c "'$B/tuplift' -q -s 0 < '$T/big.tp' > /dev/null") \
    $(best sh -c "'$B/tuplift' -q -s 1 --flow d8 < '$T/big.tp' > /dev/null") \
    $(best sh -c "'$B/tuplift' -q -s 1 < '$T/big.tp' > /dev/null")
awk -v fw="$1" -v fu="$2" -v lw="$3" -v lu="$4" -v zw="$5" -v zu="$6" \
    -v sw="$7" -v su="$8" -v mw="$9" -v mu="${10}" 'BEGIN {
	printf "  tfill %.2f s (cpu %.2f), tflow %.2f s (cpu %.2f): %.2f s\n", fw, fu, lw, lu, fw + lw
	printf "  tuplift -s 0 (read, write) %.2f s, -s 1 --flow d8 %.2f s: the step %.2f s (cpu %.2f)\n", zw, sw, sw - zw, su - zu
	printf "  d8 step / (tfill + tflow) = %.2fx wall, %.2fx cpu\n", (sw - zw) / (fw + lw), (su - zu) / (fu + lu)
	printf "  the default (mfd): the step %.2f s (cpu %.2f), %.2fx the D8 step (target: within 2x)\n", mw - zw, mu - zu, (mw - zw) / (sw - zw)
}'
rm -f "$T/big.tp" "$T/bigf.tp"

# steady N: D8 to steady state and mfd to balance on NxN of 100 m cells.
steady() {
	"$B/tnoise" -q -s "$1x$1" -c 100 > "$T/n$1.tp" || exit 1
	echo "tuplift: $1x$1 of 100 m cells (-z 100 -k 1e-5 -d 0 --dt 1e7)"
	for r in "d8 --until-steady 0.01:--flow d8 --until-steady 0.01" \
	    "mfd --until-balanced 1e-4:--until-balanced 1e-4"; do
		label=${r%%:*}
		/usr/bin/time -f "%e %U" -o "$T/time" "$B/tuplift" -z 100 -k 1e-5 \
		    -d 0 --dt 1e7 ${r#*:} --stats < "$T/n$1.tp" > "$T/s.tp" \
		    2> "$T/steps" || exit 1
		echo "  $label: $(tail -n 1 "$T/steps"), $(cut -d' ' -f1 "$T/time") s (cpu $(cut -d' ' -f2 "$T/time") s)"
		"$PY" "$STATS" --zscale 100 --threshold 50 "$T/s.tp" | awk '
		    { v[$1] = $2 }
		    END { printf "    concavity %s (0.45), steepness %s (U/K = 100: %+.1f%%), Hack %s (0.5 to 0.6), A8 %s (0.02 or less)\n",
			v["concavity"], v["steepness"], 100 * (v["steepness"] / 100 - 1),
			v["hack_exponent"], v["a8"] }'
	done
	rm -f "$T/n$1.tp" "$T/s.tp"
}
steady 1024
steady 512

echo "drainage of one 512x512 noise (1 m cells), each filled by tfill; channels drain 50 cells or more"
"$B/tnoise" -q -s 512x512 -S 1 > "$T/n.tp" || exit 1
"$B/terode" -q < "$T/n.tp" > "$T/e.tp" || exit 1
"$B/tuplift" -q --flow d8 < "$T/n.tp" > "$T/u.tp" || exit 1
"$B/tuplift" -q --flow d8 -d 0 --dt 1e5 -s 400 --until-steady 0.01 < "$T/n.tp" > "$T/us.tp" || exit 1
"$B/tuplift" -q < "$T/n.tp" > "$T/m.tp" || exit 1
"$B/tuplift" -q -d 0 --dt 1e5 -s 400 --until-balanced 1e-4 < "$T/n.tp" > "$T/ms.tp" || exit 1
printf "  %-34s %8s %6s %6s %7s %6s %6s\n" "" density maxord "ord4+" concav Hack A8
for c in "noise:n" "terode (1 droplet a cell):e" "tuplift d8 (100 steps):u" \
    "tuplift d8 (-d 0 --dt 1e5, steady):us" "tuplift (mfd, 100 steps):m" \
    "tuplift (mfd, -d 0 --dt 1e5, balanced):ms"; do
	label=${c%:*} f=${c##*:}
	"$B/tfill" -q < "$T/$f.tp" > "$T/$f.f.tp" || exit 1
	"$PY" "$STATS" --threshold 50 "$T/$f.f.tp" | awk -v l="$label" '
	    { v[$1] = $2 }
	    END { printf "  %-34s %8.4f %6d %6d %7.3f %6.3f %6.3f\n", l, v["drainage_density"],
		v["max_strahler"], v["strahler4_segments"], v["concavity"], v["hack_exponent"],
		v["a8"] }'
done
echo "  (density: channel length per unit area, 1/m; ord4+: Strahler segments of order 4 and more;"
echo "  A8: |mean exp(8i aspect)| over cells steeper than a quarter of the median slope)"
