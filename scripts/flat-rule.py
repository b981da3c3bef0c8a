#!/usr/bin/python3
"""flat-rule.py - the converging flat rule (Barnes, Lehman & Mulla 2014),
written from its statement alone, to check tflow's flats against.

The rule, as it is meant to equal RichDEM's rd.ResolveFlats then D8:
  - a flat cell: not on the grid's border, no NaN neighbour, no strictly
    lower neighbour;
  - a low edge: a cell, not flat and not NaN, with a flat neighbour of
    equal height; a high edge: a flat cell with a strictly higher
    neighbour;
  - dl: breadth-first distance (8-connected, through flat cells of equal
    height) from the low edges, 1 on a low edge; dh: the same from the
    high edges, 1 on a high edge, 0 where none reaches;
  - a flat cell drains to its first equal-height non-flat neighbour (a low
    edge) in RichDEM's order W, NW, N, NE, E, SE, S, SW; else to the
    equal-height flat neighbour of least 2*dl - dh, ties to the first in
    that order. A flat no low edge reaches gets no direction.

border_first=True adds what RichDEM's epsilon raise does on top (it
raises the low edges inside the grid by 2 steps but never the grid's
border): an equal-height neighbour on the grid's border comes before any
other low edge.

Directions are ESRI codes (1 E, 2 SE, 4 S, 8 SW, 16 W, 32 NW, 64 N,
128 NE; 0 none).

    flat-rule.py [--border-first] FILE
                               FILE: rows of heights (nan for NaN); prints
                               the flat mask, dl, dh, the directions, and
                               the map as tests/check_flat.c writes it
                               (tp_d8.h's k a cell, '.' off the flats)
    flat-rule.py --raw [--border-first] W H IN.f32 OUT.u8
                               OUT: the rule's direction of each flat
                               cell (0 elsewhere), one byte a cell

As a module (importlib): flat_rule(z, border_first=False) -> (flat, dl,
dh, dirs), numpy arrays of z's shape.
"""
import sys
from collections import deque

import numpy as np

# RichDEM's neighbour order: (dx, dy, ESRI code); rows run north to south.
ORDER = [(-1, 0, 16), (-1, -1, 32), (0, -1, 64), (1, -1, 128),
         (1, 0, 1), (1, 1, 2), (0, 1, 4), (-1, 1, 8)]


def neighbours(z):
    """z's 8 neighbour planes in ORDER, NaN outside the grid."""
    h, w = z.shape
    p = np.full((h + 2, w + 2), np.nan, dtype=z.dtype)
    p[1:-1, 1:-1] = z
    return [p[1 + dy:1 + dy + h, 1 + dx:1 + dx + w] for dx, dy, _ in ORDER]


def flats_and_edges(z):
    """The flat mask, the low edges and the high edges of z."""
    h, w = z.shape
    nb = neighbours(z)
    valid = ~np.isnan(z)
    inner = np.zeros_like(valid)
    inner[1:-1, 1:-1] = True
    flat = valid & inner
    for n in nb:
        flat &= ~np.isnan(n) & (n >= z)
    fnb = neighbours(flat.astype(np.float32))
    low = valid & ~flat
    lowany = np.zeros_like(valid)
    high = np.zeros_like(valid)
    for n, f in zip(nb, fnb):
        lowany |= (f == 1) & (n == z)
        high |= flat & (n > z)
    return flat, low & lowany, high


def bfs(z, flat, seeds):
    """Distances from the seeds through flat cells of equal height, 1 on a
    seed, 0 where none reaches."""
    h, w = z.shape
    d = np.zeros(z.shape, dtype=np.int64)
    q = deque()
    for y, x in zip(*np.nonzero(seeds)):
        d[y, x] = 1
        q.append((y, x))
    while q:
        y, x = q.popleft()
        for dx, dy, _ in ORDER:
            ny, nx = y + dy, x + dx
            if (0 <= ny < h and 0 <= nx < w and flat[ny, nx]
                    and d[ny, nx] == 0 and z[ny, nx] == z[y, x]):
                d[ny, nx] = d[y, x] + 1
                q.append((ny, nx))
    return d


def direction(z, flat, dl, dh, y, x, border_first):
    """The rule's ESRI code for flat cell (y, x)."""
    h, w = z.shape
    best, code = None, 0
    for dx, dy, c in ORDER if border_first else []:
        ny, nx = y + dy, x + dx
        if z[ny, nx] == z[y, x] and (ny in (0, h - 1) or nx in (0, w - 1)):
            return c
    for dx, dy, c in ORDER:
        ny, nx = y + dy, x + dx
        if z[ny, nx] != z[y, x]:
            continue
        if not flat[ny, nx]:
            return c
        key = 2 * dl[ny, nx] - dh[ny, nx]
        if best is None or key < best:
            best, code = key, c
    return code


def flat_rule(z, border_first=False):
    """(flat, dl, dh, dirs) of the float32 plane z."""
    z = np.asarray(z, dtype=np.float32)
    flat, low, high = flats_and_edges(z)
    dl = bfs(z, flat, low)
    dh = bfs(z, flat, high)
    dirs = np.zeros(z.shape, dtype=np.uint8)
    for y, x in zip(*np.nonzero(flat & (dl > 0))):
        dirs[y, x] = direction(z, flat, dl, dh, y, x, border_first)
    return flat, dl, dh, dirs


K_OF_ESRI = {1: 1, 2: 2, 4: 3, 8: 4, 16: 5, 32: 6, 64: 7, 128: 8}


def show(name, a):
    print(name)
    for row in a:
        print(" ".join("%3d" % v for v in row))


def main(argv):
    if len(argv) in (6, 7) and argv[1] == "--raw":
        bf = argv[2] == "--border-first"
        w, h = int(argv[2 + bf]), int(argv[3 + bf])
        z = np.fromfile(argv[4 + bf], dtype="<f4").reshape(h, w)
        flat_rule(z, bf)[3].tofile(argv[5 + bf])
        return 0
    bf = len(argv) == 3 and argv[1] == "--border-first"
    if len(argv) != 2 + bf:
        print(__doc__, file=sys.stderr)
        return 1
    z = np.loadtxt(argv[1 + bf], dtype=np.float32, ndmin=2)
    flat, dl, dh, dirs = flat_rule(z, bf)
    show("flat", flat.astype(int))
    show("dl", dl)
    show("dh", dh)
    show("esri", dirs)
    print("k")
    for row, f in zip(dirs, flat):
        print('"%s",' % "".join(str(K_OF_ESRI[c]) if c else "."
                                for c in row))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
