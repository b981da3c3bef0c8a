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
 * TP_FLAT_MIDDLE: every cell of a flat drains along its least-cost path
 *	to the low edge, a step costing its length (1 or sqrt 2 cells) times
 *	the mean of its ends' weights, 1/d^4 (d = min(a, b), the steps to the
 *	flat's rim) times a roughness of 1 to 2 hashed from the cell's index:
 *	a path leaves the rim for the flat's middle, where the paths merge,
 *	and wanders a little as a river on a plain does. Barnes' rule
 *	converges too, but along the steps of its distances, which run in
 *	straight lines: across a wide plain its paths are a fan of rulers;
 *	these are a tree. Grids of 2^32 cells or more are refused.
 *
 * Water (tp_lake.h): under TP_FLAT_CONVERGE, a flat that holds a lake
 * cell (a filled depression, levelled to its spill height) is routed as
 * TP_FLAT_MIDDLE routes it, so the water a lake gathers crosses it on one
 * line.
 *
 * All are functions of the heights alone, never of a queue's order. A
 * flat without a low edge is a sink: its cells keep TP_D8_SINK.
 */
#ifndef TP_FLAT_H
#define TP_FLAT_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"

enum { TP_FLAT_CONVERGE, TP_FLAT_NEAREST, TP_FLAT_MIDDLE };

/* Give the flat cells of dir (TP_D8_SINK, tp_d8.h; z as tp_flow.h reads
 * it) their directions by rule; wet (w * h bytes, 1 on lake cells; may be
 * NULL) marks the water; *resolved = how many got one (may be NULL).
 * Returns 0, or -1 with the message (out of memory). */
int	tp_flat_resolve(const float *z, int64_t w, int64_t h, size_t stride,
	    int rule, const uint8_t *wet, uint8_t *dir, int64_t *resolved,
	    tp_err *e);

/* The rule named s ("converge" or "nearest"), or -1. */
int	tp_flat_rule(const char *s);

#endif
