#!/bin/sh
# make bench: run every scripts/bench-*.sh with the bin directory; each prints
# its figures and ratios (never a pass/fail on time).
# usage: scripts/bench.sh BINDIR [NAME...]   e.g. scripts/bench.sh bin noise
set -u
bin=$(cd "$1" && pwd); shift
if [ $# -gt 0 ]; then
	list=""
	for n in "$@"; do list="$list scripts/bench-$n.sh"; done
else
	list=$(ls scripts/bench-*.sh 2>/dev/null)
fi
echo "terrapipe bench on $(uname -m), $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
status=0
for b in $list; do
	echo
	echo "== $(basename "$b" .sh)"
	bash "$b" "$bin" || { echo "$(basename "$b"): FAILED"; status=1; }
done
exit $status
