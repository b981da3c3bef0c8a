# phase-timing.sh - sourced by the tiled benchmarks (bench-tiled.sh,
# bench-flowflat.sh): timing of phases run one process at a time. The
# caller sets $tmp (a scratch directory) and $me (its name for errors).

# run_phase LOG CMD...: wall, CPU and peak RSS (KiB) appended to LOG.
run_phase() {
	local log=$1
	shift
	/usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$@" || { echo "$me: $* failed"; exit 1; }
	awk '{ print $1, $2 + $3, $4 }' "$tmp/t" >> "$log"
}

# report NAME LOG: wall and CPU summed, RSS the largest.
report() {
	awk -v name="$1" '{ w += $1; c += $2; if ($3 > r) r = $3 }
	    END { printf "    %-8s wall %7.2f s  cpu %7.2f s  peak RSS %6.1f MiB\n", name, w, c, r / 1024 }' "$2"
}
