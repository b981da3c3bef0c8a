/*
 * tp_flat.h - directions across flats: the cells D8 finds no lower
 * neighbour for, that are not outlets.
 *
 * A flat is a set of 8-connected cells of one height. Its cells that have
 * a way down (a lower neighbour, the border, a NaN neighbour) are its low
 * edge; its cells with a higher neighbour, its high edge. The cells without
 * a way down get a direction from one of two rules:
 *
 * TP_FLAT_CONVERGE (Barnes, Lehman and Mulla 2014, "An efficient assignment
 *	of drainage direction over flat surfaces in raster digital elevation
 *	models"): with a the distance in steps through the flat to the low
 *	edge (1 next to it) and b the distance from the high edge (1 on it, 0
 *	in a flat without one), a cell drains to the neighbour of the flat
 *	with the least 2a - b: toward the low edge and away from the high
 *	edge, so the paths from the flat's rim meet in its middle instead of
 *	running side by side. A cell next to the low edge drains into it, a
 *	low-edge cell on the grid's border first. Ties go to the first in the
 *	order W, NW, N, NE, E, SE, S, SW. These are RichDEM's directions
 *	(ResolveFlats, then its D8) in every flat cell.
 * TP_FLAT_NEAREST: a cell drains one step closer to the nearest cell of
 *	the low edge (distance a alone), ties to the first in tp_d8.h's order
 *	E, SE, S, SW, W, NW, N, NE: the shortest paths, which run parallel
 *	across wide flats.
 *
 * Both are functions of the distances alone, never of a queue's order. A
 * flat without a low edge is a sink: its cells keep TP_D8_SINK.
 */
#ifndef TP_FLAT_H
#define TP_FLAT_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"

enum { TP_FLAT_CONVERGE, TP_FLAT_NEAREST };

/* Give the flat cells of dir (TP_D8_SINK, tp_d8.h; z as tp_flow.h reads
 * it) their directions by rule; *resolved = how many got one (may be
 * NULL). Returns 0, or -1 with the message (out of memory). */
int	tp_flat_resolve(const float *z, int64_t w, int64_t h, size_t stride,
	    int rule, uint8_t *dir, int64_t *resolved, tp_err *e);

/* The rule named s ("converge" or "nearest"), or -1. */
int	tp_flat_rule(const char *s);

#endif
