/*
 * tp_flowtile_grid.h - tiled D8 accumulation of a grid in memory, on
 * threads: the tile phases of tp_flowtile.h without files.
 */
#ifndef TP_FLOWTILE_GRID_H
#define TP_FLOWTILE_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "hydro/tiled/tp_flowtile.h"

/* In one process: the D8 accumulation of a whole grid's directions dir
 * (w x h, from tp_flow_d8_flats by any rule: given, so o's flats is not
 * read) into acc, in tiles of size x size on threads (<= 0: all
 * processors): each tile counted alone, the solve,
 * each tile again with its inflows. The bytes of tp_flow_accumulate;
 * where o cannot be tiled exactly (tp_flowtile_opts_check), it is called
 * instead. */
int	tp_flowtile_grid(const uint8_t *dir, int64_t w, int64_t h,
	    const tp_flowtile_opts *o, int64_t size, int threads, float *acc,
	    size_t astride, tp_err *e);

#endif
