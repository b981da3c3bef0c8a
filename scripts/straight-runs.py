"""straight-runs.py - how much of a river network lies in ruler-straight runs.

usage: straight-runs.py [--run N] STREAM...

A stream with tflow's 'river' and 'dir' bands (ESRI codes). A river cell
lies in a straight run when it and the next N-1 cells along one D8
direction (default N = 8) are all river cells flowing that same way, the
run walked downstream and upstream from it. A real DEM's network has about
0.1 of its cells in such runs; parallel rulers across filled lakes and
flats push it towards 0.5. Lake cells (river band 2) are not river cells.
Prints, for each stream: river cells, cells in runs, their share.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from tp import bands  # noqa: E402

# ESRI code -> (dx, dy), rows running south
STEP = {1: (1, 0), 2: (1, 1), 4: (0, 1), 8: (-1, 1), 16: (-1, 0),
        32: (-1, -1), 64: (0, -1), 128: (1, -1)}


def shift(a, dx, dy):
    """b[y, x] = a[y + dy, x + dx], False outside."""
    h, w = a.shape
    b = np.zeros_like(a)
    ys, yd = (slice(dy, h), slice(0, h - dy)) if dy >= 0 else \
        (slice(0, h + dy), slice(-dy, h))
    xs, xd = (slice(dx, w), slice(0, w - dx)) if dx >= 0 else \
        (slice(0, w + dx), slice(-dx, w))
    b[yd, xd] = a[ys, xs]
    return b


def in_runs(river, codes, n):
    """Cells of river lying in a run of n or more of one direction."""
    hit = np.zeros(river.shape, bool)
    for code, (dx, dy) in STEP.items():
        m = river & (codes == code)
        start = m.copy()		# m holds at start, start+1, .. start+n-1
        for i in range(1, n):
            start &= shift(m, i * dx, i * dy)
        cover = start.copy()
        for i in range(1, n):
            cover |= shift(start, -i * dx, -i * dy)
        hit |= cover & m
    return hit


def main(argv):
    n = 8
    if len(argv) > 1 and argv[0] == "--run":
        n, argv = int(argv[1]), argv[2:]
    if not argv:
        sys.exit(__doc__.strip().splitlines()[2])
    for path in argv:
        b = bands(path)
        if "river" not in b or "dir" not in b:
            sys.exit("%s: needs the bands river and dir (tflow --rivers)"
                     % path)
        river = b["river"] == 1
        codes = np.nan_to_num(b["dir"]).astype(np.int64)
        hit = in_runs(river, codes, n)
        r, s = int(river.sum()), int(hit.sum())
        print("%s: %d river cells, %d in straight runs of %d+, share %.3f"
              % (path, r, s, n, s / r if r else 0.0))


if __name__ == "__main__":
    main(sys.argv[1:])
