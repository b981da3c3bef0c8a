#!/bin/bash
# docs: README.md and docs/*.md run as printed. Every indented block (four
# spaces, after a blank line) is cut out and is either
#   run          as a bash script with -e and pipefail on a terminal
#                (script(1)), the built programs first on PATH, as README's
#                Set-up leaves them; README.md first, then docs/*.md by
#                name, all in one directory, so a block reads what an
#                earlier one wrote (island.tp from README's whole world);
#                it must exit 0 and every file it writes (after > or -o,
#                tgeotiff's, tview's, texport's and tvector's file; for
#                texport --tile-size its sidecar, for -f weights its first
#                map) must be there, non-empty and new;
#   no commands  (TEXT below: the stream's header, the layout trees, a
#                table a script prints), named by a pattern on its first
#                line;
#   a command and what it prints (PRINTS below: the command is not run
#                here, for the reason given);
#   not run here (SKIP below: one entry per command, with the reason), the
#                rest of its block still running.
# An entry of TEXT, PRINTS or SKIP that matches nothing fails, so no list
# outlives what it names, and a block in none that fails is a failure: a
# new block of prose must be listed, a new command must run.
#
# The files the blocks name and do not make are fixtures written here:
# dem.tif (tests/data/jacksboro_fault_dem.tif), any.vrt (a VRT of it) and
# N36W085.hgt (an SRTM tile around it, mostly nodata), and share/ (the
# repository's, as a reader at its root has it). Nothing is made
# smaller: the whole world runs at README's 2048x2048 (seconds). With
# DOCS_KEEP=DIR in the environment the blocks as cut are copied there.
. "$(dirname "$0")/common.sh"

DOCS=("$ROOT/README.md" "$ROOT"/docs/*.md)

# Blocks that are no commands: FILE|PATTERN on the block's first line|what.
TEXT=(
	'README.md|^TERRAPIPE 1$|the stream header'
	'README.md|^cmd/ |the layout tree'
	'ARCHITECTURE.md|^cmd/ |the layout tree'
	'ARCHITECTURE.md|^core +nothing of lib/|the folders each folder may include'
	'ARCHITECTURE.md|^stdin -> cli_input_band|the path of a row through a point stage'
	'GIS.md|^grid +cells +nan|the table scripts/richdem-compare.sh prints'
	'ENGINES.md|^texport: warning: --crop: 403x344|what the texport above prints'
	'TILES.md|^phase 1 \(ttile\)|what scripts/kill-cycle.sh printed'
)
# Blocks of a command and its output, the command not run here:
# FILE|PATTERN on the command, the block's first line|why.
PRINTS=(
	'GIS.md|^TAUDEM_BIN=|TauDEM, built by hand, is not a dependency'
	'GIS.md|^scripts/rain-figure.sh$|it rewrites docs/gallery/rain-models.png in the source tree'
	'GIS.md|^\$ scripts/breach-compare.sh$|a comparison script and what it printed (tests/tfill.sh tests the breach)'
	'GIS.md|^\$ scripts/zones-compare.sh$|GRASS, not a dependency; what the script printed (tests/tinfo.sh tests the zones)'
)
# Commands not run here: FILE|PATTERN on the command (its first line)|why.
SKIP=(
	'README.md|^make demo|a build target: the programs are built ($TP_BIN), and make check runs this test'
	'README.md|^make check|make check runs this test: it would run itself'
	'README.md|^export PATH=|PATH already leads to the built programs ($TP_BIN)'
	'README.md|scripts/tiled-hydro .*--sshlogin :,node1|needs a second machine, node1, over ssh, and a directory both share'
	'TILES.md|scripts/tiled-hydro .*--sshlogin :,node1|needs a second machine, node1, over ssh, and a directory both share'
	'TILES.md|^ttile --size 16384 /shared/t|a 16384x16384 stream (dem.tp) and a shared directory /shared/t of a cluster'
	'TILES.md|^scripts/tiled-hydro.slurm submit|Slurm: no slurmctld here (tests/tiled.sh runs its commands by hand)'
	'GIS.md|^r\.in\.gdal input=island.tif|GRASS GIS is not a dependency of terrapipe; r.* run only inside a GRASS session'
	'GIS.md|^g\.region |GRASS GIS (as above)'
	'GIS.md|^r\.in\.gdal input=hydro.tif|GRASS GIS (as above)'
	'GIS.md|^r\.in\.gdal input=dm.tif|GRASS GIS (as above)'
	'GIS.md|^r\.out\.gdal |GRASS GIS (as above)'
	'GIS.md|^qgis |QGIS is a desktop program, not a dependency'
	"GIS.md|^iface\\.activeLayer\\(\\)\\.loadNamedStyle|QGIS's Python console, not a shell"
	"GIS.md|^iface\\.activeLayer\\(\\)\\.triggerRepaint|QGIS's Python console, not a shell"
	'GIS.md|^git --git-dir=RICHDEM.git|a clone of RichDEM (RICHDEM.git) and its compiler: not dependencies'
	'QGIS.md|^make install PREFIX=/usr|a build target that writes to /usr'
	'QGIS.md|^make qgis-zip|a build target (the zip from the source tree)'
	'QGIS.md|^qgis_process run|QGIS with the plugin enabled in a profile: tests/qgis.sh runs these in one of its own'
	'GIS.md|^scripts/richdem-compare.sh|builds RichDEM from the clone above'
)

# fixtures DIR: the files the blocks read and do not make.
fixtures() {
	local d=$1
	mkdir -p "$d"
	cp "$DATA/jacksboro_fault_dem.tif" "$d/dem.tif"
	ln -s "$ROOT/share" "$d/share"	# the blocks run at the repository's root
	gdalbuildvrt -q "$d/any.vrt" "$d/dem.tif"
	py 'from osgeo import gdal
# The 1-degree tile around the DEM, 3 arc-seconds, as SRTM lays it out.
m = gdal.Warp("", sys.argv[1], format="MEM", outputBounds=(-85 - 1 / 2400,
    36 - 1 / 2400, -84 + 1 / 2400, 37 + 1 / 2400), width=1201, height=1201,
    outputType=gdal.GDT_Int16, dstNodata=-32768)
gdal.GetDriverByName("SRTMHGT").CreateCopy(sys.argv[2], m)' \
	    "$d/dem.tif" "$d/N36W085.hgt"
}

fixtures "$T/run"

# Cut the documents into blocks: $T/b/N.sh (the commands, the skipped ones
# left out), N.where (file and line), N.out (the files it writes). Prints
# what it finds wrong: entries that match nothing, a skipped command in the
# middle of another.
problems=$(py - "$T/b" "${#TEXT[@]}" "${TEXT[@]}" "${#PRINTS[@]}" \
    "${PRINTS[@]}" "${SKIP[@]}" "${DOCS[@]}" <<'EOF'
import os, re
out, nt = sys.argv[1], int(sys.argv[2])
text = [e.split("|", 2) for e in sys.argv[3:3 + nt]]
np = int(sys.argv[3 + nt])
text += [e.split("|", 2) for e in sys.argv[4 + nt:4 + nt + np]]
rest = sys.argv[4 + nt + np:]
skips = [e.split("|", 2) for e in rest if "|" in e]
docs = [d for d in rest if "|" not in d]
used = set()
os.makedirs(out)

def blocks(path):
    """(line number, lines) of each indented block."""
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("    ") and (i == 0 or lines[i - 1].strip() == ""):
            j, block = i, []
            while j < len(lines) and (lines[j].startswith("    ") or
                    (lines[j].strip() == "" and j + 1 < len(lines) and
                     lines[j + 1].startswith("    "))):
                block.append(lines[j][4:])
                j += 1
            yield i + 1, block
            i = j
        else:
            i += 1

NAME = r"[A-Za-z0-9_.-]+\.(?:tif|png|tp|gpkg|geojson|r16|raw|pgm|f32|json)\b"
n = 0
for path in docs:
    base = os.path.basename(path)
    for line, block in blocks(path):
        where = "%s:%d" % (base, line)
        kind = [k for k, (f, pat, what) in enumerate(text)
                if f == base and re.search(pat, block[0])]
        if kind:
            used.add(("t", kind[0]))
            continue
        run, k = [], 0
        while k < len(block):		# whole commands: a trailing \ goes on
            cmd = [block[k]]
            while cmd[-1].endswith("\\") and k + 1 < len(block):
                k += 1
                cmd.append(block[k])
            k += 1
            hit = [s for s, (f, pat, why) in enumerate(skips)
                   if f == base and re.search(pat, cmd[0])]
            if hit:
                used.add(("s", hit[0]))
                run.append(": skipped: " + cmd[0].replace("'", ""))
            else:
                run += cmd
        script = "\n".join(run)
        if all(l.startswith(": skipped") or not l.strip() or
               l.lstrip().startswith("#") for l in run):
            continue
        outs = set(re.findall(r"(?:>|-o)\s*(" + NAME + ")", script))
        for st in re.findall(r"\bt(?:geotiff|view|export|vector)\b[^|;&<>\n]*", script):
            names = set(re.findall(NAME, st))
            # texport --tile-size writes NAME's tiles and NAME.json last;
            # -f weights NAME_0_SLOT.png, ...
            if re.search(r"\btexport\b.*--tile-size", st):
                names = {n + ".json" for n in names}
            elif re.search(r"\btexport\b.*-f weights", st):
                names = {n[:-4] + "_0_*.png" for n in names}
            outs |= names
        n += 1
        b = "%s/%03d" % (out, n)
        open(b + ".sh", "w").write(script + "\n")
        open(b + ".where", "w").write(where + "\n")
        open(b + ".out", "w").write("".join(o + "\n" for o in sorted(outs)))
for k, (f, pat, what) in enumerate(text):
    if ("t", k) not in used:
        print("TEXT or PRINTS entry matches no block: %s %s (%s)" %
              (f, pat, what))
for k, (f, pat, why) in enumerate(skips):
    if ("s", k) not in used:
        print("SKIP entry matches no command: %s %s (%s)" % (f, pat, why))
EOF
)
assert_eq "every TEXT and SKIP entry names a block" "$problems" ""

# The programs the blocks call: with MEMCHECK set, each one a wrapper that
# runs the real program under it, as run_prog does for other tests.
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

# run N: block N in the shared directory, on a terminal as a reader would
# type it; what the terminal showed goes to N.tty. A hang is a failure.
run() {
	touch -d '-2 seconds' "$T/run/.start"
	(cd "$T/run" && PATH="$progs:/usr/bin:/bin:$PATH" timeout 300 \
	    script -qec "bash -e -o pipefail $(printf %q "$T/b/$1.sh")" \
	    /dev/null < /dev/null > "$T/b/$1.tty")
}

[ -n "${DOCS_KEEP:-}" ] && cp -r "$T/b" "$DOCS_KEEP"
count=0
for sh in "$T"/b/*.sh; do
	n=$(basename "$sh" .sh)
	where=$(cat "$T/b/$n.where")
	count=$((count + 1))
	run "$n"
	rc=$?
	if [ $rc != 0 ]; then
		# the message, not the progress bars drawn over it
		fail "$where: exit $rc: $(tr '\r' '\n' < "$T/b/$n.tty" |
		    grep -av '\] *[0-9]*%' | sed 's/\x1b\[K//g' | tail -c 300)"
		continue
	fi
	pass
	while read -r f; do	# a pattern for texport -f weights' maps
		set -- "$T"/run/$f
		if [ -s "$1" ] && [ "$1" -nt "$T/run/.start" ]; then
			pass
		else
			fail "$where: $f is empty or was not written"
		fi
	done < "$T/b/$n.out"
done
# The documents hold this many blocks to run or more; fewer means the
# parser lost some.
[ "$count" -ge 12 ] && pass || fail "only $count blocks run"
finish
