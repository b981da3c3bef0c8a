/*
 * tp_network.h - the drainage network's two bands made from one D8
 * direction array: stream order (tp_order) and basin labels (tp_basins).
 * They share nothing but the directions, which they only read, so they
 * run at once, one on each of two threads; each writes its own band, so
 * the bytes are those of running them one after the other. The basins can
 * also start before the flow the order reads is made (tp_network_after).
 */
#ifndef TP_NETWORK_H
#define TP_NETWORK_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"

/* What to make; a NULL band is not made. Planes share dir's w x h and
 * stride. */
typedef struct tp_network_opts {
	const float *river;	/* the river band order is counted on */
	float	*order;		/* order of kind TP_ORDER_* into here */
	int	kind;
	float	*basin;		/* basin labels into here */
	int64_t	min_basin;	/* tp_basins' min_cells */
	int	threads;	/* <= 0: all processors; 1: one after the other */
} tp_network_opts;

/* The caller's work that the order waits for (the flow and river bands):
 * 0, or -1 with *e set. */
typedef int (*tp_network_fn)(void *ctx, tp_err *e);

/* Order and basins from dir (w x h, stride floats a row in the bands),
 * with before(ctx) first (NULL: none): the basins need dir alone, so they
 * are worked out on the second thread while before() runs on the first,
 * and the order after it there. before() must leave dir as it is. 0, or
 * -1 with before's message, else order's, else basins', in *e. */
int	tp_network_after(const uint8_t *dir, int64_t w, int64_t h,
	    size_t stride, const tp_network_opts *o, tp_network_fn before,
	    void *ctx, tp_err *e);

#endif
