#!/bin/bash
# bench-fit.sh BINDIR - the fit of a real DEM (tests/data/jacksboro_fault_dem.tif,
# 403x344 cells of 3 arc-seconds, 840 m of relief) as a base and Gaussian
# hills: the RMS after 200, 500 and 1000 hills and the time of the fit alone
# on 1 and 2 threads (bench-fit.c, built against BINDIR/../obj/libterrapipe.a),
# the same with plateaus; then, where tfeature has --fit, the whole program,
# the size of its file, and the DEM made again from that file by tfeature.
# Figures only: nothing here passes or fails on time.
set -u
B=${1:-bin}
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
dir=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$dir/.." && pwd)
lib=$(cd "$B/.." && pwd)/obj/libterrapipe.a
PY=/usr/bin/python3
[ -f "$lib" ] || { echo "bench-fit: no $lib"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/bench-fit.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
${CC:-cc} -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$root/lib" \
    -o "$T/bench-fit" "$dir/bench-fit.c" "$lib" -lm -pthread ||
    { echo "bench-fit: cannot build the harness"; exit 1; }
"$B/timport" "$root/tests/data/jacksboro_fault_dem.tif" > "$T/dem.tp" || exit 1
N=1000

echo "fit: jacksboro_fault_dem.tif (403x344), $N hills; load now: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
for j in 1 2; do
	"$T/bench-fit" "$T/dem.tp" $N $j > "$T/j$j" ||
	    { echo "bench-fit: the fit failed"; exit 1; }
done
"$T/bench-fit" "$T/dem.tp" $N 2 1 > "$T/pl" ||
    { echo "bench-fit: the fit with plateaus failed"; exit 1; }
# bench-fit prints "  200 hills  0 plateaus  rms  40.039  (4.77% of the
# relief)  at 2.40 s" after each tenth, then "  fit: W s wall, C s cpu, ...".
awk '$2 == "hills" && $3 == 0 && ($1 == 200 || $1 == 500 || $1 == 1000) {
	printf "  %4d hills: rms %7.2f m  %s of the relief\n", $1, $6, substr($7, 2) }' "$T/j1"
grep -h '^  fit:' "$T/j1" "$T/j2" | sed 's/^  fit:/  fit alone:/'
if cmp -s <(grep -v '^  fit:' "$T/j1" | sed 's/ at .*//') \
    <(grep -v '^  fit:' "$T/j2" | sed 's/ at .*//'); then
	echo "  1 and 2 threads: the same RMS at every tenth"
else
	echo "  1 and 2 threads: the RMS differs (a determinism bug)"
fi
sed -n 's/^  plateaus: \([0-9]*\), rms \([0-9.]*\) (\(.*\))$/  with --plateaus: \1 plateaus, rms \2 m (\3)/p' "$T/pl"
grep -h '^  residual:' "$T/j1"

# The program, and the file it writes made into a DEM again.
if [ -x "$B/tfeature" ] && "$B/tfeature" --help 2>/dev/null | grep -q -- '--fit'; then
	/usr/bin/time -f "%e %U" -o "$T/time" "$B/tfeature" -q --fit $N \
	    < "$T/dem.tp" > "$T/fit.txt" 2> "$T/err" ||
	    { echo "tfeature --fit failed: $(cat "$T/err")"; exit 1; }
	read -r wall user < "$T/time"
	echo "  tfeature --fit $N: $wall s wall, $user s user (reading the stream included)"
	# shellcheck disable=SC2046 # the geometry line is options to split
	"$B/tfeature" -q "$T/fit.txt" $(sed -n '1s/^# tfeature //p' "$T/fit.txt") \
	    -l hills > "$T/again.tp" || { echo "tfeature could not read its fit"; exit 1; }
	"$PY" - "$T/dem.tp" "$T/again.tp" "$T/fit.txt" <<'EOF'
import os, sys, numpy as np
def grid(p):
    d = open(p, "rb").read(); i = d.index(b"\nENDHDR\n") + 8
    hdr = dict(l.split(" ", 1) for l in d[:i].decode().splitlines()[1:-1] if " " in l)
    w, h = int(hdr["WIDTH"]), int(hdr["HEIGHT"])
    return np.frombuffer(d[i:], "<f4").reshape(h, -1)[:, :w].astype(np.float64)
a, b = grid(sys.argv[1]), grid(sys.argv[2])
print("  the DEM made again from the file (tfeature -l hills): rms %.2f m" %
      np.sqrt(((a - b) ** 2).mean()))
print("  the file: %d bytes of text for a %d-byte DEM (%.1f%%)" % (
      os.path.getsize(sys.argv[3]), a.size * 4, 100.0 * os.path.getsize(sys.argv[3]) / (a.size * 4)))
EOF
else
	echo "  (no tfeature --fit in $B: the program's figures are left out)"
fi
