#!/bin/bash
# bench-geotiff: tgeotiff writing a 4096 x 4096 stream as a GeoTIFF (DEFLATE
# with predictor 3, and uncompressed) and timport reading the DEFLATE file
# back, each beside gdal_translate doing the same conversion (raw float32
# seen through an ENVI header <-> the same GeoTIFF options); and Int16
# decimetres (--type Int16 --zrange 0,1800 --scale 0.1, DEFLATE with
# predictor 2) beside Float32 and gdal_translate -ot Int16 -scale. Terrain from
# tnoise (6 octaves) when it is built, else smooth numpy waves plus noise.
# Each figure runs twice; both runs and their median (the mean of two) are
# printed, then tgeotiff/timport as a ratio to GDAL (time over GDAL's time:
# below 1 is faster) and the speed-up of all processors over -j 1.
# Figures only.
# usage: scripts/bench-geotiff.sh BINDIR
set -u
bin=${1:-bin}
PY=/usr/bin/python3
N=4096
export GDAL_PAM_ENABLED=NO
for p in tgeotiff timport; do
	[ -x "$bin/$p" ] || { echo "bench-geotiff: no $bin/$p"; exit 1; }
done
command -v gdal_translate >/dev/null || { echo "bench-geotiff: needs gdal_translate (gdal-bin)"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-bench-geotiff.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
in=$tmp/in.tp

if [ -x "$bin/tnoise" ] && "$bin/tnoise" --size ${N}x$N --seed 7 --octaves 6 >"$in" 2>/dev/null; then
	src="tnoise --size ${N}x$N --seed 7 --octaves 6"
else
	src="numpy waves + noise"
	"$PY" - "$in" $N <<'PYEOF' || { echo "bench-geotiff: cannot make the input"; exit 1; }
import sys, numpy as np
path, n = sys.argv[1], int(sys.argv[2])
r = np.random.default_rng(1)
x = np.linspace(0, 12, n, dtype=np.float32)
with open(path, "wb") as f:
    f.write(b"TERRAPIPE 1\nWIDTH %d\nHEIGHT %d\nBANDS height\nENDHDR\n" % (n, n))
    for y0 in range(0, n, 512):
        y = np.linspace(0, 12, n, dtype=np.float32)[y0:y0 + 512, None]
        h = 0.5 + 0.25 * np.sin(x + y) * np.cos(0.7 * x - y) + 0.01 * r.random((512, n), dtype=np.float32)
        f.write(h.astype("<f4").tobytes())
PYEOF
fi
# GDAL reads the stream's body through an ENVI header that skips the text.
off=$("$PY" -c 'import sys; d=open(sys.argv[1],"rb").read(1<<16); print(d.index(b"\nENDHDR\n")+8)' "$in")
cat >"$tmp/in.hdr" <<EOF2
ENVI
samples = $N
lines = $N
bands = 1
header offset = $off
data type = 4
interleave = bsq
byte order = 0
EOF2
cat "$in" >/dev/null	# into the page cache
echo "input: $N x $N float32 ($src), $(($(stat -c %s "$in") >> 20)) MiB"

# twice LABEL CMD...: run the command line (a string for sh) twice; prints
# the median and both runs; sets $med.
twice() {
	local label=$1 a b t0 t1
	shift
	t0=$(date +%s.%N); sh -c "$1" >/dev/null 2>&1 || { echo "$label: failed"; med=0; return 1; }
	t1=$(date +%s.%N); a=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
	t0=$(date +%s.%N); sh -c "$1" >/dev/null 2>&1 || { echo "$label: failed"; med=0; return 1; }
	t1=$(date +%s.%N); b=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
	med=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", (a + b) / 2 }')
	printf '%-34s %7.3f s  (runs %s, %s)\n' "$label" "$med" "$a" "$b"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }'; }
co="-co TILED=YES -co BLOCKXSIZE=256 -co BLOCKYSIZE=256"

twice "tgeotiff (deflate, pred 3)" "'$bin/tgeotiff' -q '$tmp/d.tif' < '$in'"; tp_d=$med
twice "tgeotiff -j 1 (deflate, pred 3)" "'$bin/tgeotiff' -q -j 1 '$tmp/d1.tif' < '$in'"; tp_d1=$med
twice "gdal_translate (deflate, pred 3)" "gdal_translate -q $co -co COMPRESS=DEFLATE -co PREDICTOR=3 '$in' '$tmp/gd.tif'"; gd_d=$med
twice "tgeotiff (none)" "'$bin/tgeotiff' -q -c none '$tmp/n.tif' < '$in'"; tp_n=$med
twice "gdal_translate (none)" "gdal_translate -q $co '$in' '$tmp/gn.tif'"; gd_n=$med
twice "tgeotiff --cog (deflate)" "'$bin/tgeotiff' -q --cog '$tmp/c.tif' < '$in'"; tp_c=$med
twice "gdal_translate -of COG (deflate)" "gdal_translate -q -of COG -co COMPRESS=DEFLATE -co PREDICTOR=YES -co RESAMPLING=AVERAGE '$in' '$tmp/gc.tif'"; gd_c=$med
twice "tgeotiff -t Int16 (deflate, pred 2)" "'$bin/tgeotiff' -q -t Int16 --zrange 0,1800 --scale 0.1 '$tmp/i.tif' < '$in'"; tp_i=$med
twice "gdal_translate -ot Int16 (pred 2)" "gdal_translate -q $co -co COMPRESS=DEFLATE -co PREDICTOR=2 -ot Int16 -scale 0 1 0 18000 '$in' '$tmp/gi.tif'"; gd_i=$med
twice "timport (deflate tif -> stream)" "'$bin/timport' '$tmp/d.tif' > '$tmp/back.tp'"; tp_r=$med
twice "gdal_translate (tif -> raw ENVI)" "gdal_translate -q -of ENVI '$tmp/d.tif' '$tmp/back.raw'"; gd_r=$med

echo "sizes: tgeotiff deflate $(($(stat -c %s "$tmp/d.tif") >> 10)) KiB, GDAL deflate $(($(stat -c %s "$tmp/gd.tif") >> 10)) KiB," \
    "tgeotiff COG $(($(stat -c %s "$tmp/c.tif") >> 10)) KiB, GDAL COG $(($(stat -c %s "$tmp/gc.tif") >> 10)) KiB"
echo "ratios to GDAL: write deflate $(ratio "$tp_d" "$gd_d"), write none $(ratio "$tp_n" "$gd_n")," \
    "COG $(ratio "$tp_c" "$gd_c"), read $(ratio "$tp_r" "$gd_r")"
echo "Int16: $(($(stat -c %s "$tmp/i.tif") >> 10)) KiB (GDAL $(($(stat -c %s "$tmp/gi.tif") >> 10)) KiB);" \
    "time over Float32's $(ratio "$tp_i" "$tp_d"), over gdal_translate -ot Int16's $(ratio "$tp_i" "$gd_i")"
echo "threads: $(nproc) processors write deflate $(ratio "$tp_d1" "$tp_d") as fast as one"
cmp -s <("$PY" -c 'import sys; d=open(sys.argv[1],"rb").read(); sys.stdout.buffer.write(d[d.index(b"\nENDHDR\n")+8:])' "$tmp/back.tp") \
    <(tail -c +$((off + 1)) "$in") && echo "round trip: identical samples" || echo "round trip: samples DIFFER"
