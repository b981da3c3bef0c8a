/*
 * tp_wbehind.h - write a batch of rows behind the computing of the next.
 *
 * A batched stage reads rows, transforms them on every core, then writes
 * them. Done in that order the next stage in a pipe idles while this one
 * computes, and this one idles while its write waits for the pipe to
 * drain. tp_wbehind hands each finished batch to a thread of its own that
 * writes it while the caller reads and computes the next batch into a
 * second buffer: the bytes written are the same, in the same order.
 */
#ifndef TP_WBEHIND_H
#define TP_WBEHIND_H

#include <pthread.h>
#include <stdint.h>

#include "core/tp_err.h"
#include "stream/tp_stream.h"

typedef struct tp_wbehind {
	tp_writer	*w;
	const float	*rows;		/* the batch being written */
	int64_t		n;
	int		busy;		/* a write thread runs */
	int		rc;		/* 0, or -1 with err set: the last write */
	tp_err		err;
	pthread_t	t;
} tp_wbehind;

void	tp_wbehind_init(tp_wbehind *b, tp_writer *w);

/* Wait for the batch before, then start writing n rows from rows; the
 * caller leaves rows alone until the next put or wait returns. -1 with e
 * set when a write before has failed. A write that cannot get a thread
 * is done here, before returning. */
int	tp_wbehind_put(tp_wbehind *b, const float *rows, int64_t n, tp_err *e);

/* Wait for the batch being written: 0, or -1 with e set if any write
 * failed. Call it before freeing the buffers, on every path. */
int	tp_wbehind_wait(tp_wbehind *b, tp_err *e);

#endif
