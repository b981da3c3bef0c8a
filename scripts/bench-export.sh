#!/bin/bash
# bench-export.sh BIN_DIR - texport on a 1 GiB stream (16384 x 16384, one
# band, in the page cache) against cat of the same file to /dev/null: raw
# and PGM heightmaps with --zrange (one pass, O(width) memory), r16 without
# it (a first pass for the range, then back to the start), r16 for Unity
# (rows written south first at their own offsets), and from a pipe (the
# band held). Each is run twice; prints both wall times, their median (of
# two: the mean), three ratios: to cat, to writing the heightmap's
# bytes into a file with head -c (what the file system costs: writing a
# file is often slower than reading one from the page cache), and to cat
# copying the whole stream into a file (cat IN > FILE: reading and
# writing as texport -f r32 does, with no work between), and the
# program's CPU seconds (user + system) against cat's, the figure that
# other work on the machine disturbs least. The files go to a scratch
# directory beside the stream and are removed after each run. Never
# asserts timing.
# BENCH_EXPORT_SIZE=N makes an N x N stream instead; BENCH_EXPORT_SLOW=1
# adds the PNG and normal map, which spend their time in zlib.
set -eu
BIN=$(cd "${1:-bin}" && pwd)
PY=/usr/bin/python3
SIZE=${BENCH_EXPORT_SIZE:-16384}
D=$(mktemp -d "${TMPDIR:-/tmp}/bench-export.XXXXXX")
F=$D/in.tp
TF=$D/time
trap 'rm -rf "$D"' EXIT

"$PY" - "$F" "$SIZE" <<'PY'
import sys, numpy as np
path, n = sys.argv[1], int(sys.argv[2])
with open(path, "wb") as f:
    f.write(b"TERRAPIPE 1\nWIDTH %d\nHEIGHT %d\nBANDS height\nCELLSIZE 30\n"
            b"UNITS m\nENDHDR\n" % (n, n))
    rows = max(1, (64 << 20) // (4 * n))
    x = np.arange(n) / n
    for y in range(0, n, rows):
        k = min(rows, n - y)
        yy = (np.arange(y, y + k) / n)[:, None]
        v = 1800 * (0.5 + 0.25 * np.sin(9 * x) * np.cos(7 * yy) + 0.2 * x * yy)
        f.write(v.astype("<f4").tobytes())
PY
bytes=$(stat -c %s "$F")
cat "$F" > /dev/null		# into the page cache, so every run reads memory

# measure CMD...: "WALL CPU" seconds of CMD < $F (PIPE=1: cat $F | CMD;
# CPU: CMD's own user + system time).
PIPE=0
measure() {
	local t0 t1
	t0=$(date +%s.%N)
	if [ "$PIPE" = 1 ]; then
		cat "$F" | /usr/bin/time -f "%U %S" -o "$TF" "$@" > /dev/null
	else
		/usr/bin/time -f "%U %S" -o "$TF" "$@" < "$F" > /dev/null
	fi
	t1=$(date +%s.%N)
	rm -f "$D"/out*
	awk -v a="$t0" -v b="$t1" '{ printf "%.3f %.2f\n", b - a, $1 + $2 }' "$TF"
}
base= wbase= cbase= copy=
run() {
	local name=$1 a b m
	shift
	a=$(measure "$@")
	b=$(measure "$@")
	m=$(awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " ")
	    printf "%.3f %.3f", (x[1] + y[1]) / 2, (x[2] + y[2]) / 2 }')
	if [ -z "$base" ]; then base=${m% *} cbase=${m#* }
	elif [ -z "$wbase" ]; then wbase=${m% *}
	elif [ -z "$copy" ]; then copy=${m% *}; fi
	awk -v n="$name" -v a="$a" -v b="$b" -v m="$m" -v c="$base" \
	    -v cc="$cbase" -v w="${wbase:-${m% *}}" -v by="$bytes" \
	    -v cp="$copy" 'BEGIN {
	    split(a, x, " "); split(b, y, " "); split(m, z, " ")
	    printf "%-34s %6.3f s %6.3f s  median %6.3f s %5.2f x cat %5.2f x write" \
	    " %s  cpu %5.2f s %s\n", n, x[1], y[1], z[1], z[1] / c, z[1] / w,
	    (cp > 0 ? sprintf("%5.2f x copy", z[1] / cp) : "    - x copy"), z[2],
	    (cc > 0 ? sprintf("%5.1f x cat", z[2] / cc) : "(cat ~0)") }'
}
printf 'bench-export: %dx%d float32, %d bytes (%.2f GiB), page cache warm, %s cores\n' \
    "$SIZE" "$SIZE" "$bytes" "$(awk -v b="$bytes" 'BEGIN { print b / 2^30 }')" "$(nproc)"
run "cat > /dev/null" cat
run "head -c 2WH > file (write)" sh -c "head -c $((SIZE * SIZE * 2)) > $D/out.raw"
run "cat IN > FILE (copy)" sh -c "cat > $D/out.copy"
run "texport -f r16 --zrange 0,1800" "$BIN/texport" -q -f r16 --zrange 0,1800 "$D/out.r16"
run "texport -f pgm --zrange 0,1800" "$BIN/texport" -q -f pgm --zrange 0,1800 "$D/out.pgm"
run "texport -f r32 --zrange 0,1800" "$BIN/texport" -q -f r32 --zrange 0,1800 "$D/out.r32"
run "texport -f r16 (two passes)" "$BIN/texport" -q -f r16 "$D/out.r16"
if [ "$SIZE" -le 4097 ]; then
	run "texport -f r16 -e unity --pad --zrange" "$BIN/texport" -q -f r16 -e unity \
	    --pad --zrange 0,1800 "$D/out.r16"
else
	run "texport -f r16 -e unity --crop --zrange" "$BIN/texport" -q -f r16 -e unity \
	    --crop --zrange 0,1800 "$D/out.r16"
fi
PIPE=1 run "cat | texport -f r16 (held)" "$BIN/texport" -q -f r16 "$D/out.r16"
if [ "${BENCH_EXPORT_SLOW:-0}" = 1 ]; then
	run "texport -f png16 --zrange 0,1800" "$BIN/texport" -q -f png16 --zrange 0,1800 "$D/out.png"
	run "texport -f normal" "$BIN/texport" -q -f normal "$D/out.png"
fi
