#!/bin/bash
# ttile and tmosaic: tiles are windows of the whole with their own ORIGIN,
# the manifest describes them, and the mosaic of the tiles is the input.
. "$(dirname "$0")/common.sh"

# 7 x 5 grid, two bands: h = 10*row + col, m = -h; CELLSIZE 30.
py '
r, c = np.mgrid[0:5, 0:7]
h = (10 * r + c).astype("<f4")
write(np.stack([h, -h], axis=1), "h m",
      ["CELLSIZE 30", "ORIGIN 500000 4649776", "CRS EPSG:32633", "HISTORY tnoise"])' > "$T/in.tp"
vals() { values "$1" | tr '\n' ' '; }
# nosums MANIFEST: the tiles' sums taken out, as an older ttile wrote it.
nosums() { sed -i 's/^\(TILE [0-9]* [0-9]* [^ ]*\) .*/\1/' "$1"; }

ok "cut 3x3" run_prog ttile --size 3 "$T/t" < "$T/in.tp"
assert_eq "tile files" "$(cd "$T/t" && ls | tr '\n' ' ')" \
    "manifest r0_c0.tp r0_c1.tp r0_c2.tp r1_c0.tp r1_c1.tp r1_c2.tp "
assert_eq "manifest" "$(sed -n 1,8p "$T/t/manifest" | tr '\n' '|')" \
    "TERRAPIPE-TILES 1|WIDTH 7|HEIGHT 5|TILESIZE 3|CELLSIZE 30|ORIGIN 500000 4649776|CRS EPSG:32633|BANDS h m|"
assert_eq "tile list" "$(sed -n '10,$p' "$T/t/manifest" | cut -d' ' -f1-4 | tr '\n' '|')" \
    "TILE 0 0 r0_c0.tp|TILE 0 1 r0_c1.tp|TILE 0 2 r0_c2.tp|TILE 1 0 r1_c0.tp|TILE 1 1 r1_c1.tp|TILE 1 2 r1_c2.tp|END|"
# The cut's run id: FNV-1a 64 of the grid's size, place, CRS and bands,
# then of its samples as they came; in the manifest and in every tile.
assert_eq "run id" "$(py '
import struct
h = dict(header(sys.argv[1])); b = body(sys.argv[1]) if False else None
raw = open(sys.argv[1], "rb").read(); body_ = raw[raw.index(b"ENDHDR\n") + 7:]
def fnv(v, bs):
    for x in bs: v = ((v ^ x) * 1099511628211) % 2**64
    return v
v = fnv(14695981039346656037, struct.pack("<qq", 7, 5))
v = fnv(v, struct.pack("<ddd", 30.0, 500000.0, 4649776.0))
v = fnv(v, b"EPSG:32633"); v = fnv(v, b"h\0"); v = fnv(v, b"m\0")
v = fnv(v, body_)
print("RUN %016x" % v)' "$T/in.tp")" "$(sed -n 9p "$T/t/manifest")"
assert_eq "run id in every tile" "$(for f in "$T"/t/r*.tp; do header "$f" TILERUN; done | sort -u)" \
    "$(sed -n 9p "$T/t/manifest" | cut -d' ' -f2)"
# Each tile's FNV-1a 64 sum, computed here from its bytes.
assert_eq "tile sums" "$(py '
import os
d = sys.argv[1]; bad = 0
for line in open(d + "/manifest"):
    w = line.split()
    if w[0] != "TILE": continue
    h = 14695981039346656037
    for b in open(os.path.join(d, w[3]), "rb").read():
        h = ((h ^ b) * 1099511628211) % 2**64
    bad += "%016x" % h != w[4]
print(bad)' "$T/t")" 0
# tile r1_c2: cols 6..6, rows 3..4 (the narrow corner); origin moved by
# 6 and 3 cells of 30
assert_eq "corner tile size" "$(header "$T/t/r1_c2.tp" WIDTH)x$(header "$T/t/r1_c2.tp" HEIGHT)" 1x2
assert_eq "corner tile origin" "$(header "$T/t/r1_c2.tp" ORIGIN)" "500180 4649686"
assert_eq "corner tile values" "$(vals "$T/t/r1_c2.tp")" "36 -36 46 -46 "
assert_eq "tile history" "$(header_lines "$T/t/r0_c1.tp" | grep HISTORY | tr '\n' '|')" \
    "HISTORY tnoise|HISTORY ttile --size 3 $T/t|"
# a tile is the tcrop window of the whole
run_prog tcrop -w 3,0,3,3 < "$T/in.tp" > "$T/w.tp"
assert_same "tile = tcrop window" <(body "$T/t/r0_c1.tp") <(body "$T/w.tp")
assert_eq "tile origin = tcrop origin" "$(header "$T/t/r0_c1.tp" ORIGIN)" "$(header "$T/w.tp" ORIGIN)"

run_prog tmosaic "$T/t/manifest" > "$T/m.tp"
# the mosaic undoes the cut: ttile's HISTORY line goes, tmosaic adds none,
# and the round trip gives the input back, header and all
assert_same "round trip" "$T/in.tp" "$T/m.tp"

# one tile bigger than the grid; tile size 1
run_prog ttile -s 100 "$T/big" < "$T/in.tp"
assert_eq "one tile" "$(grep -c '^TILE ' "$T/big/manifest")" 1
run_prog tmosaic "$T/big/manifest" > "$T/m.tp"
assert_same "one tile round trip" <(body "$T/in.tp") <(body "$T/m.tp")
run_prog ttile -s 1 -q "$T/one" < "$T/in.tp"
assert_eq "35 tiles of 1" "$(grep -c '^TILE ' "$T/one/manifest")" 35
run_prog tmosaic -q "$T/one/manifest" > "$T/m.tp"
assert_same "1-cell tiles round trip" <(body "$T/in.tp") <(body "$T/m.tp")

# Larger, with NaN, tile size not dividing: byte-identical round trip; a
# point stage on a tile equals the window of it on the whole.
run_prog tnoise --size 333x250 --seed 5 --cellsize 30 --origin 400000,5000000 > "$T/n.tp"
run_prog ttile -s 64 "$T/n" < "$T/n.tp"
run_prog tmosaic "$T/n/manifest" > "$T/nm.tp"
assert_same "333x250 by 64 round trip" <(body "$T/n.tp") <(body "$T/nm.tp")
run_prog tnoise --size 64x64 --seed 5 --cellsize 30 \
    --origin "$(header "$T/n/r2_c3.tp" ORIGIN | tr ' ' ,)" > "$T/gen.tp"
assert_same "tnoise at a tile's ORIGIN = the tile" <(body "$T/n/r2_c3.tp") <(body "$T/gen.tp")

# --suffix: tiles processed one by one, then joined
for f in "$T"/t/r*.tp; do run_prog tband --rename h=height < "$f" > "$f.x"; done
run_prog tmosaic --suffix .x "$T/t/manifest" > "$T/s.tp"
assert_eq "suffix: bands of the processed tiles" "$(header "$T/s.tp" BANDS)" "height m"
assert_same "suffix body" <(body "$T/in.tp") <(body "$T/s.tp")

# errors
expect_err 2 "ttile: --size is required" "no size" run_prog ttile "$T/q" < "$T/in.tp"
expect_err 2 "ttile: the output directory is missing" "no dir" run_prog ttile -s 3 < "$T/in.tp"
expect_err 2 "ttile: --size" "size 0" run_prog ttile -s 0 "$T/q" < "$T/in.tp"
expect_err 2 "tmosaic: the manifest is missing" "no manifest" run_prog tmosaic
: > "$T/file"
expect_err 1 "ttile: $T/file: not a directory" "dir is a file" run_prog ttile -s 3 "$T/file" < "$T/in.tp"
head -c 300 "$T/in.tp" > "$T/trunc.tp"
expect_err 1 "ttile: .*truncated" "truncated input" run_prog ttile -s 3 "$T/tr" < "$T/trunc.tp"
assert_eq "no file after a failure" "$(ls -A "$T/tr" 2>/dev/null | wc -l)" 0
# The whole set or nothing: a truncated (or too long) input into a set
# leaves it as it was, and so does a signal while the input is read.
run_prog ttile -s 3 "$T/set" < "$T/in.tp"
ls -lA --time-style=+%s.%N "$T/set" > "$T/set.before"
expect_err 1 "ttile: .*truncated" "truncated into a set" run_prog ttile -s 3 "$T/set" < "$T/trunc.tp"
{ cat "$T/in.tp"; printf 'xy'; } > "$T/long.tp"
expect_err 1 "ttile: .*trailing" "trailing bytes into a set" run_prog ttile -s 3 "$T/set" < "$T/long.tp"
# (INT is ignored in a background job, HUP where the tests run under
# nohup: the input is cut short too, so a signal that is ignored still
# ends in a failure that must leave the set alone.)
for s in TERM HUP; do
	{ head -c 300 "$T/in.tp"; sleep 3; } | ( $MEMCHECK "$TP_BIN/ttile" -q -s 3 "$T/set" & p=$!
	    sleep 1; kill -$s $p; wait $p; true ) > /dev/null 2>&1
done
ls -lA --time-style=+%s.%N "$T/set" > "$T/set.after"
assert_same "the old set untouched (no stage left)" "$T/set.before" "$T/set.after" ||
    diff "$T/set.before" "$T/set.after" >&2
assert_eq "the old set joins" "$(run_prog tmosaic "$T/set/manifest" | cmp - "$T/in.tp" && echo same)" same
# A tile of another run (or changed since) is refused, named.
py 'h, a = read(sys.argv[1]); write(a[:, 0] + 1, "h", ["CELLSIZE 30", "ORIGIN 500000 4649776", "CRS EPSG:32633"])' "$T/in.tp" > "$T/in2.tp"
run_prog tband -r h=h < "$T/in.tp" > /dev/null
run_prog ttile -s 3 "$T/other" < "$T/in.tp"
run_prog tnoise -q -s 7x5 -c 30 --origin 500000,4649776 --crs EPSG:32633 -S 3 | run_prog tnoise -q --band m -S 4 | run_prog tband -r height=h > "$T/in3.tp"
run_prog ttile -s 3 "$T/third" < "$T/in3.tp"
cp "$T/third/r1_c1.tp" "$T/other/r1_c1.tp"
expect_err 1 "^tmosaic: $T/other/r1_c1.tp: its bytes are not those the manifest lists" \
    "a tile of another run" run_prog tmosaic "$T/other/manifest"
# The phases' outputs keep the tile's run id: stale ones of another cut,
# mixed with this cut's, are refused by tmosaic --suffix.
for f in "$T"/other/r*.tp; do run_prog tshape -b h --pow 2 < "$f" > "$f.sq"; done
for f in "$T"/third/r*.tp; do run_prog tshape -b h --pow 2 < "$f" > "$f.sq"; done
cp "$T/third/r0_c1.tp.sq" "$T/other/r0_c1.tp.sq"
expect_err 1 "^tmosaic: $T/other/r0_c1.tp.sq: it is of another cut (TILERUN" \
    "a phase output of another cut" run_prog tmosaic --suffix .sq "$T/other/manifest"
# A manifest without sums (an older ttile's) still joins.
nosums "$T/third/manifest"
assert_eq "a manifest without sums" "$(run_prog tmosaic "$T/third/manifest" | cmp - "$T/in3.tp" && echo same)" same
printf 'TERRAPIPE-TILES 1\nWIDTH 1\nHEIGHT 1\nTILESIZE 1\nCELLSIZE 1\nORIGIN 0 1\nBANDS h\nTILE 0 0 a 12\nEND\n' > "$T/badsum"
expect_err 1 "manifest line 8: a tile's sum is 16 hex digits" "a bad sum" run_prog tmosaic "$T/badsum"
expect_err 1 "tmosaic: $T/none: No such file" "missing manifest" run_prog tmosaic "$T/none"
# (The structural checks, with the sums taken out of the manifests: a
# sum would name the changed tile first.)
nosums "$T/t/manifest"
rm "$T/t/r1_c1.tp"
expect_err 1 "tmosaic: $T/t/r1_c1.tp: No such file" "missing tile" run_prog tmosaic "$T/t/manifest"
cp "$T/t/r0_c0.tp" "$T/t/r1_c1.tp"
expect_err 1 "tmosaic: $T/t/r1_c1.tp: it is tile r0_c0 of the manifest" "tile in the wrong place" \
    run_prog tmosaic "$T/t/manifest"
run_prog ttile -s 3 "$T/t2" < "$T/in.tp"
nosums "$T/t2/manifest"
run_prog tband --drop m < "$T/t2/r1_c0.tp" > "$T/x" && mv "$T/x" "$T/t2/r1_c0.tp"
expect_err 1 "r1_c0.tp: its bands or CRS differ from the first tile's" "bands differ" \
    run_prog tmosaic "$T/t2/manifest"
# A tile cut short or followed by bytes is named.
run_prog ttile -s 3 "$T/t3" < "$T/in.tp"
nosums "$T/t3/manifest"
head -c $(( $(stat -c %s "$T/t3/r0_c1.tp") - 4 )) "$T/t3/r0_c1.tp" > "$T/x" && mv "$T/x" "$T/t3/r0_c1.tp"
expect_err 1 "^tmosaic: $T/t3/r0_c1.tp: truncated stream" "truncated tile named" \
    run_prog tmosaic "$T/t3/manifest"
run_prog ttile -s 3 "$T/t3" < "$T/in.tp"
nosums "$T/t3/manifest"
printf 'xy' >> "$T/t3/r1_c0.tp"
expect_err 1 "^tmosaic: $T/t3/r1_c0.tp: trailing data" "trailing bytes named" \
    run_prog tmosaic "$T/t3/manifest"
bad() { printf "$1" > "$T/bad"; expect_err 1 "tmosaic: $T/bad: $2" "$3" run_prog tmosaic "$T/bad"; }
bad 'TERRAPIPE 1\n' "not a tile manifest" "not a manifest"
bad 'TERRAPIPE-TILES 1\nWIDTH 0\n' "manifest WIDTH" "width 0"
bad 'TERRAPIPE-TILES 1\nWIDTH 2\nHEIGHT 1\nTILESIZE 1\nCELLSIZE 1\nORIGIN 0 1\nBANDS h\nTILE 0 0 a\nTILE 0 2 b\nEND\n' \
    "manifest line 9: expected TILE 0 1 (row order)" "tile out of order"
bad 'TERRAPIPE-TILES 1\nWIDTH 1\nHEIGHT 1\nTILESIZE 1\nCELLSIZE 1\nORIGIN 0 1\nBANDS h\nTILE 0 0 ../a\nEND\n' \
    "manifest line 8: bad tile file name" "path in a tile name"
bad 'TERRAPIPE-TILES 1\nWIDTH 1\nHEIGHT 1\nTILESIZE 1\nCELLSIZE 1\nORIGIN 0 1\nBANDS h\nTILE 0 0 a\n' \
    "manifest line 9: expected END after the 1 tiles" "no END"
bad 'TERRAPIPE-TILES 1\nWIDTH 1\nHEIGHT 1\nTILESIZE 1\nCELLSIZE 1\nORIGIN 0 1\nBANDS h\nTILE 0 0 a\nEND' \
    "manifest line 9: no newline at the end" "no final newline"
finish
