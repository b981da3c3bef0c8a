/* tp_filter.c - batched, threaded read / transform / write loop. */
#include <stdlib.h>
#include <string.h>

#include "stream/tp_filter.h"
#include "core/tp_num.h"
#include "core/tp_par.h"
#include "stream/tp_wbehind.h"

/* One batch of the loop: rows row0 .. row0 + n - 1. With a halo, slot s
 * of in holds row row0 - 1 + s, else row row0 + s. */
struct batch {
	tp_filter_rows_fn fn;
	void	*ctx;
	int64_t	row0, height;
	int	halo;
	const float *in;	/* NULL: a generator */
	float	*out;
	size_t	nin, nout;
};

static void
batch_rows(void *arg, int64_t begin, int64_t end, int worker)
{
	const struct batch *b = arg;

	for (int64_t i = begin; i < end; i++) {
		int64_t y = b->row0 + i;
		const float *mid = b->in != NULL ?
		    b->in + (size_t)(i + b->halo) * b->nin : NULL;
		const float *up = NULL, *down = NULL;

		if (b->halo) {
			up = y > 0 ? mid - b->nin : NULL;
			down = y + 1 < b->height ? mid + b->nin : NULL;
		}
		b->fn(b->ctx, y, up, mid, down, b->out + (size_t)i * b->nout,
		    worker);
	}
}

/* Room for rows x floats floats, the size checked first. */
static float *
alloc_rows(size_t floats, int64_t rows, tp_err *e)
{
	size_t n, bytes;
	float *p;

	if (tp_num_mul_size(floats, (size_t)rows, &n, "row buffer", e) < 0 ||
	    tp_num_mul_size(n, sizeof(float), &bytes, "row buffer", e) < 0 ||
	    tp_num_check_mem(bytes, "the row buffer", e) < 0)
		return NULL;
	if ((p = malloc(bytes > 0 ? bytes : 1)) == NULL)
		tp_err_set(e, "out of memory: rows need %.1f MiB",
		    bytes / 1048576.0);
	return p;
}

/* Read rows from..to-1 (clamped to the stream) into slot `slot` on. */
static int
read_rows(tp_reader *r, float *in, size_t nin, int64_t slot, int64_t from,
    int64_t to, tp_err *e)
{
	int64_t got;

	if (to > r->h.height)
		to = r->h.height;
	if (to <= from)
		return 0;
	return tp_reader_rows(r, in + (size_t)slot * nin, to - from, &got, e);
}

/* The input rows of the batch at b->row0, n rows, of `rows` a batch. With
 * a halo the first batch reads its rows and the one below; later ones
 * move the last two rows of the batch before to the front and read on. */
static int
read_batch(tp_reader *r, const struct batch *b, float *in, int64_t n,
    int64_t rows, tp_err *e)
{
	int64_t got;

	if (r == NULL)
		return 0;
	if (!b->halo)
		return tp_reader_rows(r, in, n, &got, e);
	if (b->row0 == 0)
		return read_rows(r, in, b->nin, 1, 0, rows + 1, e);
	memmove(in, in + (size_t)rows * b->nin, 2 * b->nin * sizeof *in);
	return read_rows(r, in, b->nin, 2, b->row0 + 1, b->row0 + n + 1, e);
}

int
tp_filter_rows(tp_reader *r, tp_writer *w, const tp_header *out_h, int halo,
    tp_filter_rows_fn fn, void *ctx, const tp_filter_opts *o, tp_err *e)
{
	struct batch b = { fn, ctx, 0, out_h->height, halo != 0, NULL, NULL,
	    r != NULL ? tp_row_floats(&r->h) : 0, tp_row_floats(out_h) };
	int threads = tp_par_threads(o != NULL ? o->threads : 0);
	int64_t rows, n, H = out_h->height;
	float *in = NULL, *out[2] = { NULL, NULL };
	tp_wbehind wb;
	int rc = -1, k = 0;

	tp_wbehind_init(&wb, w);
	rows = tp_batch_rows((b.nin + b.nout) * sizeof(float), H);
	/* Slot 0 is the row above the batch, slot n + 1 the row below. */
	if ((r != NULL && (in = alloc_rows(b.nin, rows + 2 * b.halo,
	    e)) == NULL) || (out[0] = alloc_rows(b.nout, rows, e)) == NULL ||
	    (out[1] = alloc_rows(b.nout, rows, e)) == NULL)
		goto done;
	b.in = in;
	for (b.row0 = 0; b.row0 < H; b.row0 += n, k ^= 1) {
		n = H - b.row0 < rows ? H - b.row0 : rows;
		if (read_batch(r, &b, in, n, rows, e) < 0)
			goto done;
		/* The batch before is still being written from the other
		 * buffer; the one before that is done (put waited). */
		b.out = out[k];
		tp_par_for(threads, n, 1, batch_rows, &b);
		if (tp_wbehind_put(&wb, b.out, n, e) < 0)
			goto done;
		if (o != NULL && o->progress != NULL)
			o->progress(o->pctx, b.row0 + n, H);
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

struct row_job {
	tp_row_fn fn;
	void	*ctx;
};

static void
point_row(void *arg, int64_t row, const float *up, const float *mid,
    const float *down, float *out, int worker)
{
	const struct row_job *j = arg;

	j->fn(j->ctx, row, mid, out);
}

int
tp_filter_run(tp_reader *r, tp_writer *w, const tp_header *out_h,
    tp_row_fn fn, void *ctx, const tp_filter_opts *o, tp_err *e)
{
	struct row_job j = { fn, ctx };

	return tp_filter_rows(r, w, out_h, 0, point_row, &j, o, e);
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
