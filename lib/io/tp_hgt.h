/*
 * tp_hgt.h - SRTM .hgt tiles into one-band grids.
 *
 * A .hgt file is a square of big-endian Int16 heights in metres, 1201 x
 * 1201 (3 arc-second) or 3601 x 3601 (1 arc-second) samples, -32768 for
 * voids, with no header: the file's name gives the whole degree of its
 * south-west corner (N35W107.hgt: 35 N, 107 W, any suffix after the seven
 * characters, ending in .hgt). The edge samples sit on whole degrees, so
 * cell centres run from that corner to one degree north and east of it:
 * CELLSIZE 1/(side-1) degrees, ORIGIN half a cell north-west of the
 * north-west corner, CRS EPSG:4326, UNITS m, voids NaN.
 *
 * All functions return 0 on success and -1 with a message in *e.
 */
#ifndef TP_HGT_H
#define TP_HGT_H

#include <stdio.h>

#include "core/tp_err.h"
#include "stream/tp_stream.h"

#define TP_HGT_SIDE_3	1201	/* samples a side: 3 arc-second */
#define TP_HGT_SIDE_1	3601	/* 1 arc-second */

/* 1 when path's name ends in .hgt (any case): timport reads it as SRTM. */
int	tp_hgt_is_name(const char *path);
/* The south-west corner from path's name (its last component): whole
 * degrees, *lat -90..89, *lon -180..179. */
int	tp_hgt_corner(const char *path, int *lat, int *lon, tp_err *e);
/* Read the tile f (len bytes; the name path gives its corner) into g. */
int	tp_hgt_read(tp_grid *g, FILE *f, uint64_t len, const char *path,
	    tp_err *e);

#endif
