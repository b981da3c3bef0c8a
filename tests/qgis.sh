#!/bin/bash
# qgis: the QGIS Processing provider (qgis/terrapipe) headless, through
# qgis_process: it lists every program of bin/ (and the chain and the two
# models); terrapipe:tfill and a three-stage chain on the real DEM make
# files whose samples, geotransform and CRS equal the shell pipeline's;
# both models run and their outputs load as valid layers; a bad parameter
# comes back as an error naming it. Needs qgis and python3-qgis:
# scripts/install-deps qgis (the CI's .ci/run calls it).
. "$(dirname "$0")/common.sh"

QP=$(command -v qgis_process.bin || command -v qgis_process || true)
if [ -z "$QP" ] || ! "$TP_PYREAL" -c 'import qgis.core' 2>/dev/null; then
	fail "QGIS is not installed: scripts/install-deps qgis (as root)" \
	    "installs qgis and python3-qgis"
	finish
	exit
fi
# A profile of its own with the plugin enabled; the provider finds the
# programs through TERRAPIPE_BIN.
export HOME=$T/home XDG_RUNTIME_DIR=$T/run QT_QPA_PLATFORM=offscreen
export QGIS_PLUGINPATH=$ROOT/qgis TERRAPIPE_BIN=$TP_BIN
mkdir -p "$HOME/.local/share/QGIS/QGIS3/profiles/default/QGIS" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
printf '[PythonPlugins]\nterrapipe=true\n' \
    > "$HOME/.local/share/QGIS/QGIS3/profiles/default/QGIS/QGIS3.ini"
# qp ARGS: qgis_process, its log (stdout and stderr) on stdout.
qp() { "$QP" "$@" 2>&1 | grep -v 'XDG_RUNTIME\|setapi'; return "${PIPESTATUS[0]}"; }
# qp_err PATTERN DESC ARGS: qgis_process fails and its log matches PATTERN.
qp_err() {
	local pat=$1 d=$2 rc
	shift 2
	qp "$@" > "$T/.out"
	rc=$?
	if [ "$rc" = 0 ]; then fail "$d: exit 0"
	elif ! grep -q -- "$pat" "$T/.out"; then
		fail "$d: no '$pat' in: $(tail -c 300 "$T/.out")"
	else pass; fi
}
DEM=$DATA/jacksboro_fault_dem.tif

# Every program, the chain and the models are algorithms.
qp list > "$T/list"
missing=""
for p in $(cd "$TP_BIN" && ls t*) chain hydrology world; do
	grep -q "terrapipe:$p[[:space:]]" "$T/list" || missing="$missing $p"
done
assert_eq "qgis_process list: every program" "$missing" ""

# same A B: A's samples (NaN where nodata), geotransform and CRS are B's.
same() {
	"$PY" - "$1" "$2" <<'PY'
import sys, numpy as np
from osgeo import gdal, osr
a, b = gdal.Open(sys.argv[1]), gdal.Open(sys.argv[2])
assert a.RasterCount == b.RasterCount, "band count"
assert np.allclose(a.GetGeoTransform(), b.GetGeoTransform(), 0, 1e-12)
assert osr.SpatialReference(a.GetProjection()).IsSame(
    osr.SpatialReference(b.GetProjection())), "crs"
for i in range(1, a.RasterCount + 1):
    x = a.GetRasterBand(i).ReadAsArray()
    y = b.GetRasterBand(i).ReadAsArray()
    assert np.array_equal(x, y, equal_nan=True), "band %d" % i
    assert a.GetRasterBand(i).GetDescription() == \
        b.GetRasterBand(i).GetDescription()
print("same")
PY
}

# One program: terrapipe:tfill against timport | tfill | tgeotiff.
ok "run terrapipe:tfill" qp run terrapipe:tfill --INPUT="$DEM" \
    --OUTPUT="$T/q-fill.tif"
run_prog timport "$DEM" | run_prog tfill -q | run_prog tgeotiff -q "$T/s-fill.tif"
assert_eq "tfill: QGIS's is the shell's" \
    "$(same "$T/q-fill.tif" "$T/s-fill.tif" 2>&1 | tail -1)" same
# With options: a choice, a number and a flag.
ok "run terrapipe:tflow" qp run terrapipe:tflow --INPUT="$T/q-fill.tif" \
    --method=2 --rivers=300 --basins=true --BANDS=flow,river,basin \
    --OUTPUT="$T/q-flow.tif"
run_prog timport "$DEM" | run_prog tfill -q |
    run_prog tflow -q --method mfd --rivers 300 --basins |
    run_prog tgeotiff -q -b flow,river,basin "$T/s-flow.tif"
assert_eq "tflow: QGIS's is the shell's" \
    "$(same "$T/q-flow.tif" "$T/s-flow.tif" 2>&1 | tail -1)" same

# A three-stage chain as one pipeline.
ok "run terrapipe:chain" qp run terrapipe:chain --INPUT="$DEM" \
    --PIPELINE="tfill --depth | tflow --rivers 300 | tslope" \
    --BANDS=height,flow,slope --OUTPUT="$T/q-chain.tif"
grep -q "timport .* | tfill --depth | tflow --rivers 300 | tslope" \
    "$T/.out" && pass || fail "chain: no one-pipeline command in the log"
run_prog timport "$DEM" | run_prog tfill -q --depth |
    run_prog tflow -q --rivers 300 | run_prog tslope -q |
    run_prog tgeotiff -q -b height,flow,slope "$T/s-chain.tif"
assert_eq "chain: QGIS's is the shell's" \
    "$(same "$T/q-chain.tif" "$T/s-chain.tif" 2>&1 | tail -1)" same

# The models; their outputs load as valid layers.
ok "hydrology model" qp run terrapipe:hydrology --dem="$DEM" --rivers=300 \
    --fill:filled="$T/m-filled.tif" --flow:flow="$T/m-flow.tif" \
    --slope:slope="$T/m-slope.tif" --vectors:vectors="$T/m-vec.gpkg"
# Its inputs and all but one output left out: defaults, temporary files.
ok "hydrology model, one output" qp run terrapipe:hydrology --dem="$DEM" \
    --vectors:vectors="$T/only.gpkg"
[ -s "$T/only.gpkg" ] && pass || fail "hydrology model: no only.gpkg"
grep -q "tflow --basins --rivers 300 " "$T/.out" && pass ||
    fail "hydrology model: no --rivers 300 by default"
run_prog timport "$DEM" | run_prog tfill -q --depth |
    run_prog tflow -q --rivers 300 --basins > "$T/hydro.tp"
run_prog tvector -q --rivers --basins --lakes "$T/s-vec.gpkg" < "$T/hydro.tp"
run_prog tgeotiff -q -b height,depth,flow,dir,river,basin,lake \
    "$T/hydro.tp" "$T/s-flow.tif"
assert_eq "hydrology model: the shell's flow" \
    "$(same "$T/m-flow.tif" "$T/s-flow.tif" 2>&1 | tail -1)" same
assert_eq "hydrology model: the shell's rivers, basins and lakes" \
    "$("$PY" - "$T/m-vec.gpkg" "$T/s-vec.gpkg" <<'PY'
import sys
from osgeo import ogr
a, b = (ogr.Open(f) for f in sys.argv[1:])
print(all(a.GetLayerByName(n).GetFeatureCount() ==
          b.GetLayerByName(n).GetFeatureCount() > 0
          for n in ("rivers", "basins", "lakes")))
PY
)" True
ok "world model" qp run terrapipe:world --size=128x128 --cellsize=480 \
    --seed=7 --droplets=3000 --rivers=2 --biome:biome="$T/w-biome.tif" \
    --heights:heights="$T/w-heights.tif"
# It is the README's whole world (at 128x128 cells of 480 m).
run_prog tnoise -q --size 128x128 --cellsize 480 --origin 500000,4650000 \
    --crs EPSG:32633 --seed 7 --octaves 8 --warp 0.3 --frequency 6.5e-5 |
    run_prog tshape -q --stretch 0.2,0.8 |
    run_prog tisland -q --mix 0.6 --shape square-bump --warp 0.3 --sea 0.38 |
    run_prog tnoise -q --band uplift --seed 3 --octaves 3 --frequency 6.5e-5 |
    run_prog tshape -q --band uplift --stretch 0.3,0.65 |
    run_prog tuplift -q --flow mfd --zscale 1800 --k 1e-5 --uplift 1.3e-4 \
        --diffusion 0.08 --dt 50000 --steps 50 |
    run_prog terode -q --droplets 3000 | run_prog tfill -q --depth |
    run_prog tflow -q --rivers 2 | run_prog tnoise -q --band moisture --seed 8 |
    run_prog tbiome -q --zscale 1800 > "$T/world.tp"
run_prog tgeotiff -q -b biome "$T/world.tp" "$T/s-biome.tif"
run_prog tgeotiff -q --zrange -684,1116 "$T/world.tp" "$T/s-heights.tif"
assert_eq "world model: the README's biomes" \
    "$(same "$T/w-biome.tif" "$T/s-biome.tif" 2>&1 | tail -1)" same
assert_eq "world model: the README's heights" \
    "$(same "$T/w-heights.tif" "$T/s-heights.tif" 2>&1 | tail -1)" same
"$TP_PYREAL" - "$T" > "$T/layers" 2>&1 <<'PY'
import sys
from qgis.core import QgsApplication, QgsRasterLayer, QgsVectorLayer
app = QgsApplication([], False)
app.initQgis()
t = sys.argv[1]
for f, bands in (("m-filled", 2), ("m-flow", 7), ("m-slope", 2),
                 ("w-biome", 1), ("w-heights", 1)):
    r = QgsRasterLayer("%s/%s.tif" % (t, f), f)
    print(f, r.isValid() and r.bandCount() == bands and r.crs().isValid())
for n in ("rivers", "basins", "lakes"):
    v = QgsVectorLayer("%s/m-vec.gpkg|layername=%s" % (t, n), n, "ogr")
    print(n, v.isValid() and v.featureCount() > 0 and v.crs().isValid())
r = QgsRasterLayer(t + "/w-biome.tif", "biome")
print("biome style", r.loadDefaultStyle()[1] and
      r.renderer().type() == "paletted")
PY
assert_eq "model outputs are valid layers" \
    "$(grep -c ' True$' "$T/layers")/$(wc -l < "$T/layers")" "9/9"
grep -v ' True$' "$T/layers" | head -5 >&2

# A bad parameter: the stage's one-line message, naming the option, as a
# QGIS error; a bad choice named by QGIS.
qp_err "ERROR:.*tflow: --rivers: -5" "bad --rivers" \
    run terrapipe:tflow --INPUT="$DEM" --rivers=-5 --OUTPUT="$T/bad.tif"
qp_err "Incorrect parameter value for method" "bad --method" \
    run terrapipe:tflow --INPUT="$DEM" --method=9 --OUTPUT="$T/bad.tif"
qp_err "PIPELINE: 'rm' is no terrapipe program" "chain of no program" \
    run terrapipe:chain --INPUT="$DEM" --PIPELINE="tfill | rm -rf x" \
    --OUTPUT="$T/bad.tif"
# Found on PATH instead, where tar is too: only terrapipe's programs run.
TERRAPIPE_BIN='' qp_err "PIPELINE: 'tar' is no terrapipe program" \
    "chain of tar, programs on PATH" run terrapipe:chain \
    --PIPELINE="tnoise -s 8x8 | tar cf $T/x.tar" --OUTPUT="$T/bad.tif"
[ ! -e "$T/x.tar" ] && pass || fail "the chain ran tar"
finish
