/*
 * tp_asc.h - ESRI ASCII grids (.asc, GDAL's AAIGrid) into one-band grids.
 *
 * The header is "key value" lines, keys in any case and order: ncols,
 * nrows, xllcorner or xllcenter, yllcorner or yllcenter, cellsize (or dx
 * and dy when they are equal), NODATA_value (optional); then nrows x ncols
 * numbers, north row first, separated by any white space. Samples equal to
 * NODATA_value (as float32) become NaN. The grid's ORIGIN is the north-west
 * corner: xllcorner, yllcorner + nrows x cellsize (a centre is half a cell
 * further in). An .asc carries no CRS (its .prj is WKT, not read).
 *
 * All functions return 0 on success and -1 with a message in *e.
 */
#ifndef TP_ASC_H
#define TP_ASC_H

#include <stddef.h>
#include <stdio.h>

#include "core/tp_err.h"
#include "stream/tp_stream.h"

/* 1 when the n bytes at b begin like an ASCII grid (ncols or nrows first,
 * after optional white space). */
int	tp_asc_sniff(const unsigned char *b, size_t n);
/* Read an ASCII grid from f into g; left bytes remain in f (UINT64_MAX:
 * unknown), to refuse a header whose size the file cannot hold before
 * allocating. */
int	tp_asc_read(tp_grid *g, FILE *f, uint64_t left, tp_err *e);

#endif
