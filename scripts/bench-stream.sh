#!/bin/bash
# bench-stream.sh BIN_DIR - the stream layer's cost: a 1 GiB stream
# (16384 x 16384, one band) through cat, tband (keeping every band), a
# full-window tcrop and tinfo; to /dev/null, then through a pipe. Each is
# run twice; prints both wall times, their median (of two: the mean), the
# CPU seconds (user + sys, median) and the ratios to cat. A stage that
# only copies should stay within 1.3 x cat. Rows move in batches of
# TP_BATCH_BYTES (lib/stream/tp_stream.h). Never asserts timing.
# BENCH_STREAM_SIZE=N makes an N x N stream instead.
set -eu
BIN=$(cd "${1:-bin}" && pwd)
PY=/usr/bin/python3
SIZE=${BENCH_STREAM_SIZE:-16384}
F=$(mktemp "${TMPDIR:-/tmp}/bench-stream.XXXXXX")
TF=$(mktemp "${TMPDIR:-/tmp}/bench-time.XXXXXX")
trap 'rm -f "$F" "$TF"' EXIT

"$PY" - "$F" "$SIZE" <<'PY'
import sys, numpy as np
path, n = sys.argv[1], int(sys.argv[2])
with open(path, "wb") as f:
    f.write(b"TERRAPIPE 1\nWIDTH %d\nHEIGHT %d\nBANDS height\nENDHDR\n" % (n, n))
    rows = max(1, (64 << 20) // (4 * n))
    for y in range(0, n, rows):
        k = min(rows, n - y)
        v = np.arange(y * n, (y + k) * n, dtype=np.float64) / (n * n)
        f.write(v.astype("<f4").tobytes())
PY
bytes=$(stat -c %s "$F")
cat "$F" > /dev/null		# into the page cache, so every run reads memory

# measure CMD...: "WALL CPU" seconds of CMD < $F > /dev/null, or with
# PIPE=1 of CMD < $F | cat > /dev/null (CPU: CMD's own)
PIPE=0
measure() {
	local t0 t1
	t0=$(date +%s.%N)
	if [ "$PIPE" = 1 ]; then
		/usr/bin/time -f "%U %S" -o "$TF" "$@" < "$F" | cat > /dev/null
	else
		/usr/bin/time -f "%U %S" -o "$TF" "$@" < "$F" > /dev/null
	fi
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" '{ printf "%.3f %.2f\n", b - a, $1 + $2 }' "$TF"
}
base= cbase=
run() {
	local name=$1 a b
	shift
	a=$(measure "$@")
	b=$(measure "$@")
	read -r line < <(awk -v n="$name" -v a="$a" -v b="$b" -v by="$bytes" \
	    -v c="$base" -v cc="$cbase" 'BEGIN {
		split(a, x, " "); split(b, y, " ")
		m = (x[1] + y[1]) / 2; cpu = (x[2] + y[2]) / 2
		if (c == "") { c = m; cc = cpu }
		printf "%-26s %6.3f s %6.3f s  median %6.3f s %6.0f MiB/s %5.2f x cat" \
		    "  cpu %5.2f s %s|%s %s\n", n, x[1], y[1], m, by / 1048576 / m,
		    m / c, cpu, (cc > 0 ? sprintf("%5.2f x cat", cpu / cc) : "  (cat ~0)"),
		    c, cc }')
	printf '%s\n' "${line%%|*}"
	if [ -z "$base" ]; then
		base=${line##*|}; cbase=${base#* }; base=${base% *}
	fi
}
printf 'bench-stream: %dx%d float32, %d bytes (%.2f GiB), page cache warm, %s cores\n' \
    "$SIZE" "$SIZE" "$bytes" "$(awk -v b="$bytes" 'BEGIN { print b / 2^30 }')" "$(nproc)"
echo "to /dev/null:"
run "cat" cat
run "tband --keep height" "$BIN/tband" --keep height
run "tband (no option)" "$BIN/tband"
run "tcrop --window 0,0,W,H" "$BIN/tcrop" --window "0,0,$SIZE,$SIZE"
run "tinfo --quiet" "$BIN/tinfo" --quiet
echo "through a pipe (| cat > /dev/null):"
PIPE=1 base= cbase=
run "cat" cat
run "tband --keep height" "$BIN/tband" --keep height
run "tcrop --window 0,0,W,H" "$BIN/tcrop" --window "0,0,$SIZE,$SIZE"
