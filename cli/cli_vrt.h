/*
 * cli_vrt.h - tinfo --vrt: a GDAL VRT of a stream saved in a file, so
 * GDAL and what reads through it (gdalinfo, QGIS, GRASS r.external) open
 * the .tp in place. Each band is a VRTRawRasterBand over the file: the
 * samples begin after the header, a row holds every band's run of width
 * little-endian float32s in turn, so band b starts at header + 4 width b,
 * a pixel is 4 bytes on and a line 4 width nbands. The geotransform is
 * ORIGIN and CELLSIZE, the SRS the header's CRS as it is written
 * ("EPSG:32633", which GDAL takes), in x, y order; band names become
 * descriptions and NaN the nodata value.
 */
#ifndef CLI_VRT_H
#define CLI_VRT_H

/* The VRT of stream file path on standard output; exits 1 when path
 * cannot be read, holds no stream or is not exactly its header and
 * samples. */
void	cli_vrt_print(const char *path);

#endif
