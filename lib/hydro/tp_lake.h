/*
 * tp_lake.h - lakes: the water a fill leaves in a heightfield's
 * depressions, found from the fill's depth band (tfill --depth).
 *
 * The ground is height - depth (exact: the fill's depth is a difference of
 * two nearby floats). tp_lake_level fills it again to flat lakes, each at
 * its spill height: the heights tfill --flat makes, whichever rule the
 * fill used, so the default fill (a next-float gradient across the water)
 * and --flat route alike, each lake a flat for tp_flat.h to drain.
 *
 * A lake cell is a raised cell whose ground, height - depth, lies below
 * its level: a cell raised only to give a flat of the input a gradient is
 * not water. A lake is an 8-connected set of lake cells; one of fewer than
 * min_cells cells, or whose deepest cell lies less than min_depth below
 * its level, is a puddle, not labelled (the water still crosses it as a
 * lake's does).
 *
 * Planes are as in tp_flow.h: sample (x, y) at p[y * stride + x], NaN is
 * nodata (never raised). Functions return 0, or -1 with the message.
 */
#ifndef TP_LAKE_H
#define TP_LAKE_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"

/* zl (w * h, compact) = the ground filled to flat lakes. Only the raised
 * cells are flooded, from the cells around them, whose heights are their
 * flat fill's already (no fill raises a cell above what --flat gives it),
 * so the cost is that of the lakes, not of the grid. Grids of 2^32 cells
 * or more are refused. */
int	tp_lake_level(const float *z, size_t zstride, const float *depth,
	    size_t dstride, int64_t w, int64_t h, float *zl, tp_err *e);

/* The lake cells of z, depth and its levels zl: wet[i] = 1 on every lake
 * cell (w * h bytes, compact; may be NULL); lake (stride lstride) = the
 * lake's id on the lakes of min_cells cells or more and min_depth deep or
 * more, numbered 1, 2, ... in row-major order of their first cells, 0
 * elsewhere, NaN where z is NaN; *nlakes their count. */
int	tp_lake_label(const float *z, size_t zstride, const float *depth,
	    size_t dstride, const float *zl, int64_t w, int64_t h,
	    int64_t min_cells, double min_depth, uint8_t *wet, float *lake,
	    size_t lstride, int64_t *nlakes, tp_err *e);

#endif
