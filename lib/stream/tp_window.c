/* tp_window.c - batched, threaded row loop with one row of halo. */
#include <stdlib.h>
#include <string.h>

#include "core/tp_num.h"
#include "core/tp_par.h"
#include "stream/tp_wbehind.h"
#include "stream/tp_window.h"

struct job {
	tp_window_fn fn;
	void	*ctx;
	int64_t	row0, height;
	const float *in;	/* slot s holds row row0 - 1 + s */
	float	*out;
	size_t	nin, nout;
};

static void
job_rows(void *arg, int64_t begin, int64_t end, int worker)
{
	const struct job *j = arg;

	for (int64_t i = begin; i < end; i++) {
		int64_t y = j->row0 + i;
		const float *mid = j->in + (size_t)(i + 1) * j->nin;

		j->fn(j->ctx, y, y > 0 ? mid - j->nin : NULL, mid,
		    y + 1 < j->height ? mid + j->nin : NULL,
		    j->out + (size_t)i * j->nout, worker);
	}
}

static float *
alloc_rows(size_t floats, int64_t rows, tp_err *e)
{
	size_t n, bytes;
	float *p;

	if (tp_mul_size(floats, (size_t)rows, &n, "row buffer", e) < 0 ||
	    tp_mul_size(n, sizeof(float), &bytes, "row buffer", e) < 0 ||
	    tp_check_mem(bytes, "the row buffer", e) < 0)
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

int
tp_window_run(tp_reader *r, tp_writer *w, const tp_header *out_h,
    tp_window_fn fn, void *ctx, const tp_filter_opts *o, tp_err *e)
{
	struct job j = { fn, ctx, 0, r->h.height, NULL, NULL,
	    tp_row_floats(&r->h), tp_row_floats(out_h) };
	int threads = tp_par_threads(o != NULL ? o->threads : 0);
	int64_t rows, n, H = r->h.height;
	float *in, *out[2] = { NULL, NULL };
	tp_wbehind wb;
	int rc = -1, k = 0;

	tp_wbehind_init(&wb, w);
	rows = tp_batch_rows((j.nin + j.nout) * sizeof(float), H);
	in = alloc_rows(j.nin, rows + 2, e);
	if (in == NULL || (out[0] = alloc_rows(j.nout, rows, e)) == NULL ||
	    (out[1] = alloc_rows(j.nout, rows, e)) == NULL)
		goto done;
	j.in = in;
	/* Slot 0 is the row above the batch, slot n + 1 the row below. */
	if (read_rows(r, in, j.nin, 1, 0, rows + 1, e) < 0)
		goto done;
	for (j.row0 = 0; j.row0 < H; j.row0 += n, k ^= 1) {
		n = H - j.row0 < rows ? H - j.row0 : rows;
		if (j.row0 > 0) {
			memmove(in, in + (size_t)rows * j.nin,
			    2 * j.nin * sizeof *in);
			if (read_rows(r, in, j.nin, 2, j.row0 + 1, j.row0 + n + 1,
			    e) < 0)
				goto done;
		}
		/* The batch before is still being written from the other
		 * buffer; the one before that is done (put waited). */
		j.out = out[k];
		tp_par_for(threads, n, 1, job_rows, &j);
		if (tp_wbehind_put(&wb, j.out, n, e) < 0)
			goto done;
		if (o != NULL && o->progress != NULL)
			o->progress(o->pctx, j.row0 + n, H);
	}
	if (tp_wbehind_wait(&wb, e) == 0 && tp_reader_finish(r, e) == 0 &&
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
