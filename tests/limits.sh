#!/bin/bash
# limits: no stage allocates for the size a header declares before the
# input shows it is real. Headers declaring 2^30 cells a side with the body
# missing (or one row of it) are refused at once as truncated, with memory
# limited to 4 GB and ten seconds per run; before, tisland built an 8 GiB
# column table first, and tfeature an index of every declared row. Also
# the header limits of terrapipe(5), the CRLF message and getopt's
# complaints naming the program.
. "$(dirname "$0")/common.sh"

# Every program that reads a stream, with the arguments it needs.
progs=(
	"tband --keep height" "tcrop --window 0,0,1,1" terode tfill tflow
	"tgeotiff $T/o.tif" tinfo tisland "tnoise --band moisture" tridge
	tshape tterrace "tview $T/o.png" "tfeature $T/f.txt" tslope tuplift
	"texport -f r16 $T/o.r16" "tvector --contours 1 $T/o.gpkg" tindex
)
# tfeature's items: its index grows with them, not with the declared rows
printf 'base 10\nhill 500100 4649700 50 10\n' > "$T/f.txt"

limit_v=$(vm_limit 4000000)

# limited PROG ARGS...: run_prog under the memory and time limits.
limited() { ( ulimit -v "$limit_v"; exec timeout 10 $MEMCHECK "$@" ); }

hdr='TERRAPIPE 1\nWIDTH %s\nHEIGHT %s\nBANDS height\nCELLSIZE 30\nORIGIN 500000 4649776\nCRS EPSG:32633\nHISTORY tnoise\nENDHDR\n'
printf "$hdr" 1073741824 1 > "$T/wide"
printf "$hdr" 1 1073741824 > "$T/tall"
printf "$hdr" 1073741824 1073741824 > "$T/huge"
{ printf "$hdr" 4 1073741824; head -c 16 /dev/zero; } > "$T/onerow"

for p in "${progs[@]}"; do
	set -- $p
	for s in wide tall huge; do
		expect_err 1 "^$1: truncated stream: input ends at byte offset" \
		    "$1 on a $s header without a body" \
		    limited "$@" < "$T/$s"
	done
	# One real row: a stage may now hold a row, not the declared grid.
	case $1 in
	tflow|tindex) expect_err 1 "truncated stream\|more than this machine" \
	    "$1 on one row of 2^30" limited "$@" < "$T/onerow" ;;
	*) expect_err 1 "^$1: truncated stream: .* in row 1 of 1073741824" \
	    "$1 on one row of 2^30" limited "$@" < "$T/onerow" ;;
	esac
done
ls "$T"/o.* >/dev/null 2>&1 && fail "a file was left behind" || pass

# CELLSIZE 1e308 and the default ORIGIN: an infinite corner, refused by
# every stage (tgeotiff and tview used to write files with NaN corners).
printf 'TERRAPIPE 1\nWIDTH 2\nHEIGHT 2\nBANDS height\nCELLSIZE 1e308\nENDHDR\n' > "$T/inf"
head -c 16 /dev/zero >> "$T/inf"
for p in "${progs[@]}"; do
	set -- $p
	expect_err 1 "^$1: CELLSIZE x WIDTH is not a finite extent" \
	    "$1 on CELLSIZE 1e308" run_prog "$@" < "$T/inf"
done
[ -e "$T/o.tif" ] || [ -e "$T/o.png" ] && fail "a file with an infinite corner" || pass

# CRLF line endings are named as such.
printf 'TERRAPIPE 1\r\nWIDTH 1\r\nHEIGHT 1\r\nBANDS height\r\nENDHDR\r\n\0\0\0\0' > "$T/crlf"
expect_err 1 "^tshape: the stream has CRLF line endings (convert the header with dos2unix)" \
    "CRLF" run_prog tshape < "$T/crlf"
printf 'TERRAPIPE 1\nWIDTH 1\r\nHEIGHT 1\nBANDS height\nENDHDR\n\0\0\0\0' > "$T/cr"
expect_err 1 "^tinfo: header line 2 has a carriage return: CRLF line endings (convert with dos2unix)" \
    "a carriage return" run_prog tinfo < "$T/cr"

# More than 65536 header lines: refused before they are all read.
{ printf 'TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS height\n'
  yes A | head -n 1000000; printf 'ENDHDR\n\0\0\0\0'; } > "$T/lines"
expect_err 1 "^tshape: header has more than 65536 lines" "header lines" \
    run_prog tshape < "$T/lines"

# One number rule for header values and options: no '+', no spaces.
printf 'TERRAPIPE 1\nWIDTH +1\nHEIGHT 1\nBANDS height\nENDHDR\n\0\0\0\0' > "$T/plus"
expect_err 1 "WIDTH '+1' is not a size" "WIDTH +1" run_prog tshape < "$T/plus"
printf 'TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS height\nORIGIN 0  1\nENDHDR\n\0\0\0\0' > "$T/sp"
expect_err 1 "ORIGIN wants two finite numbers" "ORIGIN with two spaces" \
    run_prog tshape < "$T/sp"
echo 0 0 0 0 | mkstream 2 2 height > "$T/ok"
expect_err 2 "^tshape: --pow: '+2' is not a number" "--pow +2" \
    run_prog tshape --pow +2 < "$T/ok"
expect_err 2 "^tshape: --pow: ' 2' is not a number" "--pow ' 2'" \
    run_prog tshape --pow ' 2' < "$T/ok"
expect_err 2 "^tnoise: --seed: '0x10' is not a whole number" "--seed 0x10" \
    run_prog tnoise --seed 0x10 --size 2x2

# getopt's complaints name the program, not the path it was run by.
for p in tshape tgeotiff tview tinfo; do
	expect_err 2 "^$p: unrecognized option '--bogus'" "$p --bogus" \
	    run_prog "$TP_BIN/$p" --bogus < "$T/ok"
done
expect_err 2 "^tshape: option requires an argument -- 'j'" "tshape -j" \
    run_prog "$TP_BIN/tshape" -j < "$T/ok"

finish
