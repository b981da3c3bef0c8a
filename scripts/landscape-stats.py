#!/usr/bin/python3
"""landscape-stats.py STREAM [--threshold CELLS] [--min-area CELLS]

Figures of a drainage network, computed here by brute force on the height
band of a terrapipe stream (no terrapipe program is used, so the figures
check tuplift and tflow rather than repeat them):

  D8 receivers: the steepest drop (z - z_n) / distance to one of the 8
      neighbours, ties to the first of E, SE, S, SW, W, NW, N, NE; a cell
      on the border, or with no lower neighbour, has none.
  area: cells draining through each cell, itself included, summed from
      the highest cell down; in square map units (CELLSIZE^2).
  slope-area: least squares of log S on log A over the cells draining at
      least --min-area cells with S > 0: the concavity is minus the slope,
      the steepness exp(intercept) (A in square map units).
  Hack's law: least squares of log L on log A over the same cells, L the
      longest flow path above the cell (map units, cell to cell).
  channels: cells draining at least --threshold cells. Drainage density
      is their length (each to its receiver) over the grid's area, in
      1/map unit; Strahler order as Strahler (1957): a channel with no
      channel donor is order 1, two donors of the highest order k make
      k + 1, else k. A segment of order k starts where no donor has
      order k; segments of order >= 4 are counted.

Prints "name value" lines. Fill the input first (tfill) when it has pits:
a pit is an end of the network here.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tests"))
from tp import bands, header  # noqa: E402

DIRS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]


def receivers(z, dx):
    """Flat index of each cell's receiver, -1 where there is none."""
    h, w = z.shape
    best = np.zeros((h, w))
    rcv = np.full((h, w), -1, np.int64)
    idx = np.arange(h * w).reshape(h, w)
    for ddx, ddy in DIRS:
        d = dx * (np.sqrt(2) if ddx and ddy else 1)
        nb = np.full((h, w), np.nan)
        ys = slice(max(0, -ddy), h - max(0, ddy))
        xs = slice(max(0, -ddx), w - max(0, ddx))
        ys2 = slice(max(0, ddy), h - max(0, -ddy))
        xs2 = slice(max(0, ddx), w - max(0, -ddx))
        nb[ys, xs] = z[ys2, xs2]
        s = (z - nb) / d
        take = s > best
        best = np.where(take, s, best)
        shift = np.full((h, w), -1, np.int64)
        shift[ys, xs] = idx[ys2, xs2]
        rcv = np.where(take, shift, rcv)
    rcv[0, :] = rcv[-1, :] = rcv[:, 0] = rcv[:, -1] = -1
    rcv[~np.isfinite(z)] = -1
    return rcv.ravel(), best.ravel()


def network(z, dx):
    """Receivers, slopes, areas (cells), longest paths, order high to low."""
    rcv, slope = receivers(z, dx)
    flat = np.where(np.isfinite(z), z, -np.inf).ravel()
    order = np.argsort(-flat, kind="stable")
    area = np.ones(z.size)
    length = np.zeros(z.size)
    w = z.shape[1]
    for i in order:
        r = rcv[i]
        if r >= 0:
            area[r] += area[i]
            d = dx if abs(r - i) in (1, w) else dx * np.sqrt(2)
            length[r] = max(length[r], length[i] + d)
    return rcv, slope, area, length, order


def strahler(rcv, area, order, threshold):
    """Strahler order of every channel cell (0 off channels), segments >= 4."""
    n = area.size
    chan = area >= threshold
    top = np.zeros(n, np.int64)     # highest order among channel donors
    ntop = np.zeros(n, np.int64)    # donors of that order
    so = np.zeros(n, np.int64)
    for i in order:
        if not chan[i]:
            continue
        if top[i] == 0:
            so[i] = 1
        else:
            so[i] = top[i] + 1 if ntop[i] >= 2 else top[i]
        r = rcv[i]
        if r >= 0 and chan[r]:
            if so[i] > top[r]:
                top[r], ntop[r] = so[i], 1
            elif so[i] == top[r]:
                ntop[r] += 1
    # a segment of order k starts where no channel donor has order k
    starts = chan & (top != so)
    return so, int(np.sum(starts & (so >= 4)))


def a8(z, dx):
    """The eight-fold aspect anisotropy (see the top)."""
    p = z[:-2, :-2], z[:-2, 1:-1], z[:-2, 2:], z[1:-1, :-2], z[1:-1, 2:], \
        z[2:, :-2], z[2:, 1:-1], z[2:, 2:]
    a, b, c, d, f, g, h, i = p
    gx = ((c + 2 * f + i) - (a + 2 * d + g)) / (8 * dx)
    gy = ((g + 2 * h + i) - (a + 2 * b + c)) / (8 * dx)
    s = np.hypot(gx, gy)
    ok = np.isfinite(s)
    if not ok.any():
        return float("nan")
    sel = ok & (s > np.median(s[ok]) / 4)
    if not sel.any():
        return float("nan")
    return float(abs(np.exp(8j * np.arctan2(gy[sel], gx[sel])).mean()))


def fit(x, y):
    b, a = np.polyfit(x, y, 1)
    return b, a


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("stream")
    ap.add_argument("--band", default="height")
    ap.add_argument("--threshold", type=float, default=50,
                    help="cells a channel drains (default: 50)")
    ap.add_argument("--min-area", type=float, default=10,
                    help="cells for slope-area and Hack (default: 10)")
    ap.add_argument("--zscale", type=float, default=1,
                    help="metres per height unit (default: 1)")
    ap.add_argument("--a8-only", action="store_true",
                    help="print only a8 (no drainage network: fast)")
    a = ap.parse_args()
    z = bands(a.stream)[a.band].astype(float) * a.zscale
    dx = float(header(a.stream).get("CELLSIZE", 1))
    if a.a8_only:
        print("a8 %.4f" % a8(z, dx))
        return
    rcv, slope, area, length, order = network(z, dx)
    cells = area
    amap = cells * dx * dx
    sel = (cells >= a.min_area) & (slope > 0) & (rcv >= 0)
    if sel.sum() > 2:
        b, c = fit(np.log(amap[sel]), np.log(slope[sel]))
        print("concavity %.4f" % -b)
        print("steepness %.6g" % np.exp(c))
        h, _ = fit(np.log(amap[sel]), np.log(np.maximum(length[sel], dx)))
        print("hack_exponent %.4f" % h)
    so, n4 = strahler(rcv, cells, order, a.threshold)
    chan = cells >= a.threshold
    w = z.shape[1]
    seg = 0.0
    for i in np.nonzero(chan & (rcv >= 0))[0]:
        r = rcv[i]
        seg += dx * (np.sqrt(2) if abs(r - i) not in (1, w) else 1)
    print("drainage_density %.6g" % (seg / (z.size * dx * dx)))
    print("max_strahler %d" % so.max())
    print("strahler4_segments %d" % n4)
    print("a8 %.4f" % a8(z, dx))


if __name__ == "__main__":
    main()
