#!/bin/bash
# richdem-compare: tflow's D8 directions beside RichDEM's on the same
# filled grids, flats above all.
#
# RichDEM (Barnes) is no Debian package and CI cannot reach GitHub, so this
# is a recorded comparison (docs/GIS.md), never part of make check. It
# builds scripts/richdem-d8.cpp against RICHDEM_SRC's headers in a temp
# dir: pyrichdem's rd.ResolveFlats (GetFlatMask +
# ResolveFlatsEpsilon_Barnes2014) then rd.FlowProportions(method='D8')
# (FM_D8, the strictly lowest neighbour). Each grid is filled with
# `tfill --flat`; tflow and the driver run on the filled heights, and
# scripts/flat-rule.py (the converging rule written out on its own) too.
#
# Per grid: cells (NaN ones), RichDEM's flat cells (FindFlats' IS_A_FLAT),
# flat cells where tflow's direction differs from RichDEM's, where the
# rule's differs from RichDEM's (plain, and with the border first, as
# RichDEM's raise leaves the grid's border lowest), where tflow's differs
# from the rule's; then the non-flat cells where tflow and RichDEM differ
# (tflow follows the steepest drop over distance, RichDEM the lowest
# neighbour), of them the border cells (RichDEM gives border cells no
# direction) and the outlets into NaN (RichDEM drains nothing into
# nodata); last, RichDEM's flat cells that its epsilon raise lifted to or
# above a neighbour they were below.
#
# usage: scripts/richdem-compare.sh RICHDEM_SRC [BINDIR]   (default bin)
#   RICHDEM_SRC: a RichDEM source tree (its include/richdem), e.g.
#   git --git-dir=RICHDEM.git archive HEAD | tar -x -C /tmp/richdem-src
set -u
me=richdem-compare
[ $# -ge 1 ] || { echo "usage: scripts/$me.sh RICHDEM_SRC [BINDIR]"; exit 2; }
src=$1
bin=${2:-bin}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
scripts=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$scripts/.." && pwd)
py=/usr/bin/python3
[ -f "$src/include/richdem/flats/flats.hpp" ] ||
    { echo "$me: no include/richdem/flats/flats.hpp in $src"; exit 1; }
for p in timport tnoise tterrace tfill tflow; do
	[ -x "$bin/$p" ] || { echo "$me: no $bin/$p"; exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tp-$me.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# NDEBUG: FM_OCallaghan's assert names a variable it never declares.
${CXX:-g++} -std=c++17 -O2 -DNDEBUG -DRICHDEM_NO_PROGRESS \
    -DRICHDEM_GIT_HASH='"unknown"' -DRICHDEM_COMPILE_TIME='"unknown"' \
    -Wno-unknown-pragmas -I"$src/include" -o "$tmp/richdem-d8" \
    "$scripts/richdem-d8.cpp" 2> "$tmp/cxx.log" ||
    { cat "$tmp/cxx.log"; echo "$me: cannot build the driver"; exit 1; }

# The python steps read and write streams through tests/tp.py.
pyq() {
	(cd "$root" && "$py" -c "
import sys
sys.path.insert(0, 'tests')
from tp import *
$1" "${@:2}")
}
# quantise LEVELS [HOLES SEED] < stream > stream: heights to
# floor(height * LEVELS) (LEVELS 0: kept as they are); HOLES NaN discs of
# radius 6..20 at places drawn from SEED.
quantise() {
	cat > "$tmp/q.in"
	pyq '
h, a = read(sys.argv[1])
z = a[:, 0, :].astype(np.float64)
if int(sys.argv[2]) > 0:
    z = np.floor(z * int(sys.argv[2]))
if len(sys.argv) > 3:
    rng = np.random.default_rng(int(sys.argv[4]))
    yy, xx = np.mgrid[0:z.shape[0], 0:z.shape[1]]
    for _ in range(int(sys.argv[3])):
        cy, cx = rng.integers(0, z.shape[0]), rng.integers(0, z.shape[1])
        z[(yy - cy) ** 2 + (xx - cx) ** 2 <= rng.integers(6, 21) ** 2] = np.nan
z.astype("<f4").tofile(sys.argv[1] + ".f32")
print(z.shape[1], z.shape[0])' "$tmp/q.in" "$@" > "$tmp/q.size" || return 1
	read -r qw qh < "$tmp/q.size"
	"$bin/timport" --raw --size "${qw}x$qh" "$tmp/q.in.f32"
}

# compare NAME < stream: fill, flow, drive, count, print one line.
compare() {
	local name=$1 g=$tmp/g
	"$bin/tfill" -q --flat --no-sea > "$g.fill" &&
	"$bin/tflow" -q --no-sea --dir-codes esri < "$g.fill" > "$g.flow" ||
	    { echo "$me: $name: tfill or tflow failed"; return 1; }
	pyq '
h, a = read(sys.argv[1])
a[:, list(h["BANDS"].split()).index("height"), :].astype("<f4").tofile(sys.argv[2])
print(a.shape[2], a.shape[0])' "$g.fill" "$g.f32" > "$g.size" || return 1
	local w hh
	read -r w hh < "$g.size"
	"$tmp/richdem-d8" "$w" "$hh" "$g.f32" "$g.rd" "$g.flat" > "$g.raised" \
	    2> "$g.err" || { cat "$g.err"; return 1; }
	"$py" "$scripts/flat-rule.py" --raw "$w" "$hh" "$g.f32" "$g.rule" &&
	"$py" "$scripts/flat-rule.py" --raw --border-first "$w" "$hh" "$g.f32" \
	    "$g.rulb" || return 1
	pyq '
name, f32, rd, flat, rule, rulb, flow, raised = sys.argv[1:9]
dirs = band(flow, "dir")
hh, w = dirs.shape
z = np.fromfile(f32, "<f4").reshape(hh, w)
rd = np.fromfile(rd, np.uint8).reshape(hh, w).astype(int)
flat = np.fromfile(flat, np.uint8).reshape(hh, w) == 1
rule = np.fromfile(rule, np.uint8).reshape(hh, w).astype(int)
rulb = np.fromfile(rulb, np.uint8).reshape(hh, w).astype(int)
valid = ~np.isnan(z)
tf = np.where(valid, np.nan_to_num(dirs), 0).astype(int)
border = np.zeros_like(valid)
border[[0, -1], :] = border[:, [0, -1]] = True
p = np.pad(valid, 1, constant_values=True)
nanadj = ~np.logical_and.reduce([p[1 + dy:1 + dy + hh, 1 + dx:1 + dx + w]
    for dy in (-1, 0, 1) for dx in (-1, 0, 1)])
diff = valid & (tf != rd)
nf = diff & ~flat
nfb = nf & border & (rd == 0)
nfn = nf & ~border & nanadj & (rd == 0)
print("%-24s %6d %4d %6d %6d %6d %6d %5d %6d %5d %4d %6d" % (name,
    z.size, (~valid).sum(), flat.sum(), (diff & flat).sum(),
    (flat & (rule != rd)).sum(), (flat & (rulb != rd)).sum(),
    (flat & (tf != rule)).sum(), nf.sum(),
    nfb.sum(), nfn.sum(), int(open(raised).read().split()[1])))' \
	    "$name" "$g.f32" "$g.rd" "$g.flat" "$g.rule" "$g.rulb" "$g.flow" \
	    "$g.raised"
}

echo "$me: tflow ($bin) against RichDEM ($src)"
echo "  after tfill --flat; D8 directions as ESRI codes"
printf '%-24s %6s %4s %6s %6s %6s %6s %5s %6s %5s %4s %6s\n' grid cells \
    nan flat 'tf!=rd' 'ru!=rd' 'rb!=rd' 'tf!=ru' nonflt border nan raised
"$bin/timport" "$root/tests/data/jacksboro_fault_dem.tif" |
    compare jacksboro_fault_dem
for d in garbrecht garbrecht_valley multi_flat multi_flat_run pit; do
	f=$src/data/$d.dem
	[ -f "$f" ] && "$bin/timport" "$f" | compare "richdem:$d"
done
for s in 1 2 3; do
	"$bin/tnoise" -q --size 512x512 -S $s | quantise 36 | compare "noise36 -S $s"
done
"$bin/tnoise" -q --size 512x512 -S 4 | quantise 24 |
    compare "noise24 -S 4"
"$bin/tnoise" -q --size 512x512 -S 10 -O 10 -f 0.01 | quantise 200 |
    compare "noise200 rough -S 10"
for s in 5 6; do
	"$bin/tnoise" -q --size 512x512 -S $s | quantise 36 12 $s |
	    compare "noise36+nan -S $s"
done
"$bin/tnoise" -q --size 512x512 -S 7 | "$bin/tterrace" -q -s 12 |
    compare "terrace12 -S 7"
"$bin/tnoise" -q --size 512x512 -S 8 | "$bin/tterrace" -q -n -s 32 |
    compare "terrace32 -n -S 8"
"$bin/tnoise" -q --size 512x512 -S 9 | "$bin/tterrace" -q -n -s 32 |
    quantise 0 10 9 | compare "terrace32+nan -S 9"
echo "columns: tf!=rd flat cells where tflow and RichDEM differ; ru!=rd where"
echo "  scripts/flat-rule.py and RichDEM do; rb!=rd the same with the rule's"
echo "  --border-first (low edges on the grid's border first, as RichDEM leaves"
echo "  them unraised); tf!=ru tflow and the rule on flat cells;"
echo "  nonflt: the other cells where tflow and RichDEM differ, of them"
echo "  border (RichDEM: no direction on the border) and nan (outlets into"
echo "  NaN, which RichDEM does not drain to); raised: flat cells RichDEM's"
echo "  epsilon raise lifted to or above a neighbour they were below"
