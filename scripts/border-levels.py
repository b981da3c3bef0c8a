#!/usr/bin/env python3
"""border-levels.py HEIGHTS FILLED FLAT TILE...: what a tiled fill's solve
must pass across tile edges.

HEIGHTS is a terrapipe stream, FILLED its tfill (next-float rule), FLAT its
tfill --flat. For each tile size, over the border cells of the tiles (the
first and last row and column of every tile, the grid's own border left
out), prints how many lie in lakes (flat level above the height), and how
many distinct levels those cells take under each rule. Under the flat rule
a lake's border cells share its one spill level, which is what Barnes'
labels carry; under the next-float rule each cell's level grows with its
distance from the spill, so the levels are per cell, not per lake.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tests"))
from tp import grid  # noqa: E402


def load(path):
    """The first band of the stream in path, 2-D."""
    return grid(path)[:, 0, :]


def border_mask(h, w, t):
    m = np.zeros((h, w), bool)
    for k in range(0, h, t):
        m[k, :] = True
        m[min(k + t, h) - 1, :] = True
    for k in range(0, w, t):
        m[:, k] = True
        m[:, min(k + t, w) - 1] = True
    m[0, :] = m[-1, :] = m[:, 0] = m[:, -1] = False
    return m


def main():
    if len(sys.argv) < 5:
        sys.exit("usage: border-levels.py HEIGHTS FILLED FLAT TILE...")
    z, f, w = (load(p) for p in sys.argv[1:4])
    if not (z.shape == f.shape == w.shape):
        sys.exit("border-levels.py: the three streams differ in size")
    for t in (int(a) for a in sys.argv[4:]):
        m = border_mask(z.shape[0], z.shape[1], t)
        lake = m & (w > z)
        print(f"tiles of {t}: {m.sum()} border cells, {lake.sum()} in lakes;"
              f" distinct levels there: flat {len(np.unique(w[lake]))},"
              f" next-float {len(np.unique(f[lake]))}")


main()
