#!/bin/bash
# progress: what every program tells of its progress on stderr, and that
# telling it never changes a byte of the output. On a terminal a bar
# labelled "prog: label", redrawn in place; elsewhere nothing unless asked
# (--progress, or TERRAPIPE_PROGRESS for a whole pipeline), then lines
# "prog: label N% (D of T unit)" at most every TERRAPIPE_PROGRESS_SECONDS
# (default 5) and a last one with the seconds taken; -q silences both.
. "$(dirname "$0")/common.sh"

run_prog tnoise -q -s 96x80 -S 3 -c 30 --origin 500000,4649776 \
    --crs EPSG:32633 > "$T/n.tp"

# A line of program prog's progress, labelled label: a percent and the
# counts; the last one also the seconds.
line_re() { echo "^$1: $2 [0-9]+% \\([0-9]+ of [0-9]+( [a-z]+)?\\)( in [0-9.]+ s)?\$"; }

# Asked by --progress, a line every step (an interval of 0 seconds), the
# last at 100% with the seconds; each line names the program and the work.
TERRAPIPE_PROGRESS_SECONDS=0 run_prog tuplift --progress -s 20 \
    < "$T/n.tp" > "$T/u1" 2> "$T/u1.err"
n=$(grep -cE "$(line_re tuplift uplift)" "$T/u1.err")
[ "$n" -ge 5 ] && pass || fail "tuplift --progress: $n lines: $(head -c 300 "$T/u1.err")"
assert_eq "tuplift --progress: every line labelled" \
    "$(grep -cvE "$(line_re tuplift uplift)" "$T/u1.err")" 0
ok "tuplift --progress: the last line" grep -qE \
    '^tuplift: uplift 100% \(20 of 20 steps\) in [0-9.]+ s$' <(tail -n 1 "$T/u1.err")
# Not asked: nothing on a stderr that is no terminal.
run_prog tuplift -s 20 < "$T/n.tp" > "$T/u2" 2> "$T/u2.err"
assert_eq "tuplift: no progress unless asked" "$(cat "$T/u2.err")" ""
assert_same "tuplift: the same bytes with --progress" "$T/u1" "$T/u2"
# The default interval is 5 seconds: no more lines than one each 5 of the
# seconds the last line says the run took, and that last line.
run_prog tuplift --progress -s 20 < "$T/n.tp" > /dev/null 2> "$T/u3.err"
ok "tuplift --progress: a line at most every 5 s" awk '
    { n++ } END { split($0, w, " in "); exit !(n >= 1 && n <= 1 + int(w[2] / 5)) }' "$T/u3.err"

# The environment asks for a whole pipeline: each stage's lines, labelled,
# apart; -q silences them, --progress or not.
TERRAPIPE_PROGRESS=1 TERRAPIPE_PROGRESS_SECONDS=0 bash -c \
    'tnoise -s 96x80 -S 3 | tfill --depth | tflow -r 20 > "$1"' _ \
    "$T/p1" 2> "$T/p1.err"
for l in "tnoise noise" "tfill fill" "tflow flow"; do
	set -- $l
	ok "TERRAPIPE_PROGRESS: $1's last line" grep -qE \
	    "^$1: $2 100% \\([0-9]+ of [0-9]+( [a-z]+)?\\) in [0-9.]+ s\$" "$T/p1.err"
done
assert_eq "TERRAPIPE_PROGRESS: only labelled lines" \
    "$(grep -cvE '^t[a-z]+: [a-z]+ [0-9]+% \([0-9]+ of [0-9]+( [a-z]+)?\)( in [0-9.]+ s)?$' "$T/p1.err")" 0
TERRAPIPE_PROGRESS=1 bash -c \
    'tnoise -q -s 96x80 -S 3 | tfill -q --depth --progress | tflow -q -r 20 > "$1"' _ \
    "$T/p2" 2> "$T/p2.err"
assert_eq "-q silences TERRAPIPE_PROGRESS and --progress" "$(cat "$T/p2.err")" ""
TERRAPIPE_PROGRESS=0 run_prog tfill < "$T/n.tp" 2> "$T/p3.err" > /dev/null
assert_eq "TERRAPIPE_PROGRESS=0 asks for nothing" "$(cat "$T/p3.err")" ""
assert_same "the pipeline: the same bytes with progress" "$T/p1" "$T/p2"

# The same bytes with and without progress, stage by stage (HISTORY leaves
# --progress out).
run_prog tfill --depth < "$T/n.tp" > "$T/f.tp"
run_prog tflow -r 20 --order --basins < "$T/f.tp" > "$T/w.tp"
# tflow's phases: lakes (a depth band), directions, accumulation, order
# and basins; each run tells as many as it runs.
for v in "4|-r 20 --order" "3|-r 20" "2|-r 20 --no-lakes" "3|--basins --no-lakes"; do
	TERRAPIPE_PROGRESS_SECONDS=0 run_prog tflow --progress ${v#*|} \
	    < "$T/f.tp" 2>&1 > /dev/null | tail -n 1 > "$T/ph"
	ok "tflow ${v#*|}: ${v%%|*} phases" grep -qE \
	    "^tflow: flow 100% \\(${v%%|*} of ${v%%|*} phases\\) in [0-9.]+ s\$" "$T/ph"
done
# tfill in tiles: its three phases.
TERRAPIPE_PROGRESS_SECONDS=0 run_prog tfill --progress -j 2 --tile-size 32 \
    < "$T/n.tp" 2>&1 > /dev/null | tail -n 1 > "$T/ph"
ok "tfill -j 2: 3 phases" grep -qE \
    '^tfill: fill 100% \(3 of 3 phases\) in [0-9.]+ s$' "$T/ph"
same() {	# same NAME OUT ARGS...: OUT (- for stdout) with and without
	local name=$1 out=$2
	shift 2
	for v in plain asked; do
		local extra=()
		[ $v = asked ] && extra=(--progress)
		if [ "$out" = - ]; then
			run_prog "$@" "${extra[@]}" < "$T/w.tp" > "$T/$v" 2> /dev/null
		else
			run_prog "$@" "${extra[@]}" < "$T/w.tp" > /dev/null 2> /dev/null
			mv "$T/$out" "$T/$v"
		fi
	done
	assert_same "$name: the same bytes with --progress" "$T/plain" "$T/asked"
}
same tfill - tfill
same "tfill -j 2" - tfill -j 2 --tile-size 32
same tflow - tflow -r 20 --order --basins
same terode - terode -n 2000
same tuplift - tuplift -s 3
same tslope - tslope --hillshade
same tnoise - tnoise -b moisture -S 8
same tvector v.geojson tvector --rivers "$T/v.geojson"
same tgeotiff g.tif tgeotiff -b height,flow "$T/g.tif"
same tview v.png tview "$T/v.png"
same tinfo - tinfo

# Every program takes --progress, one spelling.
for p in "$TP_BIN"/t*; do
	p=${p##*/}
	ok "$p --progress --version" run_prog "$p" --progress --version
done

# On a terminal (script(1)): bars, each "\rprog: label ... N%" and cleared
# to the end of the line, the last of each stage kept on a line of its own.
TERM=dumb script -qec "stty cols 120; PATH=$TP_BIN:\$PATH; tnoise -s 96x80 -S 3 | tfill --depth |
    tflow -r 20 > $(printf %q "$T/t.tp")" /dev/null < /dev/null > "$T/tty"
tr '\r' '\n' < "$T/tty" | grep -v '^$' > "$T/tty.lines"
for l in "tnoise noise" "tfill fill" "tflow flow"; do
	set -- $l
	ok "terminal: $1's bar" grep -qE \
	    "^$1: $2 +\\[#+\\] 100% [0-9.]+ s"$'\e\\[K$' "$T/tty.lines"
done
assert_eq "terminal: every draw labelled and cleared" \
    "$(grep -cvE '^t[a-z]+: [a-z]+ +\[[# ]{30}\] +[0-9]+%( [0-9.]+ s)?'$'\e''\[K$' "$T/tty.lines")" 0
assert_same "terminal: the same bytes" "$T/t.tp" "$T/p1"
# A note over a bar on a terminal clears the line first, in the same write.
TERM=dumb script -qec "stty cols 120; PATH=$TP_BIN:\$PATH; tnoise -s 96x80 -S 3 |
    tuplift --stats -s 5 > /dev/null" /dev/null < /dev/null | tr '\r' '\n' > "$T/notes"
assert_eq "terminal: each note clears the line" \
    "$(grep -c $'^\e\\[Ktuplift: step [1-5]: max change' "$T/notes")" 5
# On a narrow terminal the bar narrows, so a draw never wraps (a return
# would leave its head behind) and still ends in its percent.
TERM=dumb script -qec "stty cols 40; PATH=$TP_BIN:\$PATH; tnoise -s 96x80 -S 3 |
    tfill > /dev/null" /dev/null < /dev/null | tr '\r' '\n' |
    sed $'s/\e\\[K//g' | grep -v '^$' > "$T/narrow"
[ "$(wc -l < "$T/narrow")" -ge 4 ] && pass || fail "narrow terminal: no bars drawn"
assert_eq "narrow terminal: no draw over 39 columns" \
    "$(awk 'length > 39' "$T/narrow" | head -3)" ""
assert_eq "narrow terminal: every draw ends in its percent or seconds" \
    "$(grep -cvE '\] +[0-9]+%( [0-9.]+ s)?$' "$T/narrow")" 0
finish
