/*
 * tp_order.h - stream order on a D8 river network: Strahler and Shreve.
 *
 * The network is the river cells (river band nonzero) of a D8 direction
 * array (tp_flow.h's compact dir bytes, as tp_flow_d8 makes them: steps
 * stay on the grid and never loop): a river cell's downstream
 * neighbour is the cell its direction points to, when that cell is a river
 * cell too. A river cell no river cell drains into is a source.
 *
 *   Strahler  a source is 1; a cell whose upstream river cells' highest
 *             order m comes from one of them is m, from two or more m + 1
 *             (two order-1 streams meeting make 2; an order-1 joining an
 *             order-2 keeps 2).
 *   Shreve    a source is 1; a cell is the sum of its upstream river
 *             cells' orders (the sources above it).
 *
 * Each cell is visited once, in topological order found by in-degree
 * counting (as tp_flow_accumulate): O(n), one byte a cell of working
 * memory, the orders being summed as 32-bit integers in the bytes of the
 * order plane itself and rounded once to float32 (Shreve orders past 2^24
 * lose their last digits).
 */
#ifndef TP_ORDER_H
#define TP_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"

enum { TP_ORDER_STRAHLER, TP_ORDER_SHREVE };

/* The order (kind TP_ORDER_*) of every river cell into
 * order[y * stride + x]: river[y * stride + x] nonzero (and not NaN) marks
 * a river cell; other valid cells get 0, nodata cells (dir TP_D8_NODATA)
 * NaN. river and order may not overlap. -1 with a message on a bad plane,
 * a grid of 2^32 cells or more, or no memory. */
int	tp_order(const uint8_t *dir, const float *river, int64_t w, int64_t h,
	    size_t stride, int kind, float *order, tp_err *e);

#endif
