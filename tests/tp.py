"""tp.py - terrapipe streams in the shell tests, read and written with numpy.

A stream is a text header ("TERRAPIPE 1", KEY value lines, "ENDHDR") and
little-endian float32 samples, row by row, band by band inside a row (see
terrapipe(5)). The tests reach this module through the `py` function of
tests/common.sh, which imports everything here, numpy as np and sys:

    py 'print(grid(sys.argv[1]).shape)' FILE
    py 'write(np.full((4, 1, 4), 0.5))' > FILE

read(path)        -> (header dict, array of shape (rows, bands, cols))
grid(path)        -> the array alone; band(path, name) one band, 2-D
bands(path)       -> {band name: 2-D array}
floats(path)      -> every sample in stream order, 1-D (any length)
write(a, ...)     a stream of a (rows, bands, cols) array, to stdout or a file
drain_check(dir)  follows D8 directions from every cell to an outlet
"""
import sys

import numpy as np

__all__ = ["np", "sys", "split", "header", "read", "grid", "band", "bands",
           "floats", "body", "stream_bytes", "write", "ESRI", "GRASS",
           "drain_check"]

END = b"\nENDHDR\n"


def split(data):
    """The header bytes (through ENDHDR) and the sample bytes of a stream."""
    i = data.index(END) + len(END)
    return data[:i], data[i:]


def _parse(head):
    """The header's keys, the first value of each (as `header` in common.sh
    reads them); HISTORY holds the list of every history line."""
    h = {"HISTORY": []}
    for line in head.decode().splitlines()[1:-1]:
        k, _, v = line.partition(" ")
        if k == "HISTORY":
            h[k].append(v)
        else:
            h.setdefault(k, v)
    return h


def header(path):
    """The header of the stream in path as a dict (see _parse)."""
    return _parse(split(open(path, "rb").read())[0])


def read(path, dtype="<f4"):
    """(header dict, samples as an array of shape (rows, bands, cols))."""
    head, data = split(open(path, "rb").read())
    h = _parse(head)
    w, hh, nb = int(h["WIDTH"]), int(h["HEIGHT"]), len(h["BANDS"].split())
    return h, np.frombuffer(data, dtype).reshape(hh, nb, w)


def grid(path, dtype="<f4"):
    """The samples of the stream in path, shape (rows, bands, cols)."""
    return read(path, dtype)[1]


def bands(path):
    """Each band of the stream in path by name, a 2-D (rows, cols) array."""
    h, a = read(path)
    return {name: a[:, j, :] for j, name in enumerate(h["BANDS"].split())}


def band(path, name):
    """Band `name` of the stream in path, a 2-D (rows, cols) array."""
    return bands(path)[name]


def body(path):
    """The sample bytes of the stream in path."""
    return split(open(path, "rb").read())[1]


def floats(path, dtype="<f4"):
    """Every sample of the stream in path in stream order, not reshaped, so
    a body that does not match its header still reads."""
    return np.frombuffer(body(path), dtype)


def stream_bytes(w, h, bands="height", extra=(), samples=b""):
    """A stream: the header of a w x h grid with these bands (a string or a
    list), extra lines (a string of lines or a list of "KEY value"), then
    the sample bytes."""
    if not isinstance(bands, str):
        bands = " ".join(bands)
    if isinstance(extra, str):
        extra = extra.splitlines()
    hdr = "TERRAPIPE 1\nWIDTH %d\nHEIGHT %d\nBANDS %s\n" % (w, h, bands)
    hdr += "".join(x + "\n" for x in extra)
    return (hdr + "ENDHDR\n").encode() + samples


def write(a, bands="height", extra=(), out=None):
    """Write the (rows, bands, cols) array a (a 2-D array is one band) as a
    float32 stream to out: a path, or stdout when None."""
    a = np.asarray(a)
    if a.ndim == 2:
        a = a[:, None, :]
    h, _, w = a.shape
    data = stream_bytes(w, h, bands, extra, a.astype("<f4").tobytes())
    if out is None:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        with open(out, "wb") as f:
            f.write(data)


# D8 codes to (row, column) steps: ESRI (1 east, clockwise by powers of
# two) and GRASS (1 north-east, counter-clockwise; negative: off the grid).
ESRI = {1: (0, 1), 2: (1, 1), 4: (1, 0), 8: (1, -1), 16: (0, -1),
        32: (-1, -1), 64: (-1, 0), 128: (-1, 1)}
GRASS = {1: (-1, 1), 2: (-1, 0), 3: (-1, -1), 4: (0, -1), 5: (1, -1),
         6: (1, 0), 7: (1, 1), 8: (0, 1)}


def drain_check(d, valid, codes=ESRI):
    """Follow the D8 direction band d from every valid cell; each path must
    leave the grid or enter a nodata cell (an outlet). Returns "ok", or
    what went wrong first: a sink (code 0), an unknown code, or a cycle.
    Every cell is visited once, so the check is O(cells)."""
    rows, cols = d.shape
    state = np.zeros(d.shape, np.int8)	# 0 new, 1 on the path, 2 drains
    for r0 in range(rows):
        for c0 in range(cols):
            path, r, c = [], r0, c0
            while (0 <= r < rows and 0 <= c < cols and valid[r, c]
                   and state[r, c] != 2):
                if state[r, c] == 1:
                    return "cycle through row %d col %d" % (r, c)
                code = float(d[r, c])
                state[r, c] = 1
                path.append((r, c))
                if code < 0 and codes is GRASS:
                    break			# GRASS: off the grid from here
                if code not in codes:
                    return ("sink" if code == 0 else "code %g" % code) + \
                        " at row %d col %d" % (r, c)
                dr, dc = codes[code]
                r, c = r + dr, c + dc
            for p in path:
                state[p] = 2
    return "ok"
