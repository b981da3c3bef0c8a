#!/bin/bash
# The files tgeotiff and tview write: a signal removes the temporary file
# and still ends the program; a signal ignored at start (nohup) stays
# ignored; links are followed, FIFOs and devices written, directories
# refused; a full disk gives the system's reason and leaves nothing. Both
# programs share this machinery (tp_outfile, cli_outfile), so one suite
# runs for each.
. "$(dirname "$0")/common.sh"

run_prog tnoise -q -s 512x512 -S 3 >"$T/in.tp"
# size FILE: the raster size GDAL reads from a GeoTIFF or PNG
size() { gdalinfo -json "$1" 2>/dev/null | "$PY" -c 'import json, sys; print(*json.load(sys.stdin)["size"])'; }
# wait_tmp DIR: poll until a temporary file shows in DIR (up to 10 s).
wait_tmp() {
	for _ in $(seq 1000); do
		ls "$1" | grep -q '\.tmp' && return 0
		sleep 0.01
	done
	return 1
}

# suite NAME EXT CMD...: the whole suite for the program CMD, writing .EXT.
# CMD streams (its temporary file appears before the input ends).
suite() {
	local name=$1 ext=$2 S=$T/$1 pid reader sig null full
	shift 2
	mkdir "$S"
	# The input is a FIFO held open after part of the stream, so the
	# program is mid-file, its temporary file there: no timing.
	mkfifo "$S/in"
	for sig in TERM INT HUP; do
		# A script's background job starts with SIGINT ignored; env
		# undoes that, as a shell with job control would.
		env --default-signal=HUP,INT,TERM $MEMCHECK "$@" "$S/o.$ext" <"$S/in" &
		pid=$!
		exec 3>"$S/in"
		head -c 300000 "$T/in.tp" >&3
		wait_tmp "$S"
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
	head -c 300000 "$T/in.tp" >&3
	wait_tmp "$S"
	kill -HUP "$pid"
	tail -c +300001 "$T/in.tp" >&3
	exec 3>&-
	{ wait "$pid"; } 2>/dev/null
	assert_eq "$name SIGHUP ignored on entry: completes" $? 0
	assert_eq "$name SIGHUP ignored on entry: the file" "$(size "$S/o.$ext")" "512 512"
	rm -f "$S/o.$ext"

	# Links are followed, FIFOs and devices written.
	echo old >"$S/real.$ext"
	ln -s "real.$ext" "$S/link.$ext"
	ok "$name through a symlink" run_prog "$@" "$S/link.$ext" <"$T/in.tp"
	assert_eq "$name: the link stays a link" \
	    "$([ -L "$S/link.$ext" ] && readlink "$S/link.$ext")" "real.$ext"
	assert_eq "$name: its target gets the file" "$(size "$S/real.$ext")" "512 512"
	mkfifo "$S/pipe.$ext"
	cat "$S/pipe.$ext" >"$S/read.$ext" &
	reader=$!
	ok "$name into a FIFO" run_prog "$@" "$S/pipe.$ext" <"$T/in.tp"
	[ -p "$S/pipe.$ext" ] || kill "$reader"	# replaced: the reader waits forever
	wait "$reader"
	assert_eq "$name: the FIFO stays a FIFO" "$([ -p "$S/pipe.$ext" ] && echo yes)" yes
	assert_eq "$name: its reader gets a valid file" "$(size "$S/read.$ext")" "512 512"
	# Device nodes of our own where we may make them, so that a program
	# that replaced them could never take the system's /dev/null with it.
	if mknod "$S/null" c 1 3 2>/dev/null && mknod "$S/full" c 1 7 &&
	    echo 2>/dev/null >"$S/null"; then
		null=$S/null full=$S/full
	else
		null=/dev/null full=/dev/full
	fi
	ok "$name into a null device" run_prog "$@" "$null" <"$T/in.tp"
	assert_eq "$name: it stays a character device" "$([ -c "$null" ] && echo yes)" yes
	expect_err 1 "cannot write '$full': No space left on device" "$name: a full device" \
	    run_prog "$@" "$full" <"$T/in.tp"
	assert_eq "$name: a full device stays a device" "$([ -c "$full" ] && echo yes)" yes
	mkdir "$S/dir.$ext"
	expect_err 1 "'$S/dir.$ext' is a directory" "$name: a directory" \
	    run_prog "$@" "$S/dir.$ext" <"$T/in.tp"
	assert_eq "$name: a directory: one line" "$(wc -l <"$T/.err")" 1
	assert_eq "$name: a directory: nothing in it or beside it" \
	    "$(ls -A "$S/dir.$ext"; ls "$S" | grep -c '\.tmp')" 0

	# A full disk: the system's reason, no partial file.
	mkdir "$S/disk"
	if mount -t tmpfs -o size=64k tmpfs "$S/disk" 2>/dev/null; then
		expect_err 1 "cannot write '$S/disk/f.$ext': No space left on device" \
		    "$name: a full disk" run_prog "$@" "$S/disk/f.$ext" <"$T/in.tp"
		assert_eq "$name: a full disk: one line" "$(wc -l <"$T/.err")" 1
		assert_eq "$name: a full disk: no partial file" "$(ls -A "$S/disk")" ""
		umount "$S/disk"
	else
		echo "$name: cannot mount a tmpfs here: full disk checked on $full only" >&2
	fi
}

trap 'umount "$T"/*/disk 2>/dev/null; rm -rf "$T"' EXIT
suite tgeotiff tif tgeotiff -c none
suite tview png tview --range 0,1
finish
