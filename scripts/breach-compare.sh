#!/bin/bash
# breach-compare.sh [DEM] - tfill --breach's cuts against the least-cost
# paths tflow --carve routes along, on the same unfilled DEM (default: the
# shared tests/data/jacksboro_fault_dem.tif).
#
# tflow --carve cuts nothing: it routes water out of each depression along
# the path its flood took, climbing from the pit to the spill point. Read
# as a cut, that path lowers each cell to the lowest height upstream of it
# on its path (a river never climbs), so the carve "cut" of a cell is its
# height minus the least height of the cells that drain through it. The
# breach's cut is -depth where depth < 0 (tfill --breach --depth). Printed:
# the cells each cuts, how many breached cells lie on carve's cut paths,
# and the largest difference of the two cuts on the cells either cuts and
# on the cells both cut. Extra arguments go to tfill (e.g. --breach-depth).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${TP_BIN:-$ROOT/bin}
DEM=${1:-$ROOT/tests/data/jacksboro_fault_dem.tif}
[ $# -gt 0 ] && shift
T=$(mktemp -d "${TMPDIR:-/tmp}/breach-compare.XXXXXX")
trap 'rm -rf "$T"' EXIT
"$BIN/timport" "$DEM" > "$T/dem"
"$BIN/tfill" --breach --depth "$@" < "$T/dem" > "$T/breach"
"$BIN/tflow" --carve < "$T/dem" > "$T/carve"
/usr/bin/python3 - "$ROOT/tests" "$T" <<'PY'
import sys
from collections import deque
sys.path.insert(0, sys.argv[1])
from tp import *

t = sys.argv[2]
c = bands(t + "/carve")
z, d = c["height"].astype(np.float64), c["dir"]
rows, cols = z.shape
valid = ~np.isnan(z)
down = np.full(z.shape, -1, np.int64)	# the cell each drains to, -1 out
for code, (dr, dc) in ESRI.items():
    r, q = np.nonzero((d == code) & valid)
    rr, qq = r + dr, q + dc
    ok = (rr >= 0) & (rr < rows) & (qq >= 0) & (qq < cols)
    ok[ok] &= valid[rr[ok], qq[ok]]
    down[r[ok], q[ok]] = rr[ok] * cols + qq[ok]
down = down.ravel()
low = z.ravel().copy()	# least height of the cells draining through
indeg = np.bincount(down[down >= 0], minlength=low.size)
queue = deque(np.nonzero((indeg == 0) & valid.ravel())[0])
while queue:		# in flow order: every cell after all its upstream
    i = queue.popleft()
    j = down[i]
    if j >= 0:
        low[j] = min(low[j], low[i])
        indeg[j] -= 1
        if indeg[j] == 0:
            queue.append(j)
carve = (z.ravel() - low).reshape(z.shape)
b = bands(t + "/breach")["depth"].astype(np.float64)
breach = np.where(b < 0, -b, 0)
bc, cc = breach > 0, carve > 0
either, both = bc | cc, bc & cc
diff = np.abs(breach - carve)
print("cells cut by breach %d, by carve %d" % (bc.sum(), cc.sum()))
print("breached cells on carve's paths %d (%.1f%%)"
      % (both.sum(), 100.0 * both.sum() / max(bc.sum(), 1)))
print("largest cut: breach %.3f, carve %.3f" % (breach.max(), carve.max()))
print("largest difference of the cuts: %.3f on the cells either cuts, "
      "%.3f on the cells both cut" % (diff[either].max() if either.any()
      else 0, diff[both].max() if both.any() else 0))
print("total cut volume (cells x height): breach %.1f, carve %.1f"
      % (breach.sum(), carve.sum()))
PY
