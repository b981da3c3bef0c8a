/*
 * tp_filter.h - the read row / transform / write row loop of a point stage.
 *
 * Rows are read in batches (tp_batch_rows), transformed in parallel (one row per
 * call, on any thread) and written in order, so memory stays O(width) and the
 * output bytes do not depend on the thread count.
 */
#ifndef TP_FILTER_H
#define TP_FILTER_H

#include <stdint.h>

#include "stream/tp_stream.h"

/* Transform input row `row` (0 = north) into out. in holds the reader's
 * row layout, out the writer's (tp_row_floats of each header). fn must
 * only write to out; ctx is shared between threads, so read-only. */
typedef void (*tp_row_fn)(void *ctx, int64_t row, const float *in, float *out);

/* Progress: called on the calling thread after each batch is written. */
typedef void (*tp_progress_fn)(void *pctx, int64_t done, int64_t total);

typedef struct tp_filter_opts {
	int		threads;	/* <= 0: all processors */
	tp_progress_fn	progress;	/* may be NULL */
	void		*pctx;
} tp_filter_opts;

/* Read every row of r, transform it, write it to w, then check the input
 * ends where it should and flush. out_h is the header w was opened with.
 * With r NULL the stage is a generator: fn gets in == NULL for each of
 * out_h->height rows. */
int	tp_filter_run(tp_reader *r, tp_writer *w, const tp_header *out_h,
	    tp_row_fn fn, void *ctx, const tp_filter_opts *o, tp_err *e);

/* The loop of tp_filter_run and tp_window_run (tp_window.h), for a stage
 * that sees `halo` rows (0 or 1) on each side of its row: up, mid, down
 * are input rows y - 1, y, y + 1 in the reader's layout (up and down NULL
 * beyond the stream, and always without a halo; mid NULL when r is NULL),
 * out the writer's. worker (0 .. threads - 1) names the thread, for
 * scratch space and counters of its own; fn writes only to out and to its
 * worker's own places. out_h has the input's height. */
typedef void (*tp_filter_rows_fn)(void *ctx, int64_t y, const float *up,
    const float *mid, const float *down, float *out, int worker);

int	tp_filter_rows(tp_reader *r, tp_writer *w, const tp_header *out_h,
	    int halo, tp_filter_rows_fn fn, void *ctx, const tp_filter_opts *o,
	    tp_err *e);

/* Transform one band of row `row` of the stream h: in and out are that
 * band's h->width samples. h gives the width and the georeference, so a
 * stage passes its own settings as ctx (shared between threads: read-only). */
typedef void (*tp_band_fn)(void *ctx, const tp_header *h, int64_t row,
    const float *in, float *out);

/* tp_filter_run for a stage that changes band `band` and passes the others
 * through: the output has the input's layout (w opened with r->h's bands). */
int	tp_filter_band(tp_reader *r, tp_writer *w, int band, tp_band_fn fn,
	    void *ctx, const tp_filter_opts *o, tp_err *e);

#endif
