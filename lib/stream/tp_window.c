/* tp_window.c - the row loop of tp_filter.c with one row of halo. */
#include "stream/tp_filter.h"
#include "stream/tp_window.h"

int
tp_window_run(tp_reader *r, tp_writer *w, const tp_header *out_h,
    tp_window_fn fn, void *ctx, const tp_filter_opts *o, tp_err *e)
{
	return tp_filter_rows(r, w, out_h, 1, fn, ctx, o, e);
}
