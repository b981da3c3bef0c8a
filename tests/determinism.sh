#!/bin/bash
# determinism: every threaded stage writes the same file, byte for byte, on
# one thread and on two; HISTORY leaves out the options that never change
# the output (-j, -q, -v, --progress, --stats), clustered or not, and keeps
# the ones that do.
. "$(dirname "$0")/common.sh"

# hist FILE: the HISTORY lines of a stream, joined by '|'.
hist() { sed -n '/^ENDHDR$/q;/^HISTORY /p' "$1" | tr '\n' '|'; }

# same_j NAME OUT CMD...: CMD (a program and its options, reading $T/in when
# it reads a stream) with -j 1 and -j 2 writes identical streams.
same_j() {
	local name=$1 in=$2
	shift 2
	run_prog "$@" -j 1 < "$in" > "$T/$name.j1"
	run_prog "$@" -j 2 < "$in" > "$T/$name.j2"
	if [ -s "$T/$name.j1" ]; then pass; else fail "$name: no output"; fi
	assert_same "$name -j 1 = -j 2" "$T/$name.j1" "$T/$name.j2"
}

# 2100 cells a row: a 2 MiB batch holds 124 rows, so 520 rows take five
# batches, each shared by the threads.
run_prog tnoise -q -s 2100x520 -S 3 -w 0.3 -c 30 --origin 500000,4600000 \
    --crs EPSG:32633 > "$T/in"
run_prog tnoise -q -s 300x200 -S 5 -O 4 > "$T/small"
run_prog tfill -q < "$T/small" > "$T/filled"

same_j tnoise /dev/null tnoise -q -s 2100x520 -S 3 -w 0.3
same_j tnoise-band "$T/in" tnoise -q --band moisture -S 8
same_j tshape "$T/in" tshape -q -c valleys --pow 1.5
same_j tterrace "$T/in" tterrace -q -s 6 -r 0.4
same_j tridge "$T/in" tridge -q -a 0.5
same_j tisland "$T/in" tisland -q -w 0.2 --seed 4
same_j terode "$T/small" terode -q -n 20000 -S 9
same_j tflow "$T/filled" tflow -q -r 40
same_j tindex "$T/filled" tindex -q -r 40
same_j tindex-mfd "$T/filled" tindex -q -m mfd --bands twi,spi
same_j tindex-dinf "$T/filled" tindex -q -m dinf -r 40
run_prog tisland -q --sea 0.3 < "$T/small" > "$T/sea"
same_j terode-sea "$T/sea" terode -q -n 20000 -S 9
same_j tuplift-sea "$T/sea" tuplift -q -s 10 --n 1.5 -z 100
same_j terode-batch-sync "$T/sea" terode -q -n 20000 -S 9 --batch-sync
run_prog tnoise -q --band moisture -S 8 < "$T/in" > "$T/wet"
same_j tbiome "$T/wet" tbiome -q -z 3000
same_j tbiome-climate "$T/wet" tbiome -q -z 3000 --climate
same_j tbiome-wind "$T/wet" tbiome -q -z 3000 --climate --wind 250
same_j tslope "$T/in" tslope -q -z 3000 --curvature --hillshade
same_j tslope-only "$T/in" tslope -q -z 3000 --only aspect,planc,slope
printf 'base 0.1\nhill 530000 4592000 0.8 9000\nridge 505000 4598000 560000 4590000 0.3 2000\ncliff 520000 4588000 540000 4589000 0.2 3000 400\nplateau 550000 4594000 4000 -0.1 900\nresidual 3 0.05 5000 5\n' > "$T/feat.txt"
same_j tfeature /dev/null tfeature -q "$T/feat.txt" -s 2100x520 -c 30 \
    --origin 500000,4600000
same_j tfeature-add "$T/in" tfeature -q "$T/feat.txt"
same_j tfill-tiles "$T/small" tfill -q --tile-size 64
# the flat fill's passes share bands of 64 rows (520 rows: 9 of them)
same_j tfill-flat "$T/in" tfill -q --flat
same_j tfill-flat-sea "$T/sea" tfill -q --flat

# The GeoTIFF, tiles compressed on one thread and on two; the COG as well.
# The same name both times: HISTORY holds it.
for extra in "" --cog; do
	run_prog tgeotiff -q -j 1 $extra "$T/g.tif" < "$T/in"
	mv "$T/g.tif" "$T/g1.tif"
	run_prog tgeotiff -q -j 2 $extra "$T/g.tif" < "$T/in"
	mv "$T/g.tif" "$T/g2.tif"
	if [ -s "$T/g1.tif" ]; then pass; else fail "tgeotiff $extra: no file"; fi
	assert_same "tgeotiff $extra -j 1 = -j 2" "$T/g1.tif" "$T/g2.tif"
done
# texport's heightmaps and normal map, batches of rows encoded on one
# thread and on two; the same name both times, as HISTORY holds it.
for f in png16 r16 normal; do
	run_prog texport -q -j 1 -f $f "$T/e.$f" < "$T/in"
	mv "$T/e.$f" "$T/e1.$f"
	run_prog texport -q -j 2 -f $f "$T/e.$f" < "$T/in"
	mv "$T/e.$f" "$T/e2.$f"
	if [ -s "$T/e1.$f" ]; then pass; else fail "texport $f: no file"; fi
	assert_same "texport $f -j 1 = -j 2" "$T/e1.$f" "$T/e2.$f"
done
assert_eq "sha256sum agrees" "$(sha256sum < "$T/tridge.j1")" \
    "$(sha256sum < "$T/tridge.j2")"

# HISTORY: silent options, however they are spelled, leave no trace ...
run_prog tnoise -s 40x30 -S 3 > "$T/h0"
run_prog tnoise -qj2 -s 40x30 -j 1 --threads=2 --quiet --thr 2 -S 3 > "$T/h1"
assert_eq "tnoise history" "$(hist "$T/h1")" "HISTORY tnoise --size 40x30 --seed 3|"
assert_same "-q and -j change nothing" "$T/h0" "$T/h1"
run_prog tnoise --size=40x30 --seed 3 > "$T/h5"
assert_same "the spelling of an option changes nothing" "$T/h0" "$T/h5"
# ... a real option changes the line and the file
run_prog tnoise -q -s 40x30 -S 4 > "$T/h2"
assert_eq "seed recorded" "$(hist "$T/h2")" "HISTORY tnoise --size 40x30 --seed 4|"
if cmp -s "$T/h0" "$T/h2"; then fail "--seed 4 made the same file"; else pass; fi
# clusters keep their real letters, and an option's argument stays with it
run_prog tridge -qnj2 < "$T/h0" > "$T/h3"
assert_eq "cluster -qnj2" "$(hist "$T/h3")" \
    "HISTORY tnoise --size 40x30 --seed 3|HISTORY tridge --naive|"
run_prog tisland -qb height -j2 -m 0.25 < "$T/h0" > "$T/h3"
assert_eq "cluster -qb NAME" "$(hist "$T/h3" | cut -d'|' -f2)" \
    "HISTORY tisland --band height --mix 0.25"
run_prog tshape -qbheight --threads 2 -c valleys < "$T/h0" > "$T/h3"
assert_eq "cluster -qbNAME" "$(hist "$T/h3" | cut -d'|' -f2)" \
    "HISTORY tshape --band height --curve valleys"
# -v/--verbose, --progress and --stats (their reports go to stderr)
run_prog tfill -v -q < "$T/h0" > "$T/h3" 2>/dev/null
assert_eq "tfill -v" "$(hist "$T/h3" | cut -d'|' -f2)" "HISTORY tfill"
run_prog tflow --verbose -j 2 -r 5 < "$T/h3" > "$T/h4" 2>/dev/null
assert_eq "tflow --verbose" "$(hist "$T/h4" | cut -d'|' -f3)" "HISTORY tflow --rivers 5"
run_prog terode --progress --stats -j2 -n 300 < "$T/h0" > "$T/h3" 2>/dev/null
assert_eq "terode --stats" "$(hist "$T/h3" | cut -d'|' -f2)" "HISTORY terode --droplets 300"
# an operand after the options, and after --, stays
run_prog tgeotiff -q "$T/h.tif" -j 2 < "$T/h0"
assert_eq "tgeotiff operand" "$(gdalinfo "$T/h.tif" | sed -n 's/^ *HISTORY_02=//p')" \
    "tgeotiff $T/h.tif"

finish
