#!/bin/bash
# bench-slope.sh BIN_DIR - tslope's cost: a 1 GiB stream (16384 x 16384,
# one band of rough fBm heights, 30 m cells) through cat, tslope (slope and
# aspect), tslope --hillshade --curvature and gdaldem slope on the same
# cells (a VRT over the stream's samples, written as a GeoTIFF beside it).
# Each is run three times; prints the wall times, their median, the CPU
# seconds (user + sys, median) and the ratios to cat, all
# through a pipe (| cat > /dev/null) but gdaldem, which writes a file.
# tslope writes three times the bytes it reads (five with the options), so
# cat of three times the input is the floor it is compared with as well.
# tslope --only slope and --only aspect write one band, as gdaldem does:
# 1 GiB in and 1 GiB out, as cat; a ratio line compares each with cat,
# both through a default (64 KiB) pipe and through a 1 MiB one, the size
# every terrapipe stage widens its pipes to (cat leaves them alone); the
# 1 MiB cat and the two run in turn, five rounds.
# Never asserts timing. BENCH_SLOPE_SIZE=N makes an N x N stream instead.
set -eu
BIN=$(cd "${1:-bin}" && pwd)
SIZE=${BENCH_SLOPE_SIZE:-16384}
D=$(mktemp -d "${TMPDIR:-/tmp}/bench-slope.XXXXXX")
trap 'rm -rf "$D"' EXIT
F=$D/in.tp TF=$D/time

"$BIN/tnoise" -q -s "${SIZE}x$SIZE" -c 30 -S 5 --crs EPSG:32633 \
    --origin 500000,5000000 > "$F"
bytes=$(stat -c %s "$F")
hdr=$(( $(sed -n '/^ENDHDR$/{=;q}' "$F") ))
off=$(head -n "$hdr" "$F" | wc -c)
# The samples as a raster GDAL reads in place: 30 m cells, UTM 33N.
cat > "$D/in.vrt" <<VRT
<VRTDataset rasterXSize="$SIZE" rasterYSize="$SIZE">
  <SRS>EPSG:32633</SRS>
  <GeoTransform>500000, 30, 0, 5000000, 0, -30</GeoTransform>
  <VRTRasterBand dataType="Float32" band="1" subClass="VRTRawRasterBand">
    <SourceFilename relativeToVRT="1">in.tp</SourceFilename>
    <ImageOffset>$off</ImageOffset>
    <PixelOffset>4</PixelOffset>
    <LineOffset>$((4 * SIZE))</LineOffset>
    <ByteOrder>LSB</ByteOrder>
  </VRTRasterBand>
</VRTDataset>
VRT
cat "$F" > /dev/null		# into the page cache, so every run reads memory

# measure CMD...: "WALL CPU" seconds of CMD < $F | cat > /dev/null, or of
# CMD alone with FILE=1 (CPU: CMD's own)
FILE=0
measure() {
	local t0 t1
	t0=$(date +%s.%N)
	if [ "$FILE" = 1 ]; then
		/usr/bin/time -f "%U %S" -o "$TF" "$@" > /dev/null
	else
		/usr/bin/time -f "%U %S" -o "$TF" "$@" < "$F" | cat > /dev/null
	fi
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" '{ printf "%.3f %.2f\n", b - a, $1 + $2 }' "$TF"
}
base= cbase= last=
# run NAME CMD...: three runs; the median of three, since a lone slow run
# of cat (a busy pipe) would otherwise move every ratio
run() {
	local name=$1 a b c
	shift
	a=$(measure "$@")
	rm -f "$D/out.tif"
	b=$(measure "$@")
	rm -f "$D/out.tif"
	c=$(measure "$@")
	rm -f "$D/out.tif"
	read -r line < <(awk -v n="$name" -v a="$a" -v b="$b" -v d="$c" \
	    -v by="$bytes" -v c="$base" -v cc="$cbase" '
	function med(p, q, r) { if (p > q) { t = p; p = q; q = t }
		return r < p ? p : (r > q ? q : r) }
	BEGIN {
		split(a, x, " "); split(b, y, " "); split(d, z, " ")
		m = med(x[1], y[1], z[1]); cpu = med(x[2], y[2], z[2])
		if (c == "") { c = m; cc = cpu }
		printf "%-34s %6.3f %6.3f %6.3f s  median %6.3f s %5.0f MiB/s %5.2f x cat" \
		    "  cpu %5.2f s %s|%s %s|%.3f\n", n, x[1], y[1], z[1], m,
		    by / 1048576 / m, m / c, cpu,
		    (cc > 0 ? sprintf("%5.2f x cat", cpu / cc) : " (cat ~0)"),
		    c, cc, m }')
	printf '%s\n' "${line%%|*}"
	last=${line##*|}
	if [ -z "$base" ]; then
		base=${line#*|}; base=${base%|*}; cbase=${base#* }; base=${base% *}
	fi
}
printf 'bench-slope: %dx%d float32, %d bytes (%.2f GiB), page cache warm, %s cores\n' \
    "$SIZE" "$SIZE" "$bytes" "$(awk -v b="$bytes" 'BEGIN { print b / 2^30 }')" "$(nproc)"
run "cat" cat
# The floor of writing what tslope writes: its three bands' bytes.
run "cat (3 x the bytes: tslope's out)" cat - "$F" "$F"
run "tslope" "$BIN/tslope" -q
run "tslope -j 1" "$BIN/tslope" -q -j 1
run "tslope --hillshade --curvature" "$BIN/tslope" -q --hillshade --curvature
# cat with its output pipe widened to 1 MiB first (F_SETPIPE_SZ, 1031),
# against tslope --only slope and --only aspect: the three in turn, five
# rounds, so that a drift in the machine's speed (a shared host's memory
# bandwidth moves cat's time by a third from one minute to the next)
# falls on all three alike; the ratio is the median of the rounds' own.
rounds=5
for r in $(seq $rounds); do
	printf '%s ' "$(measure /usr/bin/python3 -c 'import fcntl, os
fcntl.fcntl(1, 1031, 1 << 20); os.execvp("cat", ["cat"])')" \
	    "$(measure "$BIN/tslope" -q --only slope)" \
	    "$(measure "$BIN/tslope" -q --only aspect)"
	echo
done > "$D/rounds"
awk -v base="$base" -v by="$bytes" -v n=$rounds '
function med(a, k,   i, j, t) {
	for (i = 2; i <= k; i++) { t = a[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
		a[j + 1] = t }
	return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
function line(name, t, cpu) {
	printf "%-34s median %6.3f s %5.0f MiB/s %5.2f x cat  cpu %5.2f s\n",
	    name, t, by / 1048576 / t, t / base, cpu }
function ratio(name, t, r,   m) {
	m = med(r, n)	# sorts r: r[1] is the least
	printf "ratio: tslope --only %-6s %5.2f x cat (64 KiB pipe), %5.2f x cat" \
	    " (1 MiB pipe, median of the rounds, %.2f to %.2f); the goal is within 1.5\n",
	    name, t / base, m, r[1], r[n] }
{ c[NR] = $1; cc[NR] = $2; s[NR] = $3; sc[NR] = $4; a[NR] = $5; ac[NR] = $6
  rs[NR] = $3 / $1; ra[NR] = $5 / $1
  w = w sprintf(" %.3f/%.3f/%.3f", $1, $3, $5) }
END {
	printf "%-34s%s s\n", "rounds: cat 1 MiB/slope/aspect", w
	line("cat (1 MiB pipe)", med(c, n), med(cc, n))
	line("tslope --only slope", med(s, n), med(sc, n))
	line("tslope --only aspect", med(a, n), med(ac, n))
	ratio("slope", med(s, n), rs)
	ratio("aspect", med(a, n), ra)
}' "$D/rounds"
if command -v gdaldem > /dev/null; then
	FILE=1
	run "gdaldem slope (GeoTIFF out)" gdaldem slope -q "$D/in.vrt" "$D/out.tif"
	run "gdaldem aspect (GeoTIFF out)" gdaldem aspect -q "$D/in.vrt" "$D/out.tif"
else
	echo "gdaldem: not installed, left out"
fi
