#!/bin/bash
# texport --from-tiles: the world read from ttile's tiles gives the files of
# `tmosaic MANIFEST | texport` byte for byte, for every heightmap format,
# exr, normal, splat and weight maps, whole and in engine tiles; a damaged set is refused before a file
# is written; a tiled export from tiles in less memory than the world.
. "$(dirname "$0")/common.sh"

# 300x200 cells of 30 m, two bands, a NaN hole: cut in tiles of 70 (the
# last column 20 wide, the last row 60 high), and in tiles of 299 (a last
# column one cell wide).
py 'rng = np.random.default_rng(5)
y, x = np.mgrid[0:200, 0:300]
a = (np.sin(x / 13.0) * 40 + np.cos(y / 9.0) * 30 + rng.random((200, 300)) * 5).astype("float32")
a[120:124, 280:290] = np.nan
m = (rng.random((200, 300))).astype("float32")
write(np.stack([a, m], 1), "height moisture", ["CELLSIZE 30", "ORIGIN 500000 4200000", "CRS EPSG:32617", "UNITS m"], sys.argv[1])' "$T/w.tp"
run_prog ttile -q -s 70 "$T/t" < "$T/w.tp"
run_prog ttile -q -s 299 "$T/t1" < "$T/w.tp"
# one band, as tnoise makes it (the rows read straight into place)
run_prog tnoise -q -s 257x131 --seed 4 | run_prog ttile -q -s 50 "$T/n"
# biomes in blocks beside the heights, for splat and weight maps
py 'rng = np.random.default_rng(6)
y, x = np.mgrid[0:200, 0:300]
h = band(sys.argv[1], "height")
codes = np.array([10, 2, 6, 16, 3, 9], "float32")
b = codes[(x // 23 + (y // 19) * 3 + (rng.random((200, 300)) < 0.1)) % 6]
b[5, 5] = np.nan
write(np.stack([h, b, rng.random((200, 300))], 1), "height biome wear", ["CELLSIZE 30", "ORIGIN 500000 4200000", "CRS EPSG:32617", "UNITS m"], sys.argv[2])' "$T/w.tp" "$T/l.tp"
run_prog ttile -q -s 70 "$T/l" < "$T/l.tp"
printf 'grassland 0\nbeach 1\nsnow 2\nrock 3\nscorched 4\n* 0\n' > "$T/groups"

# same SET ARGS...: texport from the set and from its mosaic, each in a
# directory of its own under the same output name (HISTORY names it),
# write the same files.
same() {
	set_=$1; shift
	rm -rf "$T/a" "$T/b"; mkdir "$T/a" "$T/b"
	( cd "$T/a" && run_prog tmosaic "$T/$set_/manifest" |
	    run_prog texport -q "$@" w.out ) 2> "$T/a.err"
	( cd "$T/b" && run_prog texport -q --from-tiles "$T/$set_" "$@" w.out ) \
	    2> "$T/b.err"
	if [ -n "$(ls "$T/a")" ] && diff -r "$T/a" "$T/b" > /dev/null &&
	    cmp -s "$T/a.err" "$T/b.err"; then pass
	else fail "$set_ $*: the files differ: $(ls "$T/a" | head -3) / $(ls "$T/b" | head -3) $(head -c 200 "$T/b.err")"; fi
}

while read -r set_ args; do
	same "$set_" ${args//GROUPS/$T/groups}
done <<EOF
t -f png16
t -f r16
t -f r32
t -f pgm
t -f exr --zscale 2
t -f mask -b moisture
t -f normal --zscale 30
t -f r16 --zrange -50,90
t -e unity --pad
t -e unreal --crop -f png16
t -e godot --pad -f r32
t -e unity --tile-size 65
t -e unreal --tile-size 127 -f png16
t -f r32 --tile-size 50
t -f pgm --tile-size 33 --zrange -50,90
t -f exr --tile-size 65 --zscale 3
t -f normal --tile-size 50 --zscale 30
t -f normal -e unreal --tile-size 127 --zscale 30
t1 -f png16
t1 -e unity --tile-size 129
t -f weights --splat-bands moisture
t -f splat --splat-bands moisture:0.2:0.8 --tile-size 65
l -f splat --biome-groups GROUPS --blend 2
l -f weights --biome-groups GROUPS --blend 3 --splat-bands wear:0.2:0.9
l -f weights -e unreal --tile-size 127 --biome-groups GROUPS --blend 2
l -f splat -e unity --tile-size 65 --biome-groups GROUPS --blend 4 --splat-bands wear
n -f r16
n -f exr
n -f normal
n -e unity --tile-size 33
EOF

# the manifest or its directory: the same
mkdir -p "$T/m1" "$T/m2"
( cd "$T/m1" && run_prog texport -q --from-tiles "$T/t/manifest" -f r16 w.r16 )
( cd "$T/m2" && run_prog texport -q --from-tiles "$T/t" -f r16 w.r16 )
assert_same "manifest = directory" "$T/m1/w.r16" "$T/m2/w.r16"
# one range line, as from a stream
ok "range line" run_prog texport --from-tiles "$T/t" -f png16 "$T/m1/r.png"
assert_eq "one range line" "$(grep -c 'height 0..65535 = ' "$T/.err")" 1

# nothing_in DIR: the directory holds no file
nothing_in() { assert_eq "$1: no file left" "$(ls -A "$2" | wc -l)" 0; }

# a damaged set: a copy of t with one tile changed
damage() { rm -rf "$T/d" "$T/o"; cp -r "$T/t" "$T/d"; mkdir "$T/o"; }
damage; rm "$T/d/r2_c1.tp"
expect_err 1 "^texport: $T/d/r2_c1.tp: No such file" "missing tile" \
    run_prog texport --from-tiles "$T/d" -e unity --tile-size 65 --zrange 0,1 "$T/o/w.r16"
assert_eq "missing tile: one line" "$(wc -l < "$T/.err")" 1
nothing_in "missing tile" "$T/o"
# a tile of another cut (another world cut alike)
py 'a = band(sys.argv[1], "height").copy(); a[0, 0] += 1
write(np.stack([a, band(sys.argv[1], "moisture")], 1), "height moisture", ["CELLSIZE 30", "ORIGIN 500000 4200000", "CRS EPSG:32617", "UNITS m"], sys.argv[2])' "$T/w.tp" "$T/w2.tp"
run_prog ttile -q -s 70 "$T/other" < "$T/w2.tp"
damage; cp "$T/other/r1_c3.tp" "$T/d/r1_c3.tp"
expect_err 1 "^texport: $T/d/r1_c3.tp: " "a tile of another cut" \
    run_prog texport --from-tiles "$T/d" -e unity --tile-size 65 --zrange 0,1 "$T/o/w.r16"
assert_eq "another cut: one line" "$(wc -l < "$T/.err")" 1
nothing_in "another cut" "$T/o"
# a tile whose samples changed since the cut: its sum, found by the range
# pass before anything is written
damage
py 'b = bytearray(open(sys.argv[1], "rb").read()); b[-3] ^= 0x40
open(sys.argv[1], "wb").write(b)' "$T/d/r2_c4.tp"
expect_err 1 "^texport: $T/d/r2_c4.tp: its bytes are not those the manifest lists" \
    "a changed tile" run_prog texport --from-tiles "$T/d" -e unity --tile-size 65 "$T/o/w.r16"
nothing_in "changed tile" "$T/o"
expect_err 1 "^texport: $T/d/r2_c4.tp: its bytes are not those" "changed tile, one heightmap" \
    run_prog texport --from-tiles "$T/d" -f r16 --zrange 0,1 "$T/o/w.r16"
nothing_in "changed tile, one heightmap" "$T/o"
# a tile of the right name in the wrong place
damage; cp "$T/t/r0_c0.tp" "$T/d/r1_c1.tp"
expect_err 1 "^texport: $T/d/r1_c1.tp: " "a misplaced tile" \
    run_prog texport --from-tiles "$T/d" -f r32 "$T/o/w.r32"
nothing_in "misplaced tile" "$T/o"
expect_err 1 "^texport: $T/none: No such file" "no set" \
    run_prog texport --from-tiles "$T/none" -f r16 "$T/o/w.r16"
expect_err 1 "no band 'biome'" "splat maps of tiles without biomes" \
    run_prog texport --from-tiles "$T/t" -f splat --biome-groups "$T/groups" "$T/o/w.png"
expect_err 1 "no band 'slope'" "a band the tiles lack" \
    run_prog texport --from-tiles "$T/t" -b slope -f r16 "$T/o/w.r16"
# --from-tiles is no part of HISTORY (the mosaic's file is the same)
assert_eq "HISTORY" "$(strings "$T/m1/r.png" | grep -c from-tiles)" 0

# A world larger than the memory texport may use: 6145x6145 (151 MB of
# stream) in ttile tiles of 2000 under a 100 MB address-space limit, read
# twice from the tiles (the range, then the rows), makes the 36 Unity tiles
# of the stream's export; memory is a row of engine tiles.
run_prog tnoise -q -s 6145x6145 > "$T/big.tp"
run_prog ttile -q -s 2000 "$T/bigt" < "$T/big.tp"
mkdir "$T/bs" "$T/bt"
run_prog texport -q -f r16 -e unity --tile-size 1025 "$T/bs/big.r16" < "$T/big.tp"
rm -f "$T/big.tp"
lim=$(vm_limit 100000)
( ulimit -v "$lim"; exec $MEMCHECK "$TP_BIN/texport" -q -f r16 -e unity \
    --tile-size 1025 --from-tiles "$T/bigt" "$T/bt/big.r16" ) && pass ||
    fail "tiles from tiles of a world larger than the memory limit"
assert_eq "its 36 tiles" "$(ls "$T/bt" | grep -c '^big_r[0-5]_c[0-5].r16$')" 36
assert_eq "the stream's tiles" "$(cd "$T/bt" && cat big_r* | cksum)" \
    "$(cd "$T/bs" && cat big_r* | cksum)"
rm -rf "$T/bigt" "$T/bs" "$T/bt"

finish
