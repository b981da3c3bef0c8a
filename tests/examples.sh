#!/bin/bash
# examples: every command in the EXAMPLES section of every man page runs,
# so an example can never rot. Each literal block (.Bd -literal ... .Ed,
# or a .Dl line) is taken from the page as mandoc would print it, made
# small (below), and run by bash with -e and pipefail on a terminal, in a
# directory of its own holding the input files it reads, the built programs
# first on PATH. It must exit 0, and every file it writes (after > or -o,
# tgeotiff's and tview's file, any name that is not a fixture; for texport
# -f weights its NAME_N_SLOT.png maps, with --tile-size its NAME.json) must
# exist,
# be non-empty and be newer than the start of the run.
#
# Made small, so the whole test takes seconds, the same way every time:
#   tnoise --size W x H     each side over 64 divided by 32 (2048 -> 64),
#                           --cellsize times 32 when a side shrinks, so the
#                           extent in map units (and --origin, --bbox and
#                           --frequency with it) stays as written; a tnoise
#                           without --size (1024x1024) gets --size 32x32
#   tcrop --window          every number divided by 32, as the grids are
#   terode --droplets N     N / 1000
# Files the examples read are small fixtures written here (see fixtures).
. "$(dirname "$0")/common.sh"
MAN_DIR=$ROOT/man

# Commands no test machine can run, by a regular expression on the whole
# command (continuation lines joined). Keep this list tiny: each entry says
# why, and the rest of its block still runs.
SKIP=(
	'^grass '	# GRASS GIS is not a dependency of terrapipe
	'^r\.[a-z.]+ '	# a GRASS module: runs only inside a GRASS session
	'/vsicurl/'	# reads a file over the network
)

# fixtures DIR: the files the examples read, each as small as will do.
fixtures() {
	local d=$1
	mkdir -p "$d"
	for f in dem.tif elev.tif jacksboro_fault_dem.tif; do
		cp "$DATA/jacksboro_fault_dem.tif" "$d/$f"
	done
	# the island of tisland(1)'s first example, made small
	tnoise -q --size 64x64 --seed 7 --warp 0.3 | tisland -q --warp 0.2 |
	    tshape -q --curve valleys | tterrace -q --steps 8 > "$d/island.tp"
	# tgeotiff(1)'s island, georeferenced in UTM as its example writes it
	tnoise -q --size 64x64 --cellsize 960 --origin 500000,4650000 \
	    --crs EPSG:32633 --seed 7 | tisland -q |
	    tgeotiff -q --zrange 0,1800 "$d/island.tif"
	# tflow(1)'s world, with a band of biome codes 0..15 of one's own
	tnoise -q --size 64x64 --seed 7 | tisland -q | tfill -q |
	    tflow -q --rivers 8 | tnoise -q --band moisture --seed 8 > "$d/w0.tp"
	py 'h, a = read(sys.argv[1])
b = np.floor(a[:, 0:1, :] * 4).clip(0, 3) * 4 + np.floor(a[:, 4:5, :] * 4).clip(0, 3)
extra = ["%s %s" % (k, h[k]) for k in ("CELLSIZE", "ORIGIN") if k in h]
write(np.concatenate([a, b], axis=1), h["BANDS"] + " biome", extra, sys.argv[2])' \
	    "$d/w0.tp" "$d/world.tp"
	rm "$d/w0.tp"
	# a 16-bit PNG heightmap and a raw float32 array, 1024 x 768
	py 'from osgeo import gdal
m = gdal.GetDriverByName("MEM").Create("", 48, 32, 1, gdal.GDT_UInt16)
m.GetRasterBand(1).WriteArray((np.arange(48 * 32) * 40).reshape(32, 48).astype(np.uint16))
gdal.GetDriverByName("PNG").CreateCopy(sys.argv[1], m)
np.add.outer(np.arange(768.0), np.arange(1024.0)).astype("<f4").tofile(sys.argv[2])' \
	    "$d/terrain.png" "$d/h.f32"
}

fixtures "$T/fix"

# Cut the pages into blocks: $T/ex/N.sh (the commands), N.where (page and
# line), N.out (the files it writes, as shell patterns), N.in (the
# fixtures it reads), N.skip (the commands skipped). Prints the pages that
# have no EXAMPLES section and anything it cannot read.
problems=$(py - "$MAN_DIR" "$T/ex" "$T/fix" "${SKIP[@]}" <<'EOF'
import glob, os, re
man, out, fix, skips = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
F = 32
os.makedirs(out)
fixtures = set(os.listdir(fix))

def blocks(path):
    """(line number, text) of each literal block under .Sh EXAMPLES."""
    sec, cur, start = None, None, 0
    for n, line in enumerate(open(path).read().split("\n"), 1):
        if line.startswith(".Sh "):
            sec = line[4:].strip()
        elif sec != "EXAMPLES":
            continue
        elif line.startswith(".Bd -literal"):
            cur, start = [], n
        elif line.startswith(".Ed") and cur is not None:
            yield start, "\n".join(cur)
            cur = None
        elif cur is not None:
            cur.append(line)
        elif line.startswith(".Dl "):
            yield n, re.sub(r"^\$ ", "", line[4:])

def unescape(text, where):
    bad = re.findall(r"\\[^e]", text.replace("\\e", ""))
    if bad:
        print("%s: roff escapes this test does not know: %s" % (where, bad))
    return text.replace("\\e", "\\")

def shrink_size(m):
    w, h = int(m.group(2)), int(m.group(3))
    if max(w, h) <= 64:
        return m.group(0)
    return "%s %dx%d" % (m.group(1), max(8, w // F), max(8, h // F))

def tnoise(m):
    s = m.group(0)
    if re.search(r"(^|\s)(--band|-b)(\s|=)", s):
        return s
    size = re.search(r"(-s|--size)\s+(\d+)x(\d+)", s)
    if size is None:
        return "tnoise --size 32x32" + s[len("tnoise"):]
    t = re.sub(r"(-s|--size)\s+(\d+)x(\d+)", shrink_size, s)
    if t != s:
        t = re.sub(r"(-c|--cellsize)\s+([0-9.]+)",
                   lambda c: "%s %g" % (c.group(1), float(c.group(2)) * F), t)
    return t

def shrink(cmd):
    stage = r"[^|;&]*"
    cmd = re.sub(r"\btnoise\b" + stage, tnoise, cmd)
    cmd = re.sub(r"\bterode\b" + stage, lambda m: re.sub(
        r"(-n|--droplets)\s+(\d+)",
        lambda n: "%s %d" % (n.group(1), max(1, int(n.group(2)) // 1000)),
        m.group(0)), cmd)
    return re.sub(r"\btcrop\b" + stage, lambda m: re.sub(
        r"(-w|--window)\s+(\d+),(\d+),(\d+),(\d+)",
        lambda w: "%s %d,%d,%d,%d" % (w.group(1), int(w.group(2)) // F,
            int(w.group(3)) // F, max(1, int(w.group(4)) // F),
            max(1, int(w.group(5)) // F)), m.group(0)), cmd)

NAME = r"[A-Za-z0-9_.${}*-]+\.(?:tif|png|vrt|tp|f32)\b"
i = 0
pages = sorted(glob.glob(man + "/*.[15]"))
for page in pages:
    found = False
    for line, text in blocks(page):
        found = True
        where = "%s:%d" % (os.path.basename(page), line)
        text = unescape(text, where)
        # whole commands: a line ending in a backslash goes on
        cmds = re.split(r"(?<!\\)\n", text)
        skipped = [c for c in cmds if any(re.search(s, c) for s in skips)]
        run = [shrink(c) for c in cmds if c not in skipped]
        script = "\n".join(run)
        names = set(re.findall(NAME, script))
        # written: after > or -o, the file of tgeotiff and tview, and
        # every name that is not a fixture
        outs = set(re.findall(r"(?:>|-o)\s*(" + NAME + ")", script))
        for st in re.findall(r"\bt(?:geotiff|view)\b[^|;&<>\n]*(?:\\\n[^|;&<>\n]*)*", script):
            outs |= set(re.findall(NAME, st))
        outs |= names - fixtures
        # texport --tile-size writes NAME's tiles and NAME.json, not NAME
        for st in re.findall(r"\btexport\b(?:[^|;&<>\n\\]|\\\n)*", script):
            if "--tile-size" in st:
                for n in re.findall(NAME, st):
                    if n in outs:
                        outs = (outs - {n}) | {n + ".json"}
        # texport -f weights writes NAME_0_SLOT.png, ..., not NAME.png
        for st in re.findall(r"\btexport\b[^|;&\n]*-f weights[^|;&\n]*", script):
            for n in re.findall(NAME, st):
                if n in outs and n.endswith(".png"):
                    outs = (outs - {n}) | {n[:-4] + "_[0-9]*_*.png"}
        i += 1
        base = "%s/%03d" % (out, i)
        open(base + ".sh", "w").write(script + "\n")
        open(base + ".where", "w").write(where + "\n")
        open(base + ".skip", "w").write("".join(c + "\n" for c in skipped))
        open(base + ".out", "w").write("".join(
            re.sub(r"\$\{?\w+\}?", "*", o) + "\n" for o in sorted(outs)))
        open(base + ".in", "w").write("".join(
            n + "\n" for n in sorted((names - outs) & fixtures)))
    if not found:
        print("%s: no literal block under EXAMPLES" % os.path.basename(page))
EOF
)
assert_eq "every page has examples this test reads" "$problems" ""

# run N: block N in a directory of its own with the fixtures it reads, on
# a terminal as a reader would type it (script(1)), so a pipeline that
# ends in a stream on the terminal fails as it would there; what the
# terminal showed goes to .tty. A hang counts as a failure. python3 is
# Debian's, which has numpy.
run() {
	local d=$T/run/$1 f
	mkdir -p "$d"
	while read -r f; do cp "$T/fix/$f" "$d/"; done < "$T/ex/$1.in"
	touch -d '-2 seconds' "$d/.start"
	(cd "$d" && PATH="$progs:/usr/bin:/bin:$PATH" timeout 120 script -qec \
	    "bash -e -o pipefail $(printf %q "$T/ex/$1.sh")" /dev/null \
	    < /dev/null > .tty)
}

# The programs the examples call: with MEMCHECK set, each one a wrapper
# that runs the real program under it, as run_prog does for other tests.
progs=$TP_BIN
if [ -n "$MEMCHECK" ]; then
	progs=$T/wrap
	mkdir -p "$progs"
	for p in "$TP_BIN"/t*; do
		printf '#!/bin/sh\nexec %s %q "$@"\n' "$MEMCHECK" "$p" \
		    > "$progs/${p##*/}"
		chmod +x "$progs/${p##*/}"
	done
fi

count=0
for sh in "$T"/ex/*.sh; do
	n=$(basename "$sh" .sh)
	where=$(cat "$T/ex/$n.where")
	count=$((count + 1))
	run "$n"
	rc=$?
	if [ $rc != 0 ]; then
		fail "$where: exit $rc: $(tr -d '\r' < "$T/run/$n/.tty" | tail -c 300)"
		continue
	fi
	pass
	while read -r pat; do
		set -- $(cd "$T/run/$n" && eval "ls -d $pat" 2>/dev/null)
		if [ $# = 0 ]; then
			fail "$where: no $pat written"
			continue
		fi
		for f; do
			if [ -s "$T/run/$n/$f" ] && [ "$T/run/$n/$f" -nt "$T/run/$n/.start" ]; then
				pass
			else
				fail "$where: $f is empty or was not written"
			fi
		done
	done < "$T/ex/$n.out"
done
# The pages hold this many blocks or more; fewer means the parser lost some.
[ "$count" -ge 50 ] && pass || fail "only $count example blocks found"
finish
