/* tp_test_rows.h - a generated row stream in memory, for the suites of the
 * row loops (check_filter, check_window).
 *
 *   W, H                  a size that takes five batches (see below)
 *   gen_row               generator row fn: row * 1000 + x
 *   struct calls          the progress calls seen by count_progress
 *   generate(w, h, ...)   gen_row through tp_filter_run on some threads
 *                         into memory: the stream's bytes
 *   read_back(g, b, n)    those bytes read back as a grid
 *   column_sum            window fn: up + mid + down (struct wsum)
 *
 * Included by test programs only, each built alone, so everything here is
 * static, as in tp_test.h. */
#ifndef TP_TEST_ROWS_H
#define TP_TEST_ROWS_H

#include <check.h>
#include <stdio.h>

#include "stream/tp_filter.h"
#include "stream/tp_stream.h"

/* 3000 cells a row: a batch (TP_BATCH_BYTES) holds 174 output rows of a
 * generator, so 800 rows take five batches. Every value is an integer
 * below 2^24: exact in float. */
#define W	3000

#define H	800

static inline void
gen_row(void *ctx, int64_t row, const float *in, float *out)
{
	const tp_header *h = ctx;

	for (int64_t x = 0; x < h->width; x++)
		out[x] = (float)(row * 1000 + x);
}

/* Progress calls come on the calling thread: no lock. */
struct calls {
	int	n;
	int64_t	last, total, backwards;
};

static inline void
count_progress(void *pctx, int64_t done, int64_t total)
{
	struct calls *c = pctx;

	c->backwards += done < c->last;
	c->n++;
	c->last = done;
	c->total = total;
}

/* The caller frees the bytes (*len of them). */
static inline char *
generate(int64_t w, int64_t h, int threads, struct calls *c, size_t *len)
{
	tp_filter_opts o = { threads, count_progress, c };
	tp_header hd;
	tp_writer wr;
	tp_err e;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(tp_header_init(&hd, w, h, &e), 0);
	ck_assert_int_eq(tp_writer_open(&wr, f, &hd, &e), 0);
	ck_assert_msg(tp_filter_run(NULL, &wr, &hd, gen_row, &hd, &o, &e) == 0,
	    "%s", e.msg);
	tp_writer_free(&wr);
	tp_header_free(&hd);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

static inline void
read_back(tp_grid *g, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "r");
	tp_err e;

	ck_assert_ptr_nonnull(f);
	ck_assert_msg(tp_grid_read(g, f, &e) == 0, "%s", e.msg);
	fclose(f);
}

/* Window fn: the sum of the cell's column, up + mid + down, a missing
 * row counting 0; worker must be one of the threads. */
struct wsum {
	int64_t	width;
	int	threads, badworker;
};

static inline void
column_sum(void *ctx, int64_t y, const float *up, const float *mid,
    const float *down, float *out, int worker)
{
	struct wsum *c = ctx;

	if (worker < 0 || worker >= c->threads)
		c->badworker = 1;	/* racy, but only ever set to 1 */
	for (int64_t x = 0; x < c->width; x++)
		out[x] = (up != NULL ? up[x] : 0) + mid[x] +
		    (down != NULL ? down[x] : 0);
}

#endif
