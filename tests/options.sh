#!/bin/bash
# options: one spelling per option across the programs. Every old spelling
# still works, warns once per use on stderr (even with -q) naming the new
# one, and makes the same bytes as the new spelling (HISTORY records the
# long form); every program with a seed takes -S/--seed and every one with
# a zscale -z/--zscale, each the same as the other. terrapipe(7) lists the
# vocabulary.
. "$(dirname "$0")/common.sh"

run_prog tnoise -q -s 48x40 -S 3 -c 30 --origin 500000,4649776 \
    --crs EPSG:32633 > "$T/n.tp"
run_prog tfill -q < "$T/n.tp" | run_prog tflow -q -r 20 --basins > "$T/f.tp"
run_prog tflow -q -r 20 --dir-codes grass < "$T/n.tp" > "$T/fg.tp"
run_prog texport -q -f pgm --zrange 0,1 "$T/h.pgm" < "$T/n.tp"
printf '# all ground\n* t.png 8\n' > "$T/m.txt"
"$PY" - "$T/t.png" <<'PY'
import sys, numpy as np
from osgeo import gdal
a = np.random.default_rng(1).integers(0, 256, (3, 8, 8)).astype("uint8")
d = gdal.GetDriverByName("MEM").Create("", 8, 8, 3, gdal.GDT_Byte)
for i in range(3): d.GetRasterBand(i + 1).WriteArray(a[i])
gdal.GetDriverByName("PNG").CreateCopy(sys.argv[1], d)
PY

# spelled NAME IN OUT WARNING OLD -- NEW: run the program's words OLD and
# NEW (OUT a file they write, or - for stdout) on IN; the old run warns
# exactly WARNING, once per use (three uses: the warning three times), the
# new one says nothing, and their outputs are byte-identical.
spelled() {
	local name=$1 in=$2 out=$3 warn=$4 old=() new=()
	shift 4
	while [ "$1" != -- ]; do old+=("$1"); shift; done
	shift
	new=("$@")
	for v in old new; do
		local -n words=$v
		local rc
		rm -f "$T/$v.out"
		if [ "$out" = - ]; then
			run_prog "${words[@]}" < "$in" > "$T/$v.out" 2> "$T/$v.err"
			rc=$?
		else
			run_prog "${words[@]}" < "$in" > /dev/null 2> "$T/$v.err"
			rc=$?
			cp "$out" "$T/$v.out" 2>/dev/null
			rm -f "$out"
		fi
		assert_eq "$name: $v spelling exits 0" $rc 0
	done
	assert_eq "$name: the warning" "$(cat "$T/old.err")" "$warn"
	assert_eq "$name: the new spelling is quiet" "$(cat "$T/new.err")" ""
	assert_same "$name: the same bytes" "$T/old.out" "$T/new.out"
}

W="the old spelling will go"
spelled "terode -s" "$T/n.tp" - "terode: -s is now -S (--seed); $W" \
    terode -q -n 500 -s 5 -- terode -q -n 500 -S 5
spelled "terode -s, -q after" "$T/n.tp" - "terode: -s is now -S (--seed); $W" \
    terode -n 500 -s5 -q -- terode -n 500 --seed 5 -q
spelled "texport -z" "$T/n.tp" "$T/e.r16" "texport: -z is now --zrange; $W" \
    texport -q -f r16 -z 0,2 "$T/e.r16" -- texport -q -f r16 --zrange 0,2 "$T/e.r16"
spelled "tgeotiff -z" "$T/n.tp" "$T/g.tif" "tgeotiff: -z is now --zrange; $W" \
    tgeotiff -q -z 0,1800 "$T/g.tif" -- tgeotiff -q --zrange 0,1800 "$T/g.tif"
spelled "timport -z" /dev/null - "timport: -z is now --zrange; $W" \
    timport -z 0,100 "$T/h.pgm" -- timport --zrange 0,100 "$T/h.pgm"
spelled "tview -z" "$T/n.tp" "$T/v.png" "tview: -z is now --exaggeration; $W" \
    tview -q -z 3 "$T/v.png" -- tview -q --exaggeration 3 "$T/v.png"
spelled "tview --zfactor" "$T/n.tp" "$T/v.png" \
    "tview: --zfactor is now --exaggeration; $W" \
    tview -q --zfactor 3 "$T/v.png" -- tview -q --exaggeration 3 "$T/v.png"
spelled "tview --contour" "$T/n.tp" "$T/v.png" \
    "tview: --contour is now --contours; $W" \
    tview -q --contour 0.1 "$T/v.png" -- tview -q --contours 0.1 "$T/v.png"
spelled "tflow -c" "$T/n.tp" - "tflow: -c is now --dir-codes; $W" \
    tflow -q -c grass -- tflow -q --dir-codes grass
# An old flag that stands for a new option with its argument.
spelled "tflow --mfd" "$T/n.tp" - "tflow: --mfd is now -m (--method) mfd; $W" \
    tflow -q --mfd -- tflow -q --method mfd
spelled "tvector -d" "$T/fg.tp" "$T/r.geojson" \
    "tvector: -d is now --dir-codes; $W" \
    tvector -q -r -d grass "$T/r.geojson" -- tvector -q -r --dir-codes grass "$T/r.geojson"
spelled "tvector -b" "$T/f.tp" "$T/b.geojson" "tvector: -b is now --basins; $W" \
    tvector -q -b "$T/b.geojson" -- tvector -q --basins "$T/b.geojson"
spelled "tcrop -b" "$T/n.tp" - "tcrop: -b is now --bbox; $W" \
    tcrop -b 500100,4648900,500900,4649500 -- tcrop --bbox 500100,4648900,500900,4649500
run_prog ttile -q --size 24 "$T/tiles" < "$T/n.tp"
for f in "$T"/tiles/*.tp; do cp "$f" "$f.x"; done
spelled "tmosaic -s" /dev/null - "tmosaic: -s is now --suffix; $W" \
    tmosaic -q -s .x "$T/tiles/manifest" -- tmosaic -q --suffix .x "$T/tiles/manifest"
spelled "tvector -qb, a cluster" "$T/f.tp" "$T/c.geojson" \
    "tvector: -b is now --basins; $W" \
    tvector -qb "$T/c.geojson" -- tvector -q --basins "$T/c.geojson"

# Once per use: three uses, three lines.
run_prog tview -q -z 1 --zfactor 2 -z 3 "$T/v.png" < "$T/n.tp" 2> "$T/three.err"
assert_eq "a warning per use" "$(grep -c 'is now --exaggeration' "$T/three.err")" 3
rm -f "$T/v.png"

# HISTORY holds the new long form whichever spelling made the stream.
run_prog terode -q -n 500 -s 5 < "$T/n.tp" 2>/dev/null > "$T/h.tp"
assert_eq "HISTORY of an old spelling" "$(header_lines "$T/h.tp" | tail -1)" \
    "HISTORY terode --droplets 500 --seed 5"

# A bad value after an old spelling names the new option.
expect_err 2 "texport: --zrange: want LO < HI" "bad value, old spelling" \
    run_prog texport -f r16 -z 5,1 "$T/x.r16" < "$T/n.tp"
# An old spelling's letter is not the new one's: -S is no old spelling.
expect_exit 2 "tgeotiff -Z is no option" run_prog tgeotiff -Z 0,1 "$T/x.tif" < "$T/n.tp"

# -S/--seed wherever a seed exists, the same as each other.
same_opt() {	# NAME IN SHORT LONG WORDS...: WORDS + SHORT = WORDS + LONG
	local name=$1 in=$2 s=$3 l=$4
	shift 4
	run_prog "$@" $s < "$in" > "$T/s.out" 2> "$T/s.err"
	assert_eq "$name $s exits 0" $? 0
	run_prog "$@" $l < "$in" > "$T/l.out" 2>> "$T/s.err"
	assert_eq "$name $l exits 0" $? 0
	assert_eq "$name: nothing on stderr" "$(cat "$T/s.err")" ""
	assert_same "$name: $s = $l" "$T/s.out" "$T/l.out"
}
same_opt tnoise /dev/null "-S 9" "--seed 9" tnoise -q -s 16x16
same_opt tridge "$T/n.tp" "-S 9" "--seed 9" tridge -q
same_opt terode "$T/n.tp" "-S 9" "--seed 9" terode -q -n 500
same_opt tisland "$T/n.tp" "-S 9" "--seed 9" tisland -q -w 0.3
same_opt ttexture "$T/n.tp" "-S 9" "--seed 9" ttexture -q \
    --materials "$T/m.txt" --ppc 1 /dev/stdout
# -z/--zscale wherever a zscale exists (texport: --zscale only while its -z
# is the old --zrange).
run_prog tnoise -q --band moisture -S 8 < "$T/f.tp" > "$T/w.tp"
same_opt tbiome "$T/w.tp" "-z 900" "--zscale 900" tbiome -q
same_opt tslope "$T/n.tp" "-z 900" "--zscale 900" tslope -q
same_opt tuplift "$T/n.tp" "-z 900" "--zscale 900" tuplift -q -s 2
same_opt terode "$T/n.tp" "-z 900" "--zscale 900" terode -q -n 500
same_opt ttexture "$T/n.tp" "-z 900" "--zscale 900" ttexture -q \
    --materials "$T/m.txt" --ppc 1 --shade /dev/stdout
run_prog texport -q -f normal --zscale 900 "$T/nm.png" < "$T/n.tp"
assert_eq "texport --zscale" $? 0

# Every message is one line: a name holding a newline or a control
# character is written escaped.
nl=$'a\nb'
for c in "tband --keep" "tflow -b" "tslope -b"; do
	run_prog ${c% *} "${c#* }" "$nl" < "$T/n.tp" > /dev/null 2> "$T/err"
	assert_eq "$c NAME-WITH-NEWLINE: one line" "$(head -n 1 "$T/err" | grep -cF "'a\\nb'")" 1
done
run_prog tinfo "$T/no"$'\n'"such" > /dev/null 2> "$T/err"
assert_eq "tinfo FILE-WITH-NEWLINE: one line" "$(wc -l < "$T/err") $(grep -c 'no\\nsuch' "$T/err")" "1 1"
run_prog tband --keep $'a\001' < "$T/n.tp" > /dev/null 2> "$T/err"
assert_eq "a control character as \\xNN" "$(head -n 1 "$T/err" | grep -c 'a\\x01')" 1

# Help and usage show only the new spellings, and the old ones once.
for p in terode tview texport tgeotiff timport tflow tvector tcrop tmosaic; do
	assert_eq "$p --help names the old spellings once" \
	    "$(run_prog $p --help | grep -ci 'old spelling')" 1
done
assert_eq "terode's usage" "$(run_prog terode --help | grep -c -- '-S SEED')" 1
assert_eq "tview's usage" "$(run_prog tview --help | grep -c -- '--exaggeration Z')" 2
finish
