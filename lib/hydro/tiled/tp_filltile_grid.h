/*
 * tp_filltile_grid.h - the tiled fill (tp_filltile.h) of a grid held in
 * memory, on threads (tfill -j): every tile prepared, the solve, and the
 * filled surface written over the heights, the same bytes as the fill of
 * the whole grid.
 *
 * Memory: the grid's band holds the heights until the end; each tile in
 * between holds only its cells above their heights (tp_filltile_pack.h),
 * and each thread one tile's plane while it relaxes it. At 8192² in tiles
 * of 1024, about 1.5 times the band where a plane for every tile made it
 * twice.
 */
#ifndef TP_FILLTILE_GRID_H
#define TP_FILLTILE_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "hydro/tiled/tp_filltile.h"
#include "stream/tp_filter.h"

/* Whole grid in memory on threads: fill plane z (width x height of g,
 * stride in floats) in place, tile by tile. progress (may be NULL) is
 * told of three phases as each ends: prepare, solve and finish. */
int	tp_filltile_grid(float *z, size_t stride, const tp_filltile_tiling *g,
	    int threads, int64_t *rounds, tp_progress_fn progress, void *pctx,
	    tp_err *e);

#endif
