# tests/common.sh - sourced by every tests/NAME.sh.
#
# Finds the programs in $TP_BIN (default bin/), prefixes them with $MEMCHECK
# when set (e.g. MEMCHECK="valgrind -q --error-exitcode=99"), gives each test
# a scratch directory $T, counts assertions and prints
# "NAME: N passed, M failed" at the end (finish). Streams are read and
# written through tests/tp.py (the py function) and the shell helpers below
# (values, header, header_lines, body), never by hand.
set -u
# Progress lines only where a test asks for them (tests/progress.sh).
unset TERRAPIPE_PROGRESS TERRAPIPE_PROGRESS_SECONDS
TESTS_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$TESTS_DIR/.." && pwd)
TP_BIN=${TP_BIN:-$ROOT/bin}
case $TP_BIN in /*) ;; *) TP_BIN=$ROOT/$TP_BIN ;; esac
PATH=$TP_BIN:$PATH
export PATH
DATA=$TESTS_DIR/data
MEMCHECK=${MEMCHECK:-}
TEST_NAME=$(basename "$0" .sh)
T=$(mktemp -d "${TMPDIR:-/tmp}/tp-$TEST_NAME.XXXXXX")
trap 'rm -rf "$T"' EXIT
# $PY runs python3 (Debian's, with numpy, from python3-gdal) through one
# server per script that imports numpy once and forks a child per command
# line (tests/pyserve.py, tests/pyrun): each check still runs on its own,
# with its own arguments, stdin, output and exit status, at a fraction of
# the cost of a fresh interpreter. The server leaves when this shell does.
TP_PYREAL=${TP_PYREAL:-/usr/bin/python3}
PY=$TESTS_DIR/pyrun
# The server is started from a subshell that exits at once, so it is no
# child of this shell and a test's bare `wait` cannot wait for it (once,
# disowned, it still held timport.sh's wait for good); it leaves when this
# shell ($$) does.
if mkfifo "$T/.pyq"; then
	TP_PYSERVER=$( ("$TP_PYREAL" "$TESTS_DIR/pyserve.py" "$T/.pyq" $$ \
	    </dev/null >/dev/null 2>"$T/.pyserve.err" & echo $!) )
	TP_PYQUEUE=$T/.pyq
	export TP_PYREAL TP_PYSERVER TP_PYQUEUE
	trap 'kill "$TP_PYSERVER" 2>/dev/null; rm -rf "$T"' EXIT
fi
export GDAL_PAM_ENABLED=NO	# no .aux.xml beside files gdalinfo reads
n_pass=0
n_fail=0

pass() { n_pass=$((n_pass + 1)); }
fail() { n_fail=$((n_fail + 1)); printf 'FAIL %s: %s\n' "$TEST_NAME" "$*" >&2; }

# vm_limit KB: KB for ulimit -v, or unlimited under a sanitizer or
# valgrind, whose runtimes reserve terabytes of address space.
vm_limit() {
	if [ -n "$MEMCHECK" ] || nm "$TP_BIN/tshape" 2>/dev/null | grep -q __asan_init
	then echo unlimited; else echo "$1"; fi
}

# run_prog CMD ARGS...: run a terrapipe program under $MEMCHECK. Every
# program a test starts goes through here, each stage of a pipeline too, so
# MEMCHECK covers the whole suite; to keep what a checked run printed:
# ok DESC run_prog PROG ... < IN; cp "$T/.out" OUT.
run_prog() { $MEMCHECK "$@"; }

# ok DESC CMD...: the command exits 0.
ok() {
	d=$1; shift
	if "$@" >"$T/.out" 2>"$T/.err"; then pass; else
		fail "$d (exit $?): $(head -c 300 "$T/.err")"; fi
}

# expect_exit CODE DESC CMD...: the command exits CODE and, for CODE != 0,
# prints exactly one line "PROG: ..." on stderr (the last line is checked).
expect_exit() {
	code=$1 d=$2; shift 2
	"$@" >"$T/.out" 2>"$T/.err"
	got=$?
	if [ "$got" != "$code" ]; then
		fail "$d: exit $got, expected $code: $(head -c 300 "$T/.err")"
		return
	fi
	if [ "$code" != 0 ] && ! grep -q '^[a-z0-9_]*: ' "$T/.err"; then
		fail "$d: no 'prog: message' on stderr: $(head -c 300 "$T/.err")"
		return
	fi
	pass
}

# expect_err CODE PATTERN DESC CMD...: exit CODE and stderr matches PATTERN.
expect_err() {
	code=$1 pat=$2 d=$3; shift 3
	"$@" >"$T/.out" 2>"$T/.err"
	got=$?
	if [ "$got" != "$code" ]; then
		fail "$d: exit $got, expected $code: $(head -c 300 "$T/.err")"
	elif ! grep -q -- "$pat" "$T/.err"; then
		fail "$d: stderr lacks '$pat': $(head -c 300 "$T/.err")"
	else pass; fi
}

# assert_eq DESC ACTUAL EXPECTED
assert_eq() {
	if [ "$2" = "$3" ]; then pass; else fail "$1: got '$2', expected '$3'"; fi
}

# assert_near DESC ACTUAL EXPECTED TOL
assert_near() {
	if awk -v a="$2" -v b="$3" -v t="$4" \
	    'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; then
		pass
	else fail "$1: got $2, expected $3 within $4"; fi
}

# assert_same DESC FILE1 FILE2: byte-identical files.
assert_same() {
	if cmp -s "$2" "$3"; then pass; else fail "$1: $2 and $3 differ"; fi
}

# py SCRIPT ARGS... (or py - ARGS... <<'EOF'): Python with numpy as np, sys
# and tests/tp.py's stream helpers (read, grid, band, bands, floats, write,
# drain_check) imported; ARGS are sys.argv[1:].
py() {
	local script
	if [ "$1" = - ]; then script=$(cat); else script=$1; fi
	shift
	PYTHONPATH=$TESTS_DIR${PYTHONPATH:+:$PYTHONPATH} "$PY" -c "from tp import *
$script" "$@"
}

# mkstream W H "BANDS" [KEY VALUE lines] < numbers: a stream on stdout from
# whitespace-separated sample values (nan allowed) in stream order.
mkstream() {
	py 'w, h, bands, *extra = sys.argv[1:]
v = np.array(sys.stdin.read().split(), float).astype("<f4")
sys.stdout.buffer.write(stream_bytes(int(w), int(h), bands, extra, v.tobytes()))' "$@"
}

# values FILE: the samples of a stream, one per line (%.9g), in stream order.
values() { py 'print("".join("%.9g\n" % v for v in floats(sys.argv[1])), end="")' "$1"; }

# header FILE KEY: the value of header key KEY (first occurrence).
header() { header_lines "$1" | awk -v k="$2" '$1 == k { sub(/^[^ ]* /, ""); print; exit }'; }

# header_lines FILE: the header's lines, TERRAPIPE 1 up to (without) ENDHDR.
header_lines() { sed -n '/^ENDHDR$/q;p' "$1"; }

# body_offset FILE: the byte offset where the samples begin.
body_offset() { py 'print(len(split(open(sys.argv[1], "rb").read())[0]))' "$1"; }

# body FILE: the sample bytes of a stream (headers differ in HISTORY).
body() { tail -c +$(( $(body_offset "$1") + 1 )) "$1"; }

finish() {
	printf '%s: %d passed, %d failed\n' "$TEST_NAME" "$n_pass" "$n_fail"
	[ "$n_fail" = 0 ]
}
