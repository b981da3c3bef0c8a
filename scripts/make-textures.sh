#!/bin/sh
# make-textures.sh BINDIR OUTDIR [SIZE]: the ground textures grass.png,
# rock.png, sand.png and snow.png (8-bit RGB PNGs, SIZE x SIZE, default
# 256) made by the toolchain itself, nothing downloaded. Each is a few
# `tnoise --period 256,256` fields of one stream (tnoise --band adds each
# field to it) mapped through a colour ramp, so every texture repeats
# exactly after 256 pixels: its left column continues its right one, and a
# larger SIZE shows the 256 x 256 tile repeated (the tests compare them).
#
# The ramps are one small numpy step: tview draws one band in grey or the
# height band in hypsometric colour times a hillshade (grey + alpha or
# RGBA, and the hillshade does not wrap at the edges), while a texture
# needs three bands of colour in one RGB image. Output is deterministic
# and each PNG appears whole or not at all.
set -eu
[ $# -ge 2 ] || { echo "usage: make-textures.sh BINDIR OUTDIR [SIZE]" >&2; exit 2; }
bin=$(cd "$1" && pwd)
out=$2
size=${3:-256}
PY=${PYTHON:-/usr/bin/python3}	# Debian's, with numpy
[ -x "$PY" ] || PY=python3
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# noise OPTIONS...: periodic noise, 256 x 256 cells of size 1 a period; the
# frequencies put whole lattice cells in it (1/64: 4, 1/32: 8, 1/16: 16,
# 1/8: 32). The first call of a pipeline makes the stream, the others add
# their field to it as a band.
noise() {
	"$bin/tnoise" -q --period 256,256 "$@"
}

# grass: patches of light and dark green, fine blades, dry yellow spots
noise -s "${size}x$size" -S 11 -f 0.03125 -O 5 -w 0.4 |
    noise -b detail -S 12 -k value -f 0.125 -O 3 -p 0.6 |
    noise -b dry -S 13 -f 0.015625 -O 3 > "$tmp/grass.tp"
# rock: large grey-brown masses, warped, cracks from a linear-fade field
noise -s "${size}x$size" -S 21 -f 0.015625 -O 6 -p 0.55 -w 0.6 |
    noise -b detail -S 22 -k value -f 0.0625 -O 4 -p 0.6 |
    noise -b cracks -S 23 -k value --fade linear -f 0.03125 -O 1 > "$tmp/rock.tp"
# sand: soft dunes and grain
noise -s "${size}x$size" -S 31 -f 0.015625 -O 4 -w 0.3 |
    noise -b detail -S 32 -k value -f 0.125 -O 2 |
    noise -b dry -S 33 -f 0.03125 -O 3 > "$tmp/sand.tp"
# snow: bright, a faint blue in the hollows, a little sparkle
noise -s "${size}x$size" -S 41 -f 0.015625 -O 5 -w 0.5 |
    noise -b detail -S 42 -k value -f 0.125 -O 2 |
    noise -b dry -S 43 -f 0.03125 -O 2 > "$tmp/snow.tp"

"$PY" - "$tmp" "$out" <<'PYEOF'
import os, struct, sys, zlib
import numpy as np

tmp, out = sys.argv[1:3]

def bands(path):
    """{name: 2-D float32 array} of a terrapipe stream."""
    data = open(path, "rb").read()
    i = data.index(b"\nENDHDR\n") + 8
    h = dict(l.split(" ", 1) for l in data[:i].decode().splitlines()[1:-1]
             if " " in l)
    w, hh, names = int(h["WIDTH"]), int(h["HEIGHT"]), h["BANDS"].split()
    a = np.frombuffer(data[i:], "<f4").reshape(hh, len(names), w)
    return {n: a[:, k, :] for k, n in enumerate(names)}

def ramp(t, stops):
    """Colour of t in [0, 1] along stops [(t, (r, g, b)), ...]."""
    ts = [s[0] for s in stops]
    return np.stack([np.interp(t, ts, [s[1][c] for s in stops])
                     for c in range(3)], axis=-1)

def stretch(a, lo, hi):
    return np.clip((a - lo) / (hi - lo), 0.0, 1.0)

def grass(b):
    c = ramp(stretch(b["height"], 0.3, 0.7),
             [(0, (38, 66, 20)), (0.5, (72, 110, 34)), (1, (118, 150, 52))])
    c = c * (0.8 + 0.4 * b["detail"])[..., None]
    dry = stretch(b["dry"], 0.55, 0.7)[..., None]
    return c * (1 - 0.5 * dry) + np.array([150, 140, 70]) * 0.5 * dry

def rock(b):
    c = ramp(stretch(b["height"], 0.25, 0.75),
             [(0, (72, 66, 60)), (0.5, (118, 110, 100)), (1, (168, 160, 148))])
    c = c * (0.85 + 0.3 * b["detail"])[..., None]
    crack = stretch(np.abs(b["cracks"] - 0.5), 0.0, 0.04)
    return c * (0.7 + 0.3 * crack)[..., None]

def sand(b):
    c = ramp(stretch(b["height"], 0.3, 0.7),
             [(0, (178, 150, 102)), (1, (226, 204, 152))])
    c = c * (0.92 + 0.16 * b["detail"])[..., None]
    return c * (0.95 + 0.1 * b["dry"])[..., None]

def snow(b):
    c = ramp(stretch(b["height"], 0.3, 0.7),
             [(0, (196, 208, 228)), (0.6, (236, 240, 248)), (1, (252, 252, 255))])
    return c * (0.97 + 0.06 * b["detail"])[..., None]

def png(path, rgb):
    """An 8-bit RGB PNG, written to a temporary name and renamed."""
    hh, w, _ = rgb.shape
    raw = b"".join(b"\0" + rgb[y].tobytes() for y in range(hh))
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + \
            struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    data = b"\x89PNG\r\n\x1a\n" + \
        chunk(b"IHDR", struct.pack(">IIBBBBB", w, hh, 8, 2, 0, 0, 0)) + \
        chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)

for name, fn in (("grass", grass), ("rock", rock), ("sand", sand),
                 ("snow", snow)):
    rgb = fn(bands(os.path.join(tmp, name + ".tp")))
    png(os.path.join(out, name + ".png"),
        np.clip(np.floor(rgb + 0.5), 0, 255).astype(np.uint8))
PYEOF
