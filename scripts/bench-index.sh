#!/bin/bash
# bench-index.sh BIN_DIR - tindex's cost beside tflow's on the same filled
# grid: a 4096 x 4096 tnoise grid (30 m cells, UTM 33N) filled by tfill,
# then tflow -m d8, mfd and dinf, and tindex --bands twi, spi and hand
# (hand with --rivers 1000) by each method. Each command runs three times
# from a file in the page cache to /dev/null; prints the median wall and
# CPU (user + sys) seconds and each tindex run's wall time over tflow's
# with the same -m. tindex routes the water itself (directions and
# accumulation, as tflow does) before it computes its index, so 1.0 would
# be an index for free. Never asserts timing. BENCH_INDEX_SIZE=N makes an
# N x N grid instead; BENCH_INDEX_J=N passes -j N to both (default: all).
set -eu
BIN=$(cd "${1:-bin}" && pwd)
SIZE=${BENCH_INDEX_SIZE:-4096}
J=${BENCH_INDEX_J:-0}
D=$(mktemp -d "${TMPDIR:-/tmp}/bench-index.XXXXXX")
trap 'rm -rf "$D"' EXIT

"$BIN/tnoise" -q -s "${SIZE}x$SIZE" -c 30 -S 5 --crs EPSG:32633 \
    --origin 500000,5000000 | "$BIN/tfill" -q > "$D/f.tp"
cat "$D/f.tp" > /dev/null

# measure CMD...: "WALL CPU", the medians of three runs < f.tp > /dev/null
measure() {
	local i w c
	for i in 1 2 3; do
		/usr/bin/time -f '%e %U %S' -o "$D/t" "$@" < "$D/f.tp" > /dev/null
		read -r w u s < "$D/t"
		echo "$w $(echo "$u + $s" | bc)"
	done | sort -n | sed -n 2p
}

echo "tindex against tflow, ${SIZE}x$SIZE filled tnoise, -j $J, $(nproc) CPUs; load: $(uptime | sed 's/.*load average: //')"
printf '%-34s %8s %8s %8s\n' command wall_s cpu_s /tflow
for m in d8 mfd dinf; do
	read -r fw fc <<< "$(measure "$BIN/tflow" -q -j "$J" -m "$m")"
	printf '%-34s %8.2f %8.2f %8s\n' "tflow -m $m" "$fw" "$fc" 1.00
	for b in twi spi hand; do
		r=""
		[ "$b" = hand ] && r="-r 1000"
		read -r w c <<< "$(measure "$BIN/tindex" -q -j "$J" -m "$m" \
		    --bands "$b" $r)"
		printf '%-34s %8.2f %8.2f %8.2f\n' \
		    "tindex -m $m --bands $b${r:+ $r}" "$w" "$c" \
		    "$(echo "$w / $fw" | bc -l)"
	done
done
echo "load after: $(uptime | sed 's/.*load average: //')"
