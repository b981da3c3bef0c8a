"""gallery-rivers.py - draw a tvector rivers layer, coloured by Strahler
order, over a tview PNG of the same stream (for scripts/gallery.sh).

usage: gallery-rivers.py STREAM BASE.png RIVERS.gpkg OUT.png

The reaches are burnt with GDAL (gdal.Rasterize, all touched pixels) into
a grid the size of BASE.png over the stream's extent, order 3 and up one
pixel wider, the higher orders on top.
"""
import sys

import numpy as np
from osgeo import gdal

gdal.UseExceptions()
gdal.PushErrorHandler("CPLQuietErrorHandler")
src, base, rivers, out = sys.argv[1:5]
head = open(src, "rb").read(65536).split(b"\nENDHDR\n")[0].decode()
h = dict(l.split(" ", 1) for l in head.splitlines()[1:])
w, hh = int(h["WIDTH"]), int(h["HEIGHT"])
cs = float(h.get("CELLSIZE", "1"))
x0, y0 = map(float, h.get("ORIGIN", "0 %r" % (hh * cs)).split())

img = gdal.Open(base).ReadAsArray()		# (bands, rows, cols)
bands, rows, cols = img.shape
mem = gdal.GetDriverByName("MEM").Create("", cols, rows, 1, gdal.GDT_Byte)
mem.SetGeoTransform((x0, w * cs / cols, 0, y0, 0, -hh * cs / rows))
if h.get("CRS", "").startswith("EPSG:"):
    from osgeo import osr
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(int(h["CRS"][5:]))
    mem.SetProjection(srs.ExportToWkt())
gdal.Rasterize(mem, rivers, layers=["rivers"], attribute="strahler",
               allTouched=True)
order = mem.ReadAsArray()
wide = order.copy()
for dy, dx in ((0, 1), (1, 0), (1, 1)):		# order >= 3: a pixel wider
    sh = np.roll(np.roll(order, dy, 0), dx, 1)
    wide = np.where(sh >= 3, np.maximum(wide, sh), wide)
# white, yellow, orange, red, purple for orders 1 .. 5 and up: they stand
# out from the green, brown and blue of the ground and the sea
colours = [(255, 255, 255), (255, 221, 0), (255, 140, 0), (220, 20, 20),
           (120, 0, 140)]
for o in range(1, 6):
    m = wide >= o if o == 5 else wide == o
    for b in range(3):
        img[b][m] = colours[o - 1][b]
    if bands == 4:
        img[3][m] = 255
drv = gdal.GetDriverByName("MEM").Create("", cols, rows, bands, gdal.GDT_Byte)
for b in range(bands):
    drv.GetRasterBand(b + 1).WriteArray(img[b])
gdal.GetDriverByName("PNG").CreateCopy(out, drv)
