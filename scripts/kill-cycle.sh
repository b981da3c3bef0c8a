#!/bin/bash
# kill-cycle.sh [BINDIR] [N] - a tiled fill killed at random moments never
# leaves a directory that tmosaic accepts with mixed or partial content.
#
# One directory holds the tiles of one of two grids, A and B (512x512
# noises of seeds 1 and 2). N times (default 50) for each of the phases
# (ttile, tfill --tile-prepare of every tile, --tile-solve, --tile-finish
# of every tile), the whole cycle runs on the other grid and is killed
# (SIGKILL) at a random moment of that phase; then
#   tmosaic DIR/manifest               must fail, or give A or B exactly,
#   tmosaic --suffix .filled ...       must fail, or give tfill's A or B
#                                      (the samples);
# anything else (a mix of the two grids, or a partial one) is counted as
# wrong. The phases write through the shell's redirections, as
# scripts/tiled-hydro runs them, so a killed phase leaves a cut-off file:
# that is the point. Prints the outcomes per phase; exit 1 if any wrong.
set -u
B=${1:-bin}
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
N=${2:-50}
PATH=$B:$PATH
T=$(mktemp -d "${TMPDIR:-/tmp}/kill-cycle.XXXXXX")
trap 'rm -rf "$T"' EXIT
D=$T/d

tnoise -q -s 512x512 -S 1 > "$T/A.tp" && tnoise -q -s 512x512 -S 2 > "$T/B.tp" || exit 1
for g in A B; do
	tfill -q < "$T/$g.tp" > "$T/$g.filled" || exit 1
done

# body FILE: the samples after ENDHDR.
body() { sed '1,/^ENDHDR$/d' "$1"; }

# cycle GRID STOP: the tiled fill of GRID into D, phases 1..4; after phase
# STOP - 1 it sleeps a random moment, to be killed inside phase STOP.
cycle() {
	local g=$1 stop=$2 t
	[ "$stop" = 1 ] && sleep "0.0$((RANDOM % 10))"
	ttile -q -s 128 "$D" < "$T/$g.tp" || return
	[ "$stop" = 2 ] && sleep "0.0$((RANDOM % 10))"
	for t in $(sed -n 's/^TILE [0-9]* [0-9]* \([^ ]*\).*/\1/p' "$D/manifest"); do
		tfill -q --tile-prepare "$D/$t" > "$D/$t.edge" || return
	done
	[ "$stop" = 3 ] && sleep "0.0$((RANDOM % 10))"
	tfill -q --tile-solve "$D/manifest" > "$D/levels" || return
	[ "$stop" = 4 ] && sleep "0.0$((RANDOM % 10))"
	for t in $(sed -n 's/^TILE [0-9]* [0-9]* \([^ ]*\).*/\1/p' "$D/manifest"); do
		tfill -q --tile-finish "$D/levels" "$D/$t" > "$D/$t.filled" || return
	done
}

# judge: "refused", "A", "B" or "WRONG" for the tiles and the filled tiles.
judge() {
	local out=$T/m r1 r2
	if tmosaic -q "$D/manifest" > "$out" 2>/dev/null; then
		if cmp -s "$out" "$T/A.tp"; then r1=A; elif cmp -s "$out" "$T/B.tp"; then r1=B; else r1=WRONG; fi
	else r1=refused; fi
	if tmosaic -q --suffix .filled "$D/manifest" > "$out" 2>/dev/null; then
		if cmp -s <(body "$out") <(body "$T/A.filled"); then r2=A
		elif cmp -s <(body "$out") <(body "$T/B.filled"); then r2=B; else r2=WRONG; fi
	else r2=refused; fi
	echo "$r1 $r2"
}

cycle A 0 || exit 1
set -m	# each cycle its own process group: a kill takes all of it
wrong=0 g=B
for phase in 1 2 3 4; do
	declare -A seen=()
	for i in $(seq "$N"); do
		( cycle $g $phase ) & p=$!
		# a moment inside the phase: the sleep before it is at most
		# 0.09 s, the phase itself some tenths of a second
		sleep "0.$((RANDOM % 40 + 5))"
		kill -KILL -- -$p 2>/dev/null
		wait $p 2>/dev/null
		r=$(judge)
		seen[$r]=$(( ${seen[$r]:-0} + 1 ))
		case $r in *WRONG*) wrong=$((wrong + 1)) ;; esac
		[ $g = A ] && g=B || g=A
	done
	printf 'phase %d (%s): ' $phase "$(echo ttile prepare solve finish | cut -d' ' -f$phase)"
	for k in "${!seen[@]}"; do printf '[%s] %d  ' "$k" "${seen[$k]}"; done
	echo
	unset seen
done
echo "tiles | filled: A or B = a whole cut accepted, refused = tmosaic said no; wrong: $wrong"
[ $wrong = 0 ]
