# pipeline.sh - the stages together, as DESIGN.md chains them.
. "$(dirname "$0")/common.sh"

# The point-stage chain is tileable: 2x2 tiles made with shifted origins are
# byte-identical to the windows of the whole (every stage works at world
# coordinates; tisland gets an explicit centre and radius).
chain() {
	run_prog tnoise --size "$1" --origin "$2" --seed 7 --octaves 6 --warp 0.3 -q |
	    run_prog tisland --center 64,64 --radius 60 --warp 0.1 -q |
	    run_prog tshape --curve valleys -q |
	    run_prog tterrace --steps 8 --riser 0.35 -q |
	    run_prog tridge --amount 0.4 -q
}
chain 128x128 0,128 > "$T/whole.tp"
ok "whole point chain" test -s "$T/whole.tp"
for tile in "0 0" "64 0" "0 64" "64 64"; do
	set -- $tile
	chain 64x64 "$1,$((128 - $2))" > "$T/tile.tp"
	run_prog tcrop --window "$1,$2,64,64" < "$T/whole.tp" > "$T/win.tp"
	# the bodies must match; the headers differ only in HISTORY
	body "$T/tile.tp" > "$T/a"
	body "$T/win.tp" > "$T/b"
	assert_same "tile at $1,$2 equals the window of the whole" "$T/a" "$T/b"
	assert_eq "tile ORIGIN at $1,$2" "$(header "$T/tile.tp" ORIGIN)" \
	    "$(header "$T/win.tp" ORIGIN)"
done

# The whole DESIGN pipeline, small, ending in a GeoTIFF GDAL reads.
run_prog tnoise --size 128x128 --seed 7 --cellsize 30 --origin 500000,4649776 \
    --crs EPSG:32633 -q | run_prog tisland -q | run_prog tshape --curve valleys -q |
    run_prog tterrace --steps 8 -q | run_prog tridge -q |
    run_prog terode --droplets 20000 -q | run_prog tfill -q |
    run_prog tflow --rivers 50 -q | run_prog tnoise --band moisture --seed 8 -q \
    > "$T/all.tp"
ok "full pipeline ran" test -s "$T/all.tp"
assert_eq "bands after the pipeline" "$(header "$T/all.tp" BANDS)" \
    "height flow dir river moisture"
assert_eq "one HISTORY line per stage" \
    "$(header_lines "$T/all.tp" | grep -c '^HISTORY ')" 9
assert_eq "CRS carried through" "$(header "$T/all.tp" CRS)" "EPSG:32633"
ok "tgeotiff writes it" run_prog tgeotiff --zrange 0,1800 "$T/all.tif" < "$T/all.tp"
gt=$(gdalinfo -json "$T/all.tif" | "$PY" -c '
import json, sys; j = json.load(sys.stdin)
print(",".join("%g" % v for v in j["geoTransform"]))')
assert_eq "geotransform in GDAL" "$gt" "500000,30,0,4.64978e+06,0,-30"
nout=$(run_prog tinfo --json "$T/all.tp" | "$PY" -c '
import json, sys; j = json.load(sys.stdin)
b = [b for b in j["bands"] if b["name"] == "height"][0]
print(b["valid"])')
assert_eq "no nodata appeared" "$nout" 16384
# every valid cell drains: the dir band leads from each to the grid's edge
# without a sink or a cycle, and the flow over the outlets adds up to the
# cells (each cell's water leaves once)
assert_eq "every cell drains" "$(py 'b = bands(sys.argv[1])
print(drain_check(b["dir"], ~np.isnan(b["height"])))' "$T/all.tp")" ok
assert_eq "the outlets carry every cell" "$(py 'b = bands(sys.argv[1])
ok, rows, cols = ~np.isnan(b["height"]), *b["dir"].shape
def outlet(r, c):
    dr, dc = ESRI[int(b["dir"][r, c])]
    r, c = r + dr, c + dc
    return not (0 <= r < rows and 0 <= c < cols and ok[r, c])
print(int(sum(b["flow"][r, c] for r, c in zip(*np.nonzero(ok)) if outlet(r, c))))' "$T/all.tp")" 16384
# rerunning one stage on the saved stream reproduces it
header_lines "$T/all.tp" | grep '^HISTORY ' > "$T/hist"
ok "HISTORY lines are commands" grep -q '^HISTORY tflow --rivers 50$' "$T/hist"
finish
