/*
 * tp_window.h - the read / transform / write loop of a stage that looks at
 * the rows around each row (tbiome's slope): tp_filter.h's batched,
 * threaded loop with one row of halo on each side.
 *
 * A batch of rows is read with the row before it and the row after it, so
 * every row of the batch sees its neighbours; the last two rows move to
 * the front for the next batch. Memory stays O(width): one batch of
 * tp_batch_rows rows, two rows more, and the output batch.
 */
#ifndef TP_WINDOW_H
#define TP_WINDOW_H

#include <stdint.h>

#include "stream/tp_filter.h"
#include "stream/tp_stream.h"

/* Transform stream row y into out. up, mid, down: input rows y - 1, y,
 * y + 1 in the reader's layout (up NULL for the first row, down NULL for
 * the last); out: the writer's layout. worker (0 .. threads - 1) names
 * the thread, for scratch space and counters of its own; fn writes only
 * to out and to its worker's own places. */
typedef tp_filter_rows_fn tp_window_fn;

/* Read every row of r, transform it with fn, write it to w (opened with
 * out_h), check the input ends where it should and flush. */
int	tp_window_run(tp_reader *r, tp_writer *w, const tp_header *out_h,
	    tp_window_fn fn, void *ctx, const tp_filter_opts *o, tp_err *e);

#endif
