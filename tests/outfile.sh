#!/bin/bash
# The files every program that writes a named file writes (tgeotiff, tview,
# texport's heightmaps, splat maps and normal maps, ttexture's PNG and
# GeoTIFF, tvector's GeoJSON and GeoPackage): a signal removes the
# temporary file(s) and still ends the program; a signal ignored at start
# (nohup) stays ignored; links are followed, FIFOs and devices written,
# directories and missing directories refused; a full disk gives the
# system's reason and leaves nothing. All share one transaction
# (cli_outfile over tp_outfile), so one suite runs for each.
. "$(dirname "$0")/common.sh"

run_prog tnoise -q -s 512x512 -S 3 >"$T/in.tp"
# size FILE: what a whole file holds: the raster size GDAL reads from a
# GeoTIFF or PNG, the features OGR reads from a vector file, else (raw) the
# byte count
size() {
	case $1 in
	*.geojson|*.gpkg)
		ogrinfo -ro -al -so "$1" 2>/dev/null | sed -n 's/^Feature Count: //p' ;;
	*.r16)	wc -c <"$1" ;;
	*)	gdalinfo -json "$1" 2>/dev/null | "$PY" -c 'import json, sys; print(*json.load(sys.stdin)["size"])' ;;
	esac
}
# wait_tmp DIR: poll until a temporary file shows in DIR (up to 10 s).
wait_tmp() {
	for _ in $(seq 1000); do
		ls "$1" | grep -q '\.tmp' && return 0
		sleep 0.01
	done
	return 1
}

# suite NAME EXT CMD...: the whole suite for the program CMD, writing .EXT,
# reading $IN (default: the noise above). CMD streams: its temporary file
# appears after $FEED bytes of input (default 300000; a program that reads
# its input whole before it writes, all of it: it must then write for long
# enough to be caught at it; the input is then closed, as it must end).
# $SIDECAR: CMD also writes FILE.json. $FULL: what CMD says of a full disk
# when it is not the system's reason.
suite() {
	local name=$1 ext=$2 S=$T/$1 pid reader sig null full want
	local in=${IN:-$T/in.tp} feed=${FEED:-300000}
	local whole=$(( feed >= $(stat -c %s "${IN:-$T/in.tp}") ))
	shift 2
	mkdir "$S"
	run_prog "$@" "$T/$name-ref.$ext" <"$in"
	want=$(size "$T/$name-ref.$ext")
	[ -n "$want" ] || fail "$name: no reference file"
	# The input is a FIFO held open after part of the stream, so the
	# program is mid-file, its temporary file there: no timing.
	mkfifo "$S/in"
	for sig in TERM INT HUP; do
		# A script's background job starts with SIGINT ignored; env
		# undoes that, as a shell with job control would.
		env --default-signal=HUP,INT,TERM $MEMCHECK "$@" "$S/o.$ext" <"$S/in" &
		pid=$!
		exec 3>"$S/in"
		head -c "$feed" "$in" >&3
		[ "$whole" = 0 ] || exec 3>&-
		wait_tmp "$S" || fail "$name SIG$sig: no temporary file seen"
		kill -"$sig" "$pid"
		{ wait "$pid"; } 2>/dev/null
		assert_eq "$name SIG$sig: dies of it" $? $((128 + $(kill -l "$sig")))
		exec 3>&-
		assert_eq "$name SIG$sig: no temporary file" "$(ls "$S")" in
	done
	# Ignored on entry (nohup, trap '' HUP): stays ignored, the file is made.
	(trap '' HUP; exec $MEMCHECK "$@" "$S/o.$ext") <"$S/in" &
	pid=$!
	exec 3>"$S/in"
	head -c "$feed" "$in" >&3
	[ "$whole" = 0 ] || exec 3>&-
	wait_tmp "$S"
	kill -HUP "$pid"
	[ "$whole" = 1 ] || tail -c +$((feed + 1)) "$in" >&3
	exec 3>&-
	{ wait "$pid"; } 2>/dev/null
	assert_eq "$name SIGHUP ignored on entry: completes" $? 0
	assert_eq "$name SIGHUP ignored on entry: the file" "$(size "$S/o.$ext")" "$want"
	rm -f "$S"/o*

	# Links are followed, FIFOs and devices written.
	echo old >"$S/real.$ext"
	ln -s "real.$ext" "$S/link.$ext"
	ok "$name through a symlink" run_prog "$@" "$S/link.$ext" <"$in"
	assert_eq "$name: the link stays a link" \
	    "$([ -L "$S/link.$ext" ] && readlink "$S/link.$ext")" "real.$ext"
	assert_eq "$name: its target gets the file" "$(size "$S/real.$ext")" "$want"
	mkfifo "$S/pipe.$ext"
	cat "$S/pipe.$ext" >"$S/read.$ext" &
	reader=$!
	ok "$name into a FIFO" run_prog "$@" "$S/pipe.$ext" <"$in"
	[ -p "$S/pipe.$ext" ] || kill "$reader"	# replaced: the reader waits forever
	wait "$reader"
	assert_eq "$name: the FIFO stays a FIFO" "$([ -p "$S/pipe.$ext" ] && echo yes)" yes
	assert_eq "$name: its reader gets a valid file" "$(size "$S/read.$ext")" "$want"
	# Device nodes of our own where we may make them, so that a program
	# that replaced them could never take the system's /dev/null with it.
	# Named OUT.EXT: tvector knows its format by the name.
	if mknod "$S/null.$ext" c 1 3 2>/dev/null &&
	    mknod "$S/full.$ext" c 1 7 && echo 2>/dev/null >"$S/null.$ext"; then
		null=$S/null.$ext full=$S/full.$ext
	else
		null=/dev/null full=/dev/full
	fi
	# (beside the system's /dev/null no sidecar can be made but by root,
	# and tvector needs the name's extension)
	if [ "$null" = /dev/null ] && { [ "$name" != "${name#tvector}" ] ||
	    { [ -n "${SIDECAR:-}" ] && [ ! -w /dev ]; }; }; then
		echo "$name: no device nodes of our own: devices not checked" >&2
	else
		ok "$name into a null device" run_prog "$@" "$null" <"$in"
		assert_eq "$name: it stays a character device" "$([ -c "$null" ] && echo yes)" yes
		expect_err 1 "cannot write '$full': No space left on device" \
		    "$name: a full device" run_prog "$@" "$full" <"$in"
		assert_eq "$name: a full device: one line" "$(wc -l <"$T/.err")" 1
		assert_eq "$name: a full device stays a device" "$([ -c "$full" ] && echo yes)" yes
	fi
	mkdir "$S/dir.$ext"
	expect_err 1 "'$S/dir.$ext' is a directory" "$name: a directory" \
	    run_prog "$@" "$S/dir.$ext" <"$in"
	assert_eq "$name: a directory: one line" "$(wc -l <"$T/.err")" 1
	assert_eq "$name: a directory: nothing in it or beside it" \
	    "$(ls -A "$S/dir.$ext"; ls "$S" | grep -c '\.tmp')" 0
	expect_err 1 "cannot create a file beside '$S/none/f.$ext': No such file or directory" \
	    "$name: a missing directory" run_prog "$@" "$S/none/f.$ext" <"$in"
	assert_eq "$name: a missing directory: one line" "$(wc -l <"$T/.err")" 1
	assert_eq "$name: a missing directory: not made" "$([ -e "$S/none" ] && echo made)" ""

	# A full disk: the system's reason, no partial file. All of it is
	# taken, so that even a small file (a PNG of little detail) fills it.
	mkdir "$S/disk"
	if mount -t tmpfs -o size=64k tmpfs "$S/disk" 2>/dev/null; then
		head -c 64k /dev/zero 2>/dev/null >"$S/disk/taken"
		expect_err 1 "${FULL:-cannot write '$S/disk/f.$ext': No space left on device}" \
		    "$name: a full disk" run_prog "$@" "$S/disk/f.$ext" <"$in"
		assert_eq "$name: a full disk: one line" "$(wc -l <"$T/.err")" 1
		assert_eq "$name: a full disk: no partial file" "$(ls -A "$S/disk")" taken
		umount "$S/disk"
	else
		echo "$name: cannot mount a tmpfs here: full disk checked on $full only" >&2
	fi
}

trap 'umount "$T"/*/disk 2>/dev/null; rm -rf "$T"' EXIT
suite tgeotiff tif tgeotiff -c none
suite tview png tview --range 0,1
SIDECAR=1 suite texport-png16 png texport -q --zrange 0,1
SIDECAR=1 suite texport-r16 r16 texport -q -f r16 --zrange 0,1
suite texport-normal png texport -q -f normal
# ttexture: one texture, a picture of the noise; a pixel a cell
run_prog tnoise -q -s 8x8 -S 5 | run_prog tview -q "$T/tex.png"
printf '* %s 8\n' "$T/tex.png" >"$T/mat.txt"
suite ttexture png ttexture -q --materials "$T/mat.txt" --ppc 1
suite ttexture-tif tif ttexture -q --materials "$T/mat.txt" --ppc 1
# tvector reads its input whole, then writes for a few seconds; its
# writers say less of a full disk (SQLite words its own).
FEED=$(stat -c %s "$T/in.tp") FULL="cannot write the GeoJSON file" \
    suite tvector geojson tvector -q -c 0.002
FEED=$(stat -c %s "$T/in.tp") FULL="database or disk is full" \
    suite tvector-gpkg gpkg tvector -q -c 0.005

# Splat maps: two pictures (slots 0 .. 4), each a transaction.
py 'b = np.full((512, 512), 10.0, "float32"); b[:, 256:] = 2; b[300:, :100] = 6
b[400:, 400:] = 16; b[:50, :50] = 3
write(b, "biome", [], sys.argv[1])' "$T/biome.tp"
printf 'grassland 0\nbeach 1\nsnow 2\nrock 3\nscorched 4\n* 0\n' >"$T/groups"
IN=$T/biome.tp suite splat png texport -q -f splat --biome-groups "$T/groups"
# The second picture refused (a directory by its name): the first, begun,
# is removed too.
S=$T/splat2
mkdir -p "$S/d_1.png"
expect_err 1 "'$S/d_1.png' is a directory" "splat: second picture refused" \
    run_prog texport -q -f splat --biome-groups "$T/groups" "$S/d.png" <"$T/biome.tp"
assert_eq "splat: second picture refused: one line" "$(wc -l <"$T/.err")" 1
assert_eq "splat: second picture refused: nothing left" "$(ls -A "$S")" d_1.png
finish
