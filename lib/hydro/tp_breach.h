/*
 * tp_breach.h - least-cost breaching of depressions (tfill --breach),
 * after Lindsay (2016) and WhiteboxTools' BreachDepressionsLeastCost:
 * from each pit a channel is cut down through the rim to lower ground,
 * along the path that cuts least; what cannot be cut within the limits is
 * left for the fill (tp_fill.h) that runs after it.
 *
 * The plane is tp_fill.h's: sample (x, y) at z[y * stride + x], NaN is
 * nodata, cells below the sea level (tp_d8.h) are sea, and the outlets are
 * the sea and the land cells on the border or next to NaN or sea.
 *
 * A cell drains when a path of strictly descending steps leads from it to
 * an outlet, every step at least the fill's step rule (tp_fill_step: from
 * a cell of height a to one of height b, a >= step(b)); the fill leaves
 * such a cell as it is. The pits are the land cells that do not drain,
 * have no lower neighbour, and do not reach a draining cell across a flat
 * either (those the fill only tilts by its step). They are taken lowest
 * first (ties in row-major order); one that drains by then is skipped.
 *
 * From a pit of height zp a Dijkstra search runs over the cells, a path's
 * i-th cell to be lowered to level(i): level(0) = zp, level(i) the highest
 * float below level(i - 1) that steps up to at most level(i - 1) (with
 * --flat's rule: zp itself). The cost of a path is the sum over its cells
 * of how far each is cut (height minus level), ties in the order the cells
 * were reached. The search ends at the first cell it takes that drains and
 * is no higher than its level (kept as it is), or at an outlet (cut to its
 * level where higher). A cell is not entered past `length` cut cells,
 * where its cut below its original height would exceed `depth`, where it
 * lies at or below its level without draining (a lower depression left to
 * the fill, which would raise the path with it), or where its level lies
 * below the sea level (land is never cut into sea). The path's
 * cells are then lowered to their levels: every cell of it, and the pit,
 * drain; cells that drained before still do, since nothing was raised.
 * A pit whose search finds no end is left to the fill.
 *
 * Single-threaded: the result depends only on the plane and the options.
 * Grids of fewer than 2^32 cells. Memory: 30 bytes a cell (the original
 * heights, state, the search's links, costs and lengths, two queues) and
 * the search's heap.
 *
 * Returns 0, or -1 with a message in *e.
 */
#ifndef TP_BREACH_H
#define TP_BREACH_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "hydro/tp_fill.h"

typedef struct tp_breach_opts {
	int64_t	length;		/* most cells a path cuts; 0: no limit */
	double	depth;		/* most a cell is cut below its original
				 * height; INFINITY: no limit */
} tp_breach_opts;

typedef struct tp_breach_stats {
	int64_t	pits;		/* pits searched from */
	int64_t	breached;	/* of them, those a path was cut for */
	int64_t	cut;		/* cuts made (a cell cut by two paths twice) */
} tp_breach_stats;

/* Cut least-cost channels from the pits of the w x h plane z (in place),
 * the levels stepping down by fill rule f, sea below sea_level (-INFINITY:
 * no sea). st may be NULL. A tp_fill_pf_sea with the same f and sea level
 * afterwards raises no cell that was cut. */
int	tp_breach(float *z, int64_t w, int64_t h, size_t stride,
	    const tp_fill_opts *f, double sea_level, const tp_breach_opts *b,
	    tp_breach_stats *st, tp_err *e);

/* The highest float below v (v itself for TP_FILL_FLAT) whose
 * tp_fill_step is at most v: the next level down a cut path. */
float	tp_breach_down(const tp_fill_opts *f, float v);

#endif
