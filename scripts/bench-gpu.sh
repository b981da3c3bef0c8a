#!/bin/bash
# bench-gpu.sh BINDIR [--size N] [--droplets N] - terode on OpenCL: the
# device, droplets per second through it (--device gpu: the first GPU, else
# the first OpenCL device, e.g. pocl's CPU device) beside the CPU paths
# (--batch-sync, the same bytes, and the sequential default) on one N x N
# fBm grid (default 4096, 10,000,000 droplets), and how far the batch-
# synchronous result lies from the sequential one. Prints figures and
# ratios; asserts nothing about time. Runs unchanged on any machine with an
# OpenCL ICD (nvidia-opencl-icd, pocl-opencl-icd).
set -u
B=${1:-bin}
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
shift $(($# > 0 ? 1 : 0))
SIZE=4096
N=10000000
while [ $# -gt 0 ]; do
	case $1 in
	--size) SIZE=$2; shift 2 ;;
	--droplets) N=$2; shift 2 ;;
	*) echo "bench-gpu: unknown argument '$1' (--size N, --droplets N)" >&2; exit 2 ;;
	esac
done
PY=/usr/bin/python3
T=$(mktemp -d "${TMPDIR:-/tmp}/bench-gpu.XXXXXX")
trap 'rm -rf "$T"' EXIT

"$B/tnoise" -q -s "${SIZE}x$SIZE" -S 1 -f "$(awk -v n="$SIZE" 'BEGIN { print 4 / n }')" \
    > "$T/in.tp" || exit 1
echo "terode on OpenCL: ${SIZE}x$SIZE fBm, $N droplets, one droplet per 64 cells a batch (at most 262144)"
echo "OpenCL devices:"
"$B/terode" --list-devices 2>&1 | sed 's/^/  /'

# secs ARGS...: wall seconds of one terode run (its --stats on $T/err).
secs() {
	/usr/bin/time -f "%e" -o "$T/time" "$B/terode" -q --stats "$@" \
	    < "$T/in.tp" > "$T/out.tp" 2> "$T/err" || return 1
	tail -n 1 "$T/time"
}

# rate LABEL ARGS...: droplets/s of N droplets less a 1-droplet run (I/O,
# set-up, the kernel's build), the output kept as $T/LABEL.tp.
rate() {
	local label=$1 t1 tn; shift
	t1=$(secs -n 1 "$@") || { echo "  $label: $(tail -n 1 "$T/err")"; return 1; }
	tn=$(secs -n "$N" "$@") || { echo "  $label: $(tail -n 1 "$T/err")"; return 1; }
	cp "$T/out.tp" "$T/$label.tp"
	awk -v l="$label" -v n="$N" -v a="$t1" -v b="$tn" 'BEGIN {
	    d = b - a; if (d <= 0) d = 1e-3
	    printf "  %-22s %7.2f s (%5.2f s of it set-up and I/O) -> %12.0f droplets/s\n", l, b, a, n / d }' \
	    | tee "$T/$label.rate"
}

if rate opencl --device gpu; then
	sed -n 's/^terode: \(OpenCL device .*\)/  ran on \1/p' "$T/err"
	gpu=1
else
	gpu=0
fi
rate cpu-batch-sync --device cpu --batch-sync || exit 1
rate cpu-sequential --device cpu || exit 1
if [ $gpu = 1 ]; then
	body() { tail -c +$(($(grep -abo '^ENDHDR$' "$1" | cut -d: -f1) + 8)) "$1"; }
	cmp -s <(body "$T/opencl.tp") <(body "$T/cpu-batch-sync.tp") \
	    && same="byte-identical" || same="DIFFERENT"
	echo "  OpenCL and --batch-sync samples: $same"
	g=$(awk '{ print $(NF-1) }' "$T/opencl.rate")
	b=$(awk '{ print $(NF-1) }' "$T/cpu-batch-sync.rate")
	s=$(awk '{ print $(NF-1) }' "$T/cpu-sequential.rate")
	awk -v g="$g" -v b="$b" -v s="$s" 'BEGIN {
	    printf "  OpenCL / CPU batch-sync: %.2fx; OpenCL / CPU sequential: %.2fx\n", g / b, g / s }'
fi
"$PY" - "$T/in.tp" "$T/cpu-sequential.tp" "$T/cpu-batch-sync.tp" <<'EOF'
import sys, numpy as np
def f(p):
    d = open(p, "rb").read(); i = d.index(b"\nENDHDR\n") + 8
    return np.frombuffer(d[i:], "<f4").astype(np.float64)
z = f(sys.argv[1]); ds = f(sys.argv[2]) - z; db = f(sys.argv[3]) - z
print("  batch-sync vs sequential: volume eroded %.6g vs %.6g (%+.2f%%), mean |dh| %.4g vs %.4g, "
      "correlation of the change maps %.4f"
      % (-db[db < 0].sum(), -ds[ds < 0].sum(), 100 * (db[db < 0].sum() / ds[ds < 0].sum() - 1),
         np.abs(db).mean(), np.abs(ds).mean(), np.corrcoef(ds, db)[0, 1]))
EOF
echo "  load average when done: $(cut -d' ' -f1 /proc/loadavg) (on a busy machine the figures are low)"
