/*
 * tp_flowtile_flat.h - flats across tiles (tp_flowtile.h says why the
 * distances are the whole grid's): the solve's rounds over the tiles with
 * a flat on their ring, and a tile's flats given their directions from
 * the solve's ring distances.
 *
 * Functions return 0 on success, -1 with a message in *e.
 */
#ifndef TP_FLOWTILE_FLAT_H
#define TP_FLOWTILE_FLAT_H

#include <stdint.h>

#include "core/tp_err.h"
#include "hydro/tiled/tp_flowtile.h"
#include "stream/tp_tile.h"

/* The flats across tiles by the rule the edges' key names: the edges
 * with planes get their flat cells' distances, their records counted
 * again with the flats resolved; rd, rb and rdir (every tile's ring, tiles
 * in row order) the ring cells' distances from the low edge, from the
 * high edge (converge) and directions (TP_FLFAR, TP_FLFAR and 0 where not
 * flat or not known). Rounds: a tile whose ring's distances fell searches
 * its flats again from its edges and the distances across its edges,
 * until none falls; one plane is held at a time (read again from src
 * where plane is NULL). */
int	tp_flowtile_flat_solve(const tp_tileset *ts, tp_flowtile_edge *edges,
	    uint32_t *rd, uint32_t *rb, uint8_t *rdir, tp_err *e);

/* The flats again with the solve's distances rd, rb and directions rdir
 * of the ring cells (tp_flowtile_solve_read): then the whole grid's
 * directions. */
int	tp_flowtile_flat_solved(tp_flowtile_tile *t, const uint32_t *rd,
	    const uint32_t *rb, const uint8_t *rdir, tp_err *e);

#endif
