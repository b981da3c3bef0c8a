/*
 * tp_fillgraph.h - the tiled fill's solve for the flat rule on the tiles'
 * perimeters alone (Barnes 2016): each tile's ring cells are the nodes of
 * a graph whose edges carry the level at which two of them first connect
 * inside the tile, and one Priority-Flood over the graphs of all tiles and
 * the steps across tile edges gives every ring cell its filled height.
 *
 * Why it is exact. With the flat rule a cell's filled height is the
 * minimax, over paths from a seed, of the heights along the path. Inside
 * a tile, a Priority-Flood started at once from every ring cell labels
 * each cell with the ring cell whose flood took it, at the minimax level
 * from that cell, which is a minimum spanning forest of the tile's cells;
 * two ring cells are joined at the lowest max(level(a), level(b)) over
 * neighbours a, b with their two labels, and the minimax distance between
 * any two ring cells through the tile is the one through these edges. A
 * whole-grid path is a chain of such in-tile stretches and steps between
 * neighbours in two tiles, starting at a seed; its first stretch is at
 * least the ring cell's height in the tile filled alone. So the flood
 * from those heights over the union gives every ring cell its height on
 * the whole grid, and tp_filltile.h's finish does the rest.
 *
 * The next-float and epsilon rules raise a cell by its distance in cells
 * from where its lake spills, which one level per edge cannot carry:
 * their solve relaxes tiles (tp_filltile_solve).
 *
 * Memory: build, 4 bytes a cell of the tile and its queue; solve, about
 * 20 bytes a ring cell and 28 an edge (a tile's graph has 2 to 3 edges a
 * ring cell) and its queue, nothing of the tiles' insides: 97 MiB for
 * 64 tiles of 4096 x 4096.
 */
#ifndef TP_FILLGRAPH_H
#define TP_FILLGRAPH_H

#include <stdint.h>

#include "core/tp_err.h"
#include "hydro/tiled/tp_filltile.h"

/* A tile's ring graph, made with the flat rule (tp_fillgraph.h): ring
 * cells a < b (their tp_filltile_ring_at places) meet inside the tile at
 * level s. */
typedef struct tp_fillgraph_edge {
	int32_t	a, b;
	float	s;
} tp_fillgraph_edge;

typedef struct tp_fillgraph {
	tp_fillgraph_edge *e;
	int64_t	n;
} tp_fillgraph;

/* The ring graph of loaded tile t (its heights), edges sorted by (a, b). */
int	tp_fillgraph_build(const tp_filltile_tile *t, double sea_level,
	    tp_fillgraph *gr, tp_err *e);
void	tp_fillgraph_free(tp_fillgraph *gr);

/* The rings of all tiles (z and f from prepare, in row order) and their
 * graphs: every ring cell's f becomes its filled height. g's rule is
 * flat. The ring cells of all tiles together must number under 2^32. */
int	tp_fillgraph_solve(const tp_filltile_tiling *g, tp_filltile_ring *rings,
	    const tp_fillgraph *graphs, tp_err *e);

#endif
