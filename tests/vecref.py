"""vecref.py - references for tests/tvector.sh, by brute force in Python.

strahler(d, river)    Strahler order of every river cell (0 elsewhere, NaN
                      on NaN), cell by cell from the D8 codes alone
basins(d)             a label per valid cell: its outlet's number, outlets
                      numbered 1, 2, ... in row-major order
layer(path, name)     the features of a vector layer through GDAL's OGR:
                      a list of (fid, {field: value}, geometry)
lattice(geom, x0, y0, cs)
                      a polygon's rings in whole cell units (exact when the
                      coordinates are cell corners), for exact areas
"""
import sys
from collections import defaultdict

import numpy as np

from tp import ESRI, GRASS

sys.setrecursionlimit(1000000)


def _down(d, valid, r, c, codes):
    """The cell (r, c) drains into, or None at an outlet."""
    code = float(d[r, c])
    if code == 0 or (codes is GRASS and code < 0) or code not in codes:
        return None
    dr, dc = codes[code]
    rr, cc = r + dr, c + dc
    if 0 <= rr < d.shape[0] and 0 <= cc < d.shape[1] and valid[rr, cc]:
        return rr, cc
    return None


def strahler(d, river, codes=ESRI):
    valid = np.isfinite(d)
    riv = valid & np.isfinite(river) & (river != 0)
    ups = defaultdict(list)
    for r, c in zip(*np.nonzero(riv)):
        n = _down(d, valid, r, c, codes)
        if n is not None and riv[n]:
            ups[n].append((r, c))
    out = np.where(valid, 0.0, np.nan)
    memo = {}

    def order(cell):
        if cell not in memo:
            o = sorted((order(u) for u in ups[cell]), reverse=True)
            memo[cell] = 1 if not o else o[0] + (len(o) > 1 and o[1] == o[0])
        return memo[cell]

    for r, c in zip(*np.nonzero(riv)):
        out[r, c] = order((r, c))
    return out


def basins(d, codes=ESRI):
    valid = np.isfinite(d)
    lab = np.where(valid, 0.0, np.nan)
    outlet = {}
    rows, cols = d.shape
    for r in range(rows):
        for c in range(cols):
            if valid[r, c] and _down(d, valid, r, c, codes) is None:
                outlet[(r, c)] = len(outlet) + 1
    memo = {}

    def find(cell):
        path = []
        while cell not in memo and cell not in outlet:
            path.append(cell)
            cell = _down(d, valid, cell[0], cell[1], codes)
        v = memo.get(cell, outlet.get(cell))
        for p in path:
            memo[p] = v
        return v

    for r in range(rows):
        for c in range(cols):
            if valid[r, c]:
                lab[r, c] = find((r, c))
    return lab


def layer(path, name):
    from osgeo import ogr
    ds = ogr.Open(path)
    lyr = ds.GetLayerByName(name)
    out = []
    for f in lyr:
        g = f.GetGeometryRef().Clone()
        out.append((f.GetFID(), f.items(), g))
    return out


def lattice(geom, x0, y0, cs):
    """[[ring points as (i, j) ints] per ring] of every polygon of geom."""
    polys = []
    for p in range(geom.GetGeometryCount()):
        poly = geom.GetGeometryRef(p)
        rings = []
        for k in range(poly.GetGeometryCount()):
            ring = poly.GetGeometryRef(k)
            pts = []
            for x, y in ring.GetPoints():
                i, j = (x - x0) / cs, (y0 - y) / cs
                assert abs(i - round(i)) < 1e-6 and abs(j - round(j)) < 1e-6
                pts.append((round(i), round(j)))
            rings.append(pts)
        polys.append(rings)
    return polys


def area2(pts):
    """Twice the signed area of a closed ring of lattice points, north up
    (j grows south): positive counter-clockwise."""
    return sum(a[0] * -b[1] - b[0] * -a[1] for a, b in zip(pts, pts[1:]))
