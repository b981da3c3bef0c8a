#!/bin/bash
# ttexture: the ground's material as a picture; modes, biomes, tiles,
# threads, errors.
. "$(dirname "$0")/common.sh"

# rgbpng W H SEED PATH: a random RGB PNG (GDAL) and its bytes in PATH.npy
rgbpng() {
	"$PY" - "$@" <<'PY'
import sys, numpy as np
from osgeo import gdal
w, h, seed, path = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
a = np.random.default_rng(seed).integers(0, 256, (3, h, w)).astype("uint8")
d = gdal.GetDriverByName("MEM").Create("", w, h, 3, gdal.GDT_Byte)
for i in range(3): d.GetRasterBand(i + 1).WriteArray(a[i])
gdal.GetDriverByName("PNG").CreateCopy(path, d)
np.save(path + ".npy", a)
PY
}
# pngcheck SCRIPT PNG...: run SCRIPT with a = the PNGs' arrays (bands, rows,
# cols) as a list p, printing its result
pngcheck() {
	script=$1; shift
	"$PY" -c "
import sys, numpy as np
from osgeo import gdal
gdal.UseExceptions()
p = [gdal.Open(f).ReadAsArray().astype(int) for f in sys.argv[1:] if f.endswith('.png')]
$script" "$@"
}

rgbpng 8 8 1 "$T/t.png"
rgbpng 4 4 2 "$T/u.png"
printf '# all ground\n* t.png 8\n' > "$T/m.txt"
py 'write(np.zeros((16, 20)), "height", ["ORIGIN 0 16"])' > "$T/flat.tp"

# 1. plain, texel size = pixel size, texels on pixel centres: the texture
# repeated exactly, RGB (RGBA with --alpha, opaque); the size of the
# picture is N per cell
ok "plain" run_prog ttexture -q --materials "$T/m.txt" --mode plain --ppc 1 "$T/p.png" < "$T/flat.tp"
assert_eq "plain tiles the texture" "$(pngcheck '
t = np.load(sys.argv[2]); a = p[0]
print(a.shape, bool((a == np.tile(t, (1, 2, 3))[:, :16, :20]).all()))' \
    "$T/p.png" "$T/t.png.npy")" "(3, 16, 20) True"
ok "plain, alpha" run_prog ttexture -q -a --materials "$T/m.txt" --mode plain --ppc 1 "$T/pa.png" < "$T/flat.tp"
assert_eq "alpha: the same colours, opaque" "$(pngcheck '
print(p[1].shape, bool((p[1][:3] == p[0]).all()), bool((p[1][3] == 255).all()))' \
    "$T/p.png" "$T/pa.png")" "(4, 16, 20) True True"
ok "ppc 3" run_prog ttexture -q --materials "$T/m.txt" --mode plain --ppc 3 "$T/p3.png" < "$T/flat.tp"
assert_eq "ppc 3 size" "$(pngcheck 'print(p[0].shape)' "$T/p3.png")" "(3, 48, 60)"

# 2. the other modes break the repetition: one period apart, plain is
# equal, they are not (mostly); a one-colour texture stays its colour
for m in hex-linear hex-vp iq; do
	ok "$m" run_prog ttexture -q --materials "$T/m.txt" --mode $m --ppc 4 "$T/$m.png" < "$T/flat.tp"
	assert_eq "$m differs from its shift by a period" "$(pngcheck '
a = p[0][:3]; print(bool((a[:, :, :48] == a[:, :, 32:80]).mean() < 0.5))' "$T/$m.png")" "True"
done
ok "plain ppc 4" run_prog ttexture -q --materials "$T/m.txt" --mode plain --ppc 4 "$T/p4.png" < "$T/flat.tp"
assert_eq "plain equals its shift by a period" "$(pngcheck '
a = p[0][:3]; print(bool((a[:, :, :48] == a[:, :, 32:80]).all()))' "$T/p4.png")" "True"

# 3. the seed moves the offsets: a new picture, the same for the same seed
ok "seed 7" run_prog ttexture -q --materials "$T/m.txt" --mode hex-vp --seed 7 "$T/s7.png" < "$T/flat.tp"
ok "seed 7 again" run_prog ttexture -q --materials "$T/m.txt" --mode hex-vp --seed 7 "$T/s7b.png" < "$T/flat.tp"
assert_eq "seed changes" "$(cmp -s "$T/s7.png" "$T/hex-vp.png" && echo same || echo differ)" "differ"
assert_eq "seed repeats" "$(cmp -s "$T/s7.png" "$T/s7b.png" && echo same || echo differ)" "same"

# 4. threads: the same bytes on 1 and 3 threads, in every mode
for m in plain hex-linear hex-vp iq; do
	ok "$m -j 1" run_prog ttexture -q -j 1 --materials "$T/m.txt" --mode $m "$T/j1.png" < "$T/flat.tp"
	ok "$m -j 3" run_prog ttexture -q -j 3 --materials "$T/m.txt" --mode $m "$T/j3.png" < "$T/flat.tp"
	assert_eq "$m threads" "$(cmp -s "$T/j1.png" "$T/j3.png" && echo same || echo differ)" "same"
done

ok "triplanar -j 1" run_prog ttexture -q -j 1 --materials "$T/m.txt" --triplanar "$T/j1.png" < "$T/flat.tp"
ok "triplanar -j 3" run_prog ttexture -q -j 3 --materials "$T/m.txt" --triplanar "$T/j3.png" < "$T/flat.tp"
assert_eq "triplanar threads" "$(cmp -s "$T/j1.png" "$T/j3.png" && echo same || echo differ)" "same"

# 5. a tile cut at a shifted origin is the window of the whole picture
py 'write(np.zeros((24, 30)), "height", ["CELLSIZE 2.5", "ORIGIN 1000 5000"])' > "$T/big.tp"
py 'write(np.zeros((10, 12)), "height", ["CELLSIZE 2.5", "ORIGIN 1010 4985"])' > "$T/tile.tp"
for m in hex-linear hex-vp iq; do
	ok "$m whole" run_prog ttexture -q --materials "$T/m.txt" --mode $m --ppc 2 "$T/whole.png" < "$T/big.tp"
	ok "$m tile" run_prog ttexture -q --materials "$T/m.txt" --mode $m --ppc 2 "$T/tile.png" < "$T/tile.tp"
	assert_eq "$m tile = window" "$(pngcheck '
print(bool((p[0][:, 12:32, 8:32] == p[1]).all()))' "$T/whole.png" "$T/tile.png")" "True"
done

# 6. biomes pick their materials by name, with tints; NaN height and a
# biome without material ('*' absent, code not in the table) are clear
"$PY" - "$T/white.png" <<'PY'
import sys, numpy as np
from osgeo import gdal
d = gdal.GetDriverByName("MEM").Create("", 2, 2, 3, gdal.GDT_Byte)
for i in range(3): d.GetRasterBand(i + 1).WriteArray(np.full((2, 2), 255, "uint8"))
gdal.GetDriverByName("PNG").CreateCopy(sys.argv[1], d)
PY
mkdir "$T/sub"
cp "$T/white.png" "$T/sub/w.png"
printf 'grass sub/w.png 3 #10ff20\n"hot sand" sub/w.png 3 #c08040\n' > "$T/mb.txt"
py '
z = np.zeros((2, 2, 3)); z[:, 1, :] = [[0, 1, 0], [1, 0, 1]]; z[1, 0, 2] = np.nan
write(z, "height biome", ["BIOME 0 #000000 grass", "BIOME 1 #ffffff hot sand"])' > "$T/bio.tp"
ok "biomes" run_prog ttexture -q --alpha --materials "$T/mb.txt" --ppc 1 "$T/b.png" < "$T/bio.tp"
assert_eq "biome colours" "$(pngcheck 'print(p[0].transpose(1, 2, 0).reshape(-1, 4).tolist())' "$T/b.png")" \
    "[[16, 255, 32, 255], [192, 128, 64, 255], [16, 255, 32, 255], [192, 128, 64, 255], [16, 255, 32, 255], [0, 0, 0, 0]]"
printf 'grass sub/w.png 3\n' > "$T/mg.txt"
expect_err 1 "mg.txt: no material for biome 'hot sand' and no '\*' line" "biome without material" \
    run_prog ttexture -q --materials "$T/mg.txt" "$T/x.png" < "$T/bio.tp"
printf '* sub/w.png 3\nmeadow sub/w.png 3\n' > "$T/mm.txt"
expect_err 1 "mm.txt:2: no biome 'meadow'" "unknown biome" \
    run_prog ttexture -q --materials "$T/mm.txt" "$T/x.png" < "$T/bio.tp"
expect_err 1 "no band 'biome': give a '\*' line" "no biome band, no '*'" \
    run_prog ttexture -q --materials "$T/mg.txt" "$T/x.png" < "$T/flat.tp"
# Codes that are no biome are refused, as tgeotiff and tview refuse them,
# with or without a '*' line; a whole code not in the table has no
# material without '*' (and '*''s with it).
for v in 255 -1 3.5 1e30 inf; do
	py 'z = np.zeros((2, 2, 2)); z[1, 1, 0] = float(sys.argv[1])
write(z, "height biome", ["BIOME 0 #000000 grass", "BIOME 1 #ffffff hot sand"])' $v > "$T/bad.tp"
	for m in mb.txt mm0.txt; do
		printf '* sub/w.png 3\n' > "$T/mm0.txt"
		expect_err 1 "^ttexture: row 1, column 0: biome code .* is not a whole number 0..254$" \
		    "biome code $v ($m)" run_prog ttexture -q --materials "$T/$m" "$T/x.png" < "$T/bad.tp"
		[ ! -e "$T/x.png" ] && pass || fail "biome code $v: a picture was left"
	done
done
py 'z = np.zeros((2, 2, 2)); z[0, 1, 1] = 7
write(z, "height biome", ["BIOME 0 #000000 grass", "BIOME 1 #ffffff hot sand"])' > "$T/bad.tp"
expect_err 1 "^ttexture: row 0, column 1: biome code 7 has no material" "code not in the table" \
    run_prog ttexture -q --materials "$T/mb.txt" "$T/x.png" < "$T/bad.tp"
ok "code not in the table, '*'" run_prog ttexture -q --materials "$T/mm0.txt" "$T/x.png" < "$T/bad.tp"
rm -f "$T/x.png"

# 7. --triplanar on a plane tilted 60 degrees up to the east: the texture
# repeats every SIZE map units across the slope (north-south) and, from the
# YZ projection that dominates, every SIZE / tan 60 east-west on the
# picture; without it every SIZE both ways (stretched along the slope)
rgbpng 32 32 5 "$T/r.png"
printf '* r.png 8\n' > "$T/mr.txt"
py 'x = np.arange(48) + 0.5; write(np.tile(x * np.tan(np.pi / 3), (40, 1)), "height")' > "$T/tilt.tp"
# period PNG AXIS MAXLAG: the lag (8 .. MAXLAG pixels) of the luminance's
# autocorrelation peak
period() {
	pngcheck '
a = p[0][:3].astype(float).mean(0)
if sys.argv[2] == "y": a = a.T
a = a - a.mean(1, keepdims=True)
c = [np.mean(np.sum(a[:, :-k] * a[:, k:], 1) / np.sqrt(np.sum(a[:, :-k] ** 2, 1) * np.sum(a[:, k:] ** 2, 1))) for k in range(8, int(sys.argv[3]) + 1)]
print(8 + int(np.argmax(c)))' "$1" "$2" "$3"
}
ok "tilted plain" run_prog ttexture -q --materials "$T/mr.txt" --mode plain "$T/tp.png" < "$T/tilt.tp"
ok "tilted triplanar" run_prog ttexture -q --materials "$T/mr.txt" --mode plain --triplanar "$T/tt.png" < "$T/tilt.tp"
ok "tilted triplanar=8" run_prog ttexture -q --materials "$T/mr.txt" --mode hex-vp --triplanar=8 -z 1 "$T/t8.png" < "$T/tilt.tp"
assert_eq "plain period east-west" "$(period "$T/tp.png" x 40)" "32"
assert_eq "plain period north-south" "$(period "$T/tp.png" y 40)" "32"
# 32 / tan 60 = 18.5 pixels (37 is twice that: kept out of the range)
assert_eq "triplanar period east-west" "$(period "$T/tt.png" x 30 | awk '{ print ($1 >= 18 && $1 <= 19) }')" "1"
assert_eq "triplanar period north-south" "$(period "$T/tt.png" y 40)" "32"
expect_exit 2 "triplanar 0" run_prog ttexture --materials "$T/m.txt" --triplanar=0 "$T/x.png" < "$T/flat.tp"

# 7b. A geographic grid measures its normals in metres at each row's
# latitude: ground rising 10 degrees to the east at 60 N (cells of 0.001
# degree, 55.8 m east-west there) keeps the top projection, so --triplanar
# gives the plain picture within a grey level (the side projections weigh
# sin(10)^6 / cos(10)^6 = 3e-5); counted in degrees, the same heights
# would be a wall.
py '
lat = 60.02 - (np.arange(20) + 0.5) * 0.001
a = 6378137.0; e2 = 0.00669437999014; W = np.sqrt(1 - e2 * np.sin(np.radians(lat)) ** 2)
ew = a * np.cos(np.radians(lat)) / W * np.radians(0.001)
z = (np.arange(24) + 0.5)[None, :] * (ew * np.tan(np.radians(10)))[:, None]
write(z, "height", ["CELLSIZE 0.001", "ORIGIN 10 60.02", "CRS EPSG:4326"])' > "$T/geo.tp"
printf '* r.png 0.004\n' > "$T/mgeo.txt"
ok "geographic plain" run_prog ttexture -q --materials "$T/mgeo.txt" --mode plain "$T/gp.png" < "$T/geo.tp"
ok "geographic triplanar" run_prog ttexture -q --materials "$T/mgeo.txt" --mode plain --triplanar "$T/gt.png" < "$T/geo.tp"
assert_eq "geographic 10-degree slope: the top projection" "$(pngcheck '
print(int(np.abs(p[0] - p[1]).max()) <= 1)' "$T/gp.png" "$T/gt.png")" "True"

# 8. --shade: tview's light, 0.3 + 0.7 shade / sin 45, the sun in the
# north-west 45 degrees up: flat ground keeps its colour; a plane falling
# 1 in 1 to the east gets (sin 45 - cos 45 sin 45) / sqrt 2 = 0.146 shade
"$PY" - "$T/grey.png" <<'PY'
import sys, numpy as np
from osgeo import gdal
d = gdal.GetDriverByName("MEM").Create("", 2, 2, 3, gdal.GDT_Byte)
for i in range(3): d.GetRasterBand(i + 1).WriteArray(np.full((2, 2), 200, "uint8"))
gdal.GetDriverByName("PNG").CreateCopy(sys.argv[1], d)
PY
printf '* grey.png 4\n' > "$T/mgrey.txt"
ok "shade flat" run_prog ttexture -q --materials "$T/mgrey.txt" --shade --ppc 1 "$T/sf.png" < "$T/flat.tp"
assert_eq "shade flat keeps the colour" "$(pngcheck 'print(bool((p[0][:3] == 200).all()))' "$T/sf.png")" "True"
py 'write(np.tile(-np.arange(12.0), (10, 1)), "height")' > "$T/east.tp"
ok "shade east" run_prog ttexture -q --materials "$T/mgrey.txt" --shade --ppc 2 "$T/se.png" < "$T/east.tp"
assert_eq "shade east" "$(pngcheck '
s = (np.sin(np.pi / 4) - np.cos(np.pi / 4) * np.sin(np.pi / 4)) / np.sqrt(2)
want = 200 * (0.3 + 0.7 * s / np.sin(np.pi / 4))
print(bool((np.abs(p[0][:3, 2:-2, 2:-2] - want) <= 0.5).all()))' "$T/se.png")" "True"

# 9. --blend: a border between two biomes of flat colours mixes them by
# the area of the square of side W around each pixel; cells away from it
# keep their own; W beyond the cell size is refused
py '
z = np.zeros((4, 2, 4)); z[:, 1, 2:] = 1
write(z, "height biome", ["BIOME 0 #000000 grass", "BIOME 1 #ffffff hot sand", "CELLSIZE 2"])' > "$T/two.tp"
ok "blend" run_prog ttexture -q --materials "$T/mb.txt" --blend 2 --ppc 4 "$T/bl.png" < "$T/two.tp"
assert_eq "blend across the border" "$(pngcheck '
r = p[0][0, 5]; print(r[:4].tolist(), r[4:8].tolist(), r[8:12].tolist(), r[12:].tolist())' "$T/bl.png")"     "[16, 16, 16, 16] [16, 16, 38, 82] [126, 170, 192, 192] [192, 192, 192, 192]"
expect_err 1 "at most the cell size" "blend too wide" \
    run_prog ttexture -q --materials "$T/mb.txt" --blend 2.5 "$T/x.png" < "$T/two.tp"

# 9b. OUT.tif: a georeferenced RGB GeoTIFF with the PNG's pixels, its
# cells CELLSIZE / N at the stream's origin, in its CRS; with --alpha a
# fourth band GDAL reads as alpha (0 on the NaN cell)
py '
z = np.zeros((2, 2, 3)); z[:, 1, :] = [[0, 1, 0], [1, 0, 1]]; z[1, 0, 2] = np.nan
write(z, "height biome", ["BIOME 0 #000000 grass", "BIOME 1 #ffffff hot sand", "CELLSIZE 30", "ORIGIN 500000 4650000", "CRS EPSG:32633"])' > "$T/biogeo.tp"
for a in "" -a; do
	ok "GeoTIFF $a" run_prog ttexture -q $a --materials "$T/mb.txt" --ppc 3 "$T/g$a.tif" < "$T/biogeo.tp"
	ok "PNG $a" run_prog ttexture -q $a --materials "$T/mb.txt" --ppc 3 "$T/g$a.png" < "$T/biogeo.tp"
done
assert_eq "GeoTIFF: the PNG's pixels, georeferenced" "$("$PY" - "$T" <<'PY'
import sys
from osgeo import gdal
t = sys.argv[1]
out = []
for a in ("", "-a"):
    g, p = gdal.Open(f"{t}/g{a}.tif"), gdal.Open(f"{t}/g{a}.png")
    srs = g.GetSpatialRef()
    out.append([g.RasterCount, bool((g.ReadAsArray() == p.ReadAsArray()).all()),
        g.GetGeoTransform(), srs.GetAuthorityCode(None),
        [gdal.GetColorInterpretationName(g.GetRasterBand(i + 1).GetColorInterpretation()) for i in range(g.RasterCount)],
        g.GetRasterBand(1).GetNoDataValue()])
print(out[0]); print(out[1]); print(gdal.Open(f"{t}/g-a.tif").ReadAsArray()[3][3:6, 6:9].tolist())
PY
)" "[3, True, (500000.0, 10.0, 0.0, 4650000.0, 0.0, -10.0), '32633', ['Red', 'Green', 'Blue'], None]
[4, True, (500000.0, 10.0, 0.0, 4650000.0, 0.0, -10.0), '32633', ['Red', 'Green', 'Blue', 'Alpha'], None]
[[0, 0, 0], [0, 0, 0], [0, 0, 0]]"
ok "GeoTIFF -j 1" run_prog ttexture -q -j 1 --materials "$T/m.txt" --mode hex-vp --triplanar "$T/j1.tif" < "$T/tilt.tp"
ok "GeoTIFF -j 2" run_prog ttexture -q -j 2 --materials "$T/m.txt" --mode hex-vp --triplanar "$T/j2.tif" < "$T/tilt.tp"
assert_eq "GeoTIFF threads" "$(cmp -s "$T/j1.tif" "$T/j2.tif" && echo same || echo differ)" "same"

# 10. infinite and huge heights: a picture, no crash (NaN normals draw
# black, not a float cast out of range)
py 'z = np.zeros((6, 6)); z[2, 2] = np.inf; z[3, 3] = -np.inf; z[4, 1] = 3e38; write(z, "height")' > "$T/inf.tp"
ok "infinite heights" run_prog ttexture -q --materials "$T/m.txt" --triplanar --shade --blend 1 -z 1e12 "$T/inf.png" < "$T/inf.tp"

# 11. errors: one line, exit 1 (bad input) or 2 (misuse), no picture left
printf '* t.png 8\nrock t.png x\n' > "$T/bad.txt"
expect_err 1 "bad.txt:2: size" "materials line" run_prog ttexture --materials "$T/bad.txt" "$T/x.png" < "$T/flat.tp"
printf '* none.png 8\n' > "$T/bad.txt"
expect_err 1 "bad.txt:1: .*none.png" "missing texture" run_prog ttexture --materials "$T/bad.txt" "$T/x.png" < "$T/flat.tp"
expect_err 1 "nothere.txt" "missing materials" run_prog ttexture --materials "$T/nothere.txt" "$T/x.png" < "$T/flat.tp"
expect_exit 2 "no materials" run_prog ttexture "$T/x.png" < "$T/flat.tp"
expect_exit 2 "no output" run_prog ttexture --materials "$T/m.txt" < "$T/flat.tp"
expect_exit 2 "bad mode" run_prog ttexture --materials "$T/m.txt" --mode hex "$T/x.png" < "$T/flat.tp"
expect_exit 2 "ppc 0" run_prog ttexture --materials "$T/m.txt" --ppc 0 "$T/x.png" < "$T/flat.tp"
expect_exit 2 "ppc 65" run_prog ttexture --materials "$T/m.txt" --ppc 65 "$T/x.png" < "$T/flat.tp"
py 'write(np.zeros((4, 4)), "slope")' > "$T/slope.tp"
expect_err 1 "no band 'height'" "no height" run_prog ttexture -q --materials "$T/m.txt" "$T/x.png" < "$T/slope.tp"
head -c $(( $(wc -c < "$T/flat.tp") - 100 )) "$T/flat.tp" > "$T/short.tp"
expect_exit 1 "truncated input" run_prog ttexture -q --materials "$T/m.txt" "$T/x.png" < "$T/short.tp"
expect_exit 1 "truncated input, GeoTIFF" run_prog ttexture -q --materials "$T/m.txt" "$T/x.tif" < "$T/short.tp"
assert_eq "no picture left" "$(ls "$T" | grep -c '^x\.\(png\|tif\)')" "0"

finish
