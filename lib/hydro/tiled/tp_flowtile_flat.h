/*
 * tp_flowtile_flat.h - flats across tiles (tp_flowtile.h says how): the
 * parts tp_flowtile.c and tp_flowtile_flat.c share.
 */
#ifndef TP_FLOWTILE_FLAT_H
#define TP_FLOWTILE_FLAT_H

#include <stdint.h>

#include "core/tp_err.h"
#include "hydro/tiled/tp_flowtile.h"

#define TP_FLHALO	2	/* the halo's width: the codes of its inner
				 * ring need the ring beyond */

/* The D8 byte of cell (x, y) of t's halo's inner ring. */
uint8_t	tp_flowtile_tile_halo_code(const tp_flowtile_tile *t, const tp_flowtile_opts *o,
	    int64_t x, int64_t y);
/* t's flat cells (TP_D8_SINK in t->dir): their seeds, same-height flat
 * neighbours and distances from the tile's own seeds, then directions. */
int	tp_flowtile_tile_flats(tp_flowtile_tile *t, const tp_flowtile_opts *o, tp_err *e);
/* t's plane for its edge file (2 w h bytes, allocated); -1: no memory. */
int	tp_flowtile_tile_plane(const tp_flowtile_tile *t, uint8_t **plane);
/* Whether plane byte d (or a tile's pre byte) is a flat cell's. */
static inline int
tp_flat_code(uint8_t d)
{
	return d == 0 || (d & 0xf0) == TP_FLSEED;
}

#endif
