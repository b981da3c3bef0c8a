/*
 * tp_flowtile_solve.h - the tiled flow's solve (tp_flowtile.h says why it
 * is exact): the graph of every tile's ring cells that drain out, visited
 * in topological order, gives what enters each ring cell from other
 * tiles; written as a solve file, or kept in memory, and read back per
 * tile by finish.
 *
 * Functions return 0 on success, -1 with a message in *e.
 */
#ifndef TP_FLOWTILE_SOLVE_H
#define TP_FLOWTILE_SOLVE_H

#include <stdint.h>
#include <stdio.h>

#include "core/tp_err.h"
#include "hydro/tiled/tp_flowtile.h"
#include "stream/tp_tile.h"

/* The solve: the edges of every tile of ts (row-major, all with the key
 * of the first) into the inflows, written as a solve file. */
int	tp_flowtile_solve(const tp_tileset *ts, tp_flowtile_edge *edges,
	    FILE *out, tp_err *e);
/* The same into memory: in gets every tile's ring, tiles in row order
 * (edges without planes: no flats across tiles). */
int	tp_flowtile_solve_mem(const tp_tileset *ts,
	    const tp_flowtile_edge *edges, uint64_t *in, tp_err *e);
/* Tile (row, col)'s inflows, ring distances (from the low and the high
 * edge) and directions from a solve file made on ts's tiling with options
 * key into in, rd, rb, rdir (room for its ring). */
int	tp_flowtile_solve_read(FILE *f, const tp_tileset *ts, int64_t row,
	    int64_t col, const char *key, uint64_t *in, uint32_t *rd,
	    uint32_t *rb, uint8_t *rdir, tp_err *e);

#endif
