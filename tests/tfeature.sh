#!/bin/bash
# tfeature: heights by hand, the header, misuse and bad files, adding to a
# stream, layers that sum to the whole, tiles byte-identical to windows of
# a large run, threads, GeoJSON against text.
. "$(dirname "$0")/common.sh"

# Golden values: a hill of 100 with sigma 4 at (5, 5) on a base of 10, on
# a 5x5 grid of 2-unit cells from (0, 10): the centre cell is its peak, the
# cells 4 units west and north stand at 10 + 100 e^-0.5 (float).
printf 'base 10\nhill 5 5 100 4\n' > "$T/hill.txt"
run_prog tfeature "$T/hill.txt" -s 5x5 -c 2 --origin 0,10 > "$T/h"
assert_eq "peak" "$(values "$T/h" | sed -n 13p)" 110
sig=$("$PY" -c 'import numpy as np, math; print("%.9g" % np.float32(10 + 100 * math.exp(-0.5)))')
assert_eq "one sigma west" "$(values "$T/h" | sed -n 11p)" "$sig"
assert_eq "one sigma north" "$(values "$T/h" | sed -n 3p)" "$sig"
assert_eq "header" "$(header_lines "$T/h" | tr '\n' '|')" \
    "TERRAPIPE 1|WIDTH 5|HEIGHT 5|BANDS height|CELLSIZE 2|ORIGIN 0 10|HISTORY tfeature --size 5x5 --cellsize 2 --origin 0,10 $T/hill.txt|"
run_prog tfeature -s 4x2 -c 30 --origin 500000,4650000 --crs EPSG:32633 \
    "$T/hill.txt" > "$T/geo"
assert_eq "crs" "$(header "$T/geo" CRS)" "EPSG:32633"
assert_eq "base far from the hill" "$(values "$T/geo" | sort -u)" 10

# A hill stays where it is on a grid of 1 mm cells 10 km from the origin
# (1e10 cells: centres are not clamped to 2^31 cells as noise's are).
printf 'hill 10000000 0 5 0.002\n' > "$T/mm.txt"
run_prog tfeature "$T/mm.txt" -s 3x3 -c 0.001 --origin 9999999.9985,0.0015 > "$T/mm"
assert_eq "far from the origin" "$(values "$T/mm" | sed -n 5p)" 5

# Each kind at a few cells, against the formulas in numpy (1-unit cells
# from (0, 100): cell (c, r) is centred on (c + 0.5, 99.5 - r)).
cat > "$T/kinds.txt" <<'EOF'
# one of each
base 1
ridge 10.5 80.5 60.5 80.5 20 4          # along y = 80.5
cliff 20.5 40.5 80.5 40.5 8 10 2        # terrace north of y = 40.5
plateau 30.5 20.5 6 -5 3                # a basin
EOF
run_prog tfeature "$T/kinds.txt" -s 100x100 > "$T/k"
assert_eq "kinds by hand" "$(py - "$T/k" <<'PYEOF'
b = band(sys.argv[1], "height")
at = lambda x, y: b[int(99.5 - y), int(x - 0.5)]
f = np.float32
checks = [
    at(30.5, 80.5) == f(21), at(30.5, 84.5) == f(1 + 20 * np.exp(-0.5)),
    at(30.5, 76.5) == at(30.5, 84.5), at(64.5, 80.5) == f(1 + 20 * np.exp(-0.5)),
    at(50.5, 45.5) == f(9), at(50.5, 36.5) == f(1), at(50.5, 39.5) == f(5),
    at(50.5, 51.5) == f(5), at(81.5, 45.5) == f(5), at(83.5, 45.5) == f(1),
    at(30.5, 20.5) == f(-4), at(36.5, 20.5) == f(-4),
    at(38.5, 20.5) == f(1 + -5 * (1 - (2 / 3) * (2 / 3) * (3 - 2 * (2 / 3)))),
    at(39.5, 20.5) == f(1),
]
print(all(bool(c) for c in checks), [i for i, c in enumerate(checks) if not c])
PYEOF
)" "True []"

# Misuse exits 2; a bad feature file exits 1 naming the file, the line and
# the field, and writes nothing.
expect_exit 2 "no file" run_prog tfeature -s 4x4
expect_exit 2 "two files" run_prog tfeature "$T/hill.txt" "$T/hill.txt" -s 4x4
expect_exit 2 "cellsize without size" run_prog tfeature -c 2 "$T/hill.txt"
expect_exit 2 "bad layer" run_prog tfeature -l hills,rocks -s 4x4 "$T/hill.txt"
expect_exit 2 "bad index cell" run_prog tfeature --index-cell 0 -s 4x4 "$T/hill.txt"
expect_exit 2 "bad size" run_prog tfeature -s 0x4 "$T/hill.txt"
expect_exit 2 "two modes" run_prog tfeature --write-text -s 4x4 "$T/hill.txt"
expect_exit 2 "unknown option" run_prog tfeature --fit-all "$T/hill.txt"
expect_err 1 "cannot open" "missing file" run_prog tfeature -s 4x4 "$T/none.txt"
printf 'base 1\nhill 0 0 1 1\n\ncliff 0 0 1 0 1 1 0\n' > "$T/bad.txt"
expect_err 1 "^tfeature: $T/bad.txt:4: field 'falloff' of cliff must be > 0 (got 0)$" \
    "falloff 0" run_prog tfeature -s 4x4 "$T/bad.txt"
assert_eq "nothing written" "$(wc -c < "$T/.out")" 0
printf 'hill 1 2 three 4\n' > "$T/bad.txt"
expect_err 1 "bad.txt:1: field 'height' of hill is not a number ('three')" \
    "not a number" run_prog tfeature -s 4x4 "$T/bad.txt"
ok "help" run_prog tfeature --help
assert_eq "help shows defaults" "$(grep -c 'default: ' "$T/.out")" 6

# Added to a stream: the height band gains the features, other bands and
# keys pass through; NaN stays NaN.
py - > "$T/in" <<'PYEOF'
r = np.random.default_rng(4)
a = r.uniform(-1, 2, (60, 2, 50)).astype('<f4')
a[3, 1, 7] = np.nan
write(a, "moisture height", ["CELLSIZE 2", "ORIGIN -10 130", "FOO bar"])
PYEOF
run_prog tfeature "$T/kinds.txt" < "$T/in" > "$T/add"
run_prog tfeature "$T/kinds.txt" -s 50x60 -c 2 --origin -10,130 > "$T/gen"
assert_eq "added" "$(py - "$T/in" "$T/add" "$T/gen" <<'PYEOF'
a, b, g = (grid(p) for p in sys.argv[1:4])
s = a[:, 1].astype(float) + g[:, 0]
ok = np.isclose(b[:, 1], s, rtol=1e-6, atol=1e-5, equal_nan=True).all()
print(ok, a[:, 0].tobytes() == b[:, 0].tobytes(), bool(np.isnan(b[3, 1, 7])),
      int(np.isnan(b).sum()))
PYEOF
)" "True True True 1"
assert_eq "keys kept" "$(header "$T/add" FOO)" "bar"
assert_eq "history" "$(header_lines "$T/add" | grep -c '^HISTORY tfeature ')" 1
head -c 3000 "$T/in" > "$T/trunc"
expect_err 1 "row" "truncated input" run_prog tfeature "$T/kinds.txt" < "$T/trunc"
run_prog tnoise -s 8x8 | run_prog tband -r height=h > "$T/noheight"
expect_err 1 "no band 'height'" "no height band" run_prog tfeature "$T/kinds.txt" < "$T/noheight"

# Layers: hills + features + residual is the whole within float rounding;
# each alone is something; a comma list is the same as repeated options.
cat > "$T/all.txt" <<'EOF'
base 3
hill 40 40 50 12
hill 70 55 -20 8
ridge 5 90 95 70 15 4
cliff 10 10 90 30 6 12 3
plateau 60 30 10 8 5
residual 11 2.5 30 4
residual 12 0.5 7 2
EOF
for l in hills features residual; do
	run_prog tfeature "$T/all.txt" -s 120x100 -c 1 --layer $l > "$T/L.$l"
done
run_prog tfeature "$T/all.txt" -s 120x100 > "$T/L.all"
assert_eq "layers sum" "$(py - "$T"/L.hills "$T"/L.features "$T"/L.residual "$T"/L.all <<'PYEOF'
h, f, r, a = (grid(p)[:, 0].astype(float) for p in sys.argv[1:5])
err = np.abs(h + f + r - a) / np.maximum(1, np.abs(a))
print(bool(err.max() < 3e-7), bool(np.ptp(h) > 10 and np.ptp(f) > 5 and np.ptp(r) > 1))
PYEOF
)" "True True"
run_prog tfeature "$T/all.txt" -s 120x100 -l hills,residual > "$T/L.hr1"
run_prog tfeature "$T/all.txt" -s 120x100 -l residual --layer hills > "$T/L.hr2"
assert_eq "comma list = repeated" "$(body "$T/L.hr1" | md5sum)" "$(body "$T/L.hr2" | md5sum)"
run_prog tfeature "$T/all.txt" -s 120x100 -l hills,features,residual > "$T/L.three"
assert_eq "all three = default" "$(body "$T/L.three" | md5sum)" "$(body "$T/L.all" | md5sum)"

# Tiles: a 2x2 grid of tiles with shifted origins is byte-identical to the
# windows of one large run, on a UTM-like grid and one not exact in binary.
tiles() {
	cs=$1 ox=${2%,*} oy=${2#*,} file=$3
	run_prog tfeature "$file" -s 60x40 -c "$cs" --origin "$ox,$oy" > "$T/big"
	for ty in 0 1; do
		for tx in 0 1; do
			to=$(awk -v x="$ox" -v y="$oy" -v c="$cs" -v i=$tx -v j=$ty \
			    'BEGIN { printf "%.12g,%.12g", x + i * 30 * c, y - j * 20 * c }')
			run_prog tfeature "$file" -s 30x20 -c "$cs" --origin "$to" \
			    --index-cell $((37 + tx * 50)) > "$T/tile"
			run_prog tcrop -w $((tx * 30)),$((ty * 20)),30,20 < "$T/big" > "$T/win"
			assert_eq "tile $tx,$ty cs $cs" "$(body "$T/tile" | md5sum)" \
			    "$(body "$T/win" | md5sum)"
		done
	done
}
awk '$1 == "base" { print; next } $1 == "residual" { print; next }
    { for (i = 2; i <= NF; i++) if ($1 == "hill" && i <= 3 || $1 == "plateau" && i <= 3 ||
      ($1 == "ridge" || $1 == "cliff") && i <= 5) $i = $i * 30 + (i % 2 ? 4649000 : 500000);
      else if (i > 3 && $1 != "ridge" && $1 != "cliff" || i > 5) $i = $i * 20; print }' \
    "$T/all.txt" > "$T/utm.txt"
tiles 30 500000,4650200 "$T/utm.txt"
tiles 0.7 0.3,70.1 "$T/all.txt"

# -j 1 and -j 2 give the same bytes, made and added.
run_prog tfeature "$T/all.txt" -s 700x300 -c 0.2 -j 1 > "$T/j1"
run_prog tfeature "$T/all.txt" -s 700x300 -c 0.2 -j 2 > "$T/j2"
assert_same "-j 1 = -j 2" "$T/j1" "$T/j2"
run_prog tfeature "$T/all.txt" -j 1 < "$T/in" > "$T/a1"
run_prog tfeature "$T/all.txt" -j 2 -q < "$T/in" > "$T/a2"
assert_same "added: -j 1 = -j 2" "$T/a1" "$T/a2"

# --write-text reads back to the same bytes.
run_prog tfeature --write-text "$T/all.txt" > "$T/re.txt"
run_prog tfeature "$T/re.txt" -s 120x100 > "$T/L.re"
assert_eq "text round trip" "$(body "$T/L.re" | md5sum)" "$(body "$T/L.all" | md5sum)"
assert_eq "text form" "$(sed -n 2p "$T/re.txt")" "hill 40 40 50 12"

# GeoJSON: the same features give the same bytes, by name or by content;
# GeoJSON back to text is the text; a malformed file is one line, exit 1.
run_prog tfeature --write-geojson "$T/all.txt" > "$T/all.geojson"
assert_eq "geojson is json" "$("$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["type"], len(d["features"]), d["features"][1]["geometry"]["type"],
      d["features"][3]["geometry"]["coordinates"])' "$T/all.geojson")" \
    "FeatureCollection 8 Point [[5, 90], [95, 70]]"
run_prog tfeature "$T/all.geojson" -s 120x100 > "$T/L.geo"
assert_eq "geojson = text" "$(body "$T/L.geo" | md5sum)" "$(body "$T/L.all" | md5sum)"
cp "$T/all.geojson" "$T/noext"
run_prog tfeature "$T/noext" -s 120x100 -l features > "$T/L.geo2"
assert_eq "geojson by content" "$(body "$T/L.geo2" | md5sum)" "$(body "$T/L.features" | md5sum)"
run_prog tfeature --write-text "$T/all.geojson" > "$T/back.txt"
assert_eq "geojson back to text" "$(cat "$T/back.txt")" "$(cat "$T/re.txt")"
printf '{"type": "FeatureCollection", "features": [\n{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"kind": "hill", "height": NaN, "sigma": 1}}]}\n' > "$T/nan.geojson"
expect_err 1 "^tfeature: $T/nan.geojson:2:.*: invalid token near 'NaN'$" "NaN" \
    run_prog tfeature -s 4x4 "$T/nan.geojson"
assert_eq "one line" "$(wc -l < "$T/.err")" 1
sed 's/"coordinates": \[\[5, 90\], \[95, 70\]\]/"coordinates": [[5, 90], [50, 80], [95, 70]]/' \
    "$T/all.geojson" > "$T/three.geojson"
expect_err 1 "feature 4: a ridge's LineString has 3 positions, not 2" \
    "three-point ridge" run_prog tfeature -s 4x4 "$T/three.geojson"

# GDAL (what QGIS reads and writes GeoJSON with) takes the CRS of
# --write-geojson --crs, and its own GeoJSON of the same features (other
# members, null geometries, its layout) reads back to the same text.
run_prog tfeature --write-geojson --crs EPSG:32633 "$T/utm.txt" > "$T/utm.geojson"
assert_eq "GDAL sees the CRS" "$(ogrinfo -so -al "$T/utm.geojson" 2>/dev/null |
    grep -c 'PROJCRS\["WGS 84 / UTM zone 33N"')" 1
assert_eq "GDAL sees the features" "$(ogrinfo -so -al "$T/utm.geojson" 2>/dev/null |
    sed -n 's/^Feature Count: //p')" 8
ogr2ogr -f GeoJSON "$T/gdal.geojson" "$T/utm.geojson" 2>/dev/null
run_prog tfeature --write-text "$T/gdal.geojson" > "$T/gdal.txt"
run_prog tfeature --write-text "$T/utm.txt" > "$T/utm2.txt"
assert_eq "GDAL's GeoJSON reads back" "$(cat "$T/gdal.txt")" "$(cat "$T/utm2.txt")"
expect_exit 2 "--crs for text" run_prog tfeature --write-text --crs EPSG:32633 "$T/utm.txt"

# A pipeline: features added to noise, then shaped.
run_prog tnoise -s 64x64 -S 3 | run_prog tfeature "$T/all.txt" |
    run_prog tshape -c valleys > "$T/p"
assert_eq "pipeline history" "$(grep -a -c '^HISTORY ' "$T/p")" 3

# --fit: a DEM made of a base and three hills (2-unit cells) is fitted back
# by three hills; the file opens with its geometry, reproduces the DEM
# through tfeature, and the RMS after each tenth is on stderr.
printf 'base 10\nhill 40 80 30 12\nhill 90 60 8 6\nhill 70 30 20 9\n' > "$T/three.txt"
run_prog tfeature "$T/three.txt" -s 64x64 -c 2 --origin 0,128 > "$T/dem"
ok "fit" run_prog tfeature --fit 3 < "$T/dem"
cp "$T/.out" "$T/fit.txt"
cp "$T/.err" "$T/fit.err"
assert_eq "fit geometry" "$(sed -n 1p "$T/fit.txt")" \
    "# tfeature --size 64x64 --cellsize 2 --origin 0,128"
assert_eq "fit kinds" "$(grep -v '^#' "$T/fit.txt" | cut -d' ' -f1 | sort | uniq -c |
    awk '{ printf "%s %s ", $2, $1 }')" "base 1 hill 3 residual 1 "
assert_eq "fit rms lines" "$(grep -c '^tfeature: [0-9]* hills, rms [0-9.e-]* (.*% of the relief)$' "$T/fit.err")" 3
assert_eq "fit last line" "$(tail -n 1 "$T/fit.err" | cut -d, -f1)" "tfeature: 3 hills"
run_prog tfeature -q --fit 3 < "$T/dem" > /dev/null 2> "$T/fitq.err"
assert_eq "fit -q: not a word" "$(wc -c < "$T/fitq.err")" 0
# shellcheck disable=SC2046 # the geometry line is options to split
run_prog tfeature "$T/fit.txt" $(sed -n '1s/^# tfeature //p' "$T/fit.txt") -l hills > "$T/again"
assert_eq "fit reproduces the DEM" "$(py - "$T/dem" "$T/again" <<'PYEOF'
a, b = (band(p, "height").astype(float) for p in sys.argv[1:3])
print(a.shape == b.shape, bool(np.abs(a - b).max() < 0.01 * np.ptp(a)))
PYEOF
)" "True True"
run_prog tfeature --fit 3 -j 1 < "$T/dem" > "$T/f1" 2>/dev/null
run_prog tfeature --fit 3 -j 2 -q < "$T/dem" > "$T/f2" 2>/dev/null
assert_same "fit: -j 1 = -j 2" "$T/f1" "$T/f2"
ok "fit with plateaus" run_prog tfeature --fit 2 --plateaus < "$T/dem"
expect_exit 2 "fit with a file" run_prog tfeature --fit 3 "$T/three.txt" < "$T/dem"
expect_exit 2 "fit with a size" run_prog tfeature --fit 3 -s 4x4 < "$T/dem"
expect_exit 2 "fit with a layer" run_prog tfeature --fit 3 -l hills < "$T/dem"
expect_exit 2 "fit -1" run_prog tfeature --fit -1 < "$T/dem"
expect_exit 2 "plateaus without fit" run_prog tfeature --plateaus -s 4x4 "$T/three.txt"
head -c 3000 "$T/dem" > "$T/trunc"
expect_err 1 "row" "fit: truncated input" run_prog tfeature --fit 3 < "$T/trunc"
assert_eq "fit: nothing written" "$(wc -c < "$T/.out")" 0
expect_err 1 "no band 'height'" "fit: no height band" run_prog tfeature --fit 3 < "$T/noheight"
py 'write(np.full((4, 1, 4), np.nan, "<f4"), "height")' > "$T/allnan"
expect_err 1 "every cell is nodata" "fit: all nodata" run_prog tfeature --fit 3 < "$T/allnan"

finish
