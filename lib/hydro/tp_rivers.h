/*
 * tp_rivers.h - the river network traced from its heads, the way GRASS's
 * r.stream.extract draws its streams, on the directions and take order of
 * a least-cost flood (tp_carve.h).
 *
 * The cells are visited in the reverse of the order the flood took them
 * (each cell's direction points to one taken before it, so every cell is
 * visited before the cells it drains to). Heights are compared by their
 * levels (tp_carve_level). A visited cell that is not an outlet:
 *
 *  - has a main neighbour: among the neighbours not yet visited (taken
 *    before it) whose level is not above its own, the one of largest flow,
 *    the last of equals in the order S, N, W, E, NE, SW, SE, NW; its
 *    direction's neighbour when there is none;
 *  - begins a river when its flow is at least the threshold, no neighbour
 *    is a river already, no neighbour but the one its direction points to
 *    is above it with flow at least the threshold, and it is not on a flat
 *    (some neighbour not yet visited has another level, or none is level
 *    or lower);
 *  - when it is a river (begun here or continued into), continues it into
 *    its main neighbour, and points its direction there.
 *
 * A river thus follows the lower neighbour of largest flow rather than
 * the flood's direction, and a tributary flowing beside a river joins it.
 * Outlets (tp_d8.h's TP_D8_OUT and TP_D8_SEA cells, and any cell on the
 * border or next to a NaN cell, which the steepest rule may turn inward)
 * end the rivers that reach them and begin none; their directions stay.
 *
 * Then the river is thinned reach by reach (a reach: from a head or a
 * confluence, a cell two or more rivers run into, down to the cell before
 * the next confluence or outlet): walking down a reach, a cell whose next
 * cell but one is a neighbour of the cell before it is left out, and the
 * cell before points straight past it; so no river cell has two river
 * cells of its own reach below it among its neighbours.
 *
 * Directions change on river cells only (and on the cells thinning leaves
 * out, which keep pointing into the river): they are what order, basins
 * and vector tracing follow. Every direction still points to a cell taken
 * before, so there are no cycles. The flow is not summed again: it is the
 * flow along the flood's directions the rule was drawn from.
 *
 * Memory: 5 bytes a cell and 4 per reach. Single-threaded.
 */
#ifndef TP_RIVERS_H
#define TP_RIVERS_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"

/* The traced rivers of the w x h plane z (stride `stride`, as given to
 * tp_carve_rule), its flow acc (stride astride) and the flood's take order
 * (n cells, tp_carve_rule's order): river[y * rstride + x] = 1 on river
 * cells, 0 elsewhere and on the sea, NaN where z is NaN; dir changed as
 * above. threshold in the flow's units. 0, or -1 with e set (memory). */
int	tp_rivers_trace(const float *z, size_t stride, const float *acc,
	    size_t astride, const uint32_t *order, size_t n, int64_t w,
	    int64_t h, double threshold, uint8_t *dir, float *river,
	    size_t rstride, tp_err *e);

#endif
