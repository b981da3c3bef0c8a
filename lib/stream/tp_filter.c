/* tp_filter.c - batched, threaded read / transform / write loop. */
#include <stdlib.h>
#include <string.h>

#include "stream/tp_filter.h"
#include "core/tp_num.h"
#include "core/tp_par.h"
#include "stream/tp_wbehind.h"

struct batch {
	tp_row_fn	fn;
	void		*ctx;
	int64_t		row0;
	const float	*in;
	float		*out;
	size_t		nin, nout;
};

static void
batch_rows(void *arg, int64_t begin, int64_t end, int worker)
{
	struct batch *b = arg;
	int64_t i;

	for (i = begin; i < end; i++)
		b->fn(b->ctx, b->row0 + i,
		    b->in != NULL ? b->in + (size_t)i * b->nin : NULL,
		    b->out + (size_t)i * b->nout);
}

/* Allocate n floats, checking the size first. */
static float *
alloc_floats(size_t n, tp_err *e)
{
	size_t bytes;
	float *p;

	if (n == 0)
		return NULL;
	if (tp_mul_size(n, sizeof(float), &bytes, "row buffer", e) < 0 ||
	    tp_check_mem(bytes, "the row buffer", e) < 0)
		return NULL;
	if ((p = malloc(bytes)) == NULL)
		tp_err_set(e, "out of memory: rows need %.1f MiB", bytes / 1048576.0);
	return p;
}

int
tp_filter_run(tp_reader *r, tp_writer *w, const tp_header *out_h,
    tp_row_fn fn, void *ctx, const tp_filter_opts *o, tp_err *e)
{
	struct batch b = { fn, ctx, 0, NULL, NULL, 0, 0 };
	int64_t rows, got, n;
	int threads = tp_par_threads(o != NULL ? o->threads : 0);
	float *in = NULL, *out[2] = { NULL, NULL };
	tp_wbehind wb;
	int rc = -1, k = 0;

	tp_wbehind_init(&wb, w);
	b.nin = r != NULL ? tp_row_floats(&r->h) : 0;
	b.nout = tp_row_floats(out_h);
	rows = tp_batch_rows((b.nin + b.nout) * sizeof(float), out_h->height);
	if ((b.nin > 0 && (in = alloc_floats(b.nin * (size_t)rows, e)) == NULL) ||
	    (out[0] = alloc_floats(b.nout * (size_t)rows, e)) == NULL ||
	    (out[1] = alloc_floats(b.nout * (size_t)rows, e)) == NULL)
		goto done;
	b.in = in;
	for (b.row0 = 0; b.row0 < out_h->height; b.row0 += n, k ^= 1) {
		n = out_h->height - b.row0 < rows ? out_h->height - b.row0 : rows;
		if (r != NULL && tp_reader_rows(r, in, n, &got, e) < 0)
			goto done;
		/* Into the buffer the write before last has left. */
		b.out = out[k];
		tp_par_for(threads, n, 1, batch_rows, &b);
		if (tp_wbehind_put(&wb, b.out, n, e) < 0)
			goto done;
		if (o != NULL && o->progress != NULL)
			o->progress(o->pctx, b.row0 + n, out_h->height);
	}
	if (tp_wbehind_wait(&wb, e) == 0 &&
	    (r == NULL || tp_reader_finish(r, e) == 0) &&
	    tp_writer_finish(w, e) == 0)
		rc = 0;
done:
	if (rc < 0) {
		tp_err ignored;
		tp_wbehind_wait(&wb, &ignored);
	}
	free(in);
	free(out[0]);
	free(out[1]);
	return rc;
}

struct band_job {
	tp_band_fn	fn;
	void		*ctx;
	const tp_header	*h;
	int		band;
};

static void
band_row(void *arg, int64_t row, const float *in, float *out)
{
	const struct band_job *j = arg;
	size_t w = (size_t)j->h->width;
	int b;

	for (b = 0; b < j->h->nbands; b++)
		if (b == j->band)
			j->fn(j->ctx, j->h, row, in + b * w, out + b * w);
		else
			memcpy(out + b * w, in + b * w, w * sizeof(float));
}

int
tp_filter_band(tp_reader *r, tp_writer *w, int band, tp_band_fn fn, void *ctx,
    const tp_filter_opts *o, tp_err *e)
{
	struct band_job j = { fn, ctx, &r->h, band };

	return tp_filter_run(r, w, &r->h, band_row, &j, o, e);
}
