/*
 * tp_flowtile_int.h - internal to the tiled flow module: what
 * tp_flowtile.c and tp_flowtile_flat.c share about a tile's flats. Not
 * for use outside lib/hydro/tiled/tp_flowtile*.c.
 */
#ifndef TP_FLOWTILE_INT_H
#define TP_FLOWTILE_INT_H

#include <stdint.h>

/* The types are tp_flowtile.h's, named by their tags so that this header
 * includes nothing of the module it serves. */
struct tp_err;
struct tp_flowtile_tile;
struct tp_flowtile_opts;

/* The D8 byte of cell (x, y) of t's halo's inner ring. */
uint8_t	tp_flowtile_tile_halo_code(const struct tp_flowtile_tile *t,
	    const struct tp_flowtile_opts *o, int64_t x, int64_t y);
/* t's flat cells (TP_D8_SINK in t->dir): their seeds, same-height flat
 * neighbours and distances from the tile's own seeds, then directions. */
int	tp_flowtile_tile_flats(struct tp_flowtile_tile *t,
	    const struct tp_flowtile_opts *o, struct tp_err *e);
/* t's plane for its edge file (2 w h bytes, allocated); -1: no memory. */
int	tp_flowtile_tile_plane(const struct tp_flowtile_tile *t,
	    uint8_t **plane);

#endif
