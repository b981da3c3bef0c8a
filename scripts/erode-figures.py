#!/usr/bin/env python3
"""erode-figures.py BEFORE AFTER [LABEL]: what erosion did to a terrain.

Prints one line: local maxima before and after (cells higher than all
eight neighbours, border cells compared with those they have), the net
volume change as a share of the eroded volume (the sum of the lowering
over the cells that were lowered), and the 50th, 90th and 99th percentile
of the lowering over all cells, in the heights' unit, and the 99th less the
50th: how far the deepest cuts go below the lowering of the typical cell,
which a model that deletes what it erodes (most of its cells lowered)
and one that keeps it (its median cell barely moved) can be compared by.
Reads terrapipe streams (the first band) or raw little-endian float32
planes given as PATH:WIDTHxHEIGHT.
"""
import sys
import numpy as np


def load(arg):
    if ":" in arg and "x" in arg.rsplit(":", 1)[1]:
        path, size = arg.rsplit(":", 1)
        w, h = (int(v) for v in size.split("x"))
        return np.fromfile(path, "<f4", w * h).reshape(h, w).astype(np.float64)
    d = open(arg, "rb").read()
    i = d.index(b"\nENDHDR\n") + 8
    hdr = dict(l.split(" ", 1) for l in d[:i].decode().splitlines()[1:-1]
               if " " in l)
    w, h = int(hdr["WIDTH"]), int(hdr["HEIGHT"])
    nb = len(hdr["BANDS"].split())
    g = np.frombuffer(d[i:], "<f4", w * h * nb).reshape(h, nb, w)
    return g[:, 0].astype(np.float64)


def maxima(z):
    h, w = z.shape
    p = np.pad(z, 1, constant_values=-np.inf)
    top = np.ones((h, w), bool)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dy or dx:
                top &= z > p[1 + dy:1 + dy + h, 1 + dx:1 + dx + w]
    return int(top.sum())


def main():
    a, b = load(sys.argv[1]), load(sys.argv[2])
    label = sys.argv[3] if len(sys.argv) > 3 else ""
    low = a - b
    eroded = low[low > 0].sum()
    net = (b.sum() - a.sum()) / eroded if eroded > 0 else 0.0
    p50, p90, p99 = np.percentile(low, [50, 90, 99])
    print("%-16s maxima %6d -> %6d  net volume %+8.4f%% of eroded  "
          "lowering p50 %.5f p90 %.5f p99 %.5f  p99 - p50 %.5f" %
          (label, maxima(a), maxima(b), 100 * net, p50, p90, p99, p99 - p50))


main()
