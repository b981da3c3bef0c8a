/* check_window.c - unit tests of tp_window: moving-window sums through
 * memory streams, every value computable by hand. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/tp_window.h"
#include "tp_test.h"

/* 3000 cells a row: a batch (TP_BATCH_BYTES) holds 174 output rows of a
 * generator, so 800 rows take five batches. Every value is an integer
 * below 2^24: exact in float. */
#define W	3000

#define H	800

/* A generator row: row * 1000 + x. */
static void
gen_row(void *ctx, int64_t row, const float *in, float *out)
{
	const tp_header *h = ctx;

	for (int64_t x = 0; x < h->width; x++)
		out[x] = (float)(row * 1000 + x);
}

/* Progress: remember the calls (they come on the calling thread). */
struct calls {
	int	n;
	int64_t	last, total, backwards;
};

static void
count_progress(void *pctx, int64_t done, int64_t total)
{
	struct calls *c = pctx;

	c->backwards += done < c->last;
	c->n++;
	c->last = done;
	c->total = total;
}

/* Run the generator for a w x h stream on `threads` threads into memory;
 * returns the stream's bytes (*len of them, free them). */
static char *
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

/* Read len bytes of buf back as a grid. */
static void
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

static void
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

/* tp_window_run over the generator's rows (ten batches of up to 87 rows
 * in and out), on 1, 2 and 3 threads: cell (x, y) of rows y - 1, y, y + 1
 * sums to 3 (y * 1000 + x) inside and drops the missing row at the two
 * ends. The batches are written behind the computing of the next, from
 * two buffers taken in turn, so a buffer reused too early would show
 * here. */
START_TEST(test_window_sums)
{
	size_t len, olen;
	char *buf = generate(W, H, 1, &(struct calls){ 0 }, &len), *out;

	for (int t = 1; t <= 3; t++) {
		struct wsum c = { W, t, 0 };
		tp_filter_opts o = { t, NULL, NULL };
		FILE *in = fmemopen(buf, len, "r"), *of;
		int64_t wrong = 0;
		tp_reader r;
		tp_writer w;
		tp_grid g;
		tp_err e;

		of = open_memstream(&out, &olen);
		ck_assert_ptr_nonnull(in);
		ck_assert_ptr_nonnull(of);
		ck_assert_int_eq(tp_reader_open(&r, in, &e), 0);
		ck_assert_int_eq(tp_writer_open(&w, of, &r.h, &e), 0);
		ck_assert_msg(tp_window_run(&r, &w, &r.h, column_sum, &c, &o,
		    &e) == 0, "%s", e.msg);
		tp_writer_free(&w);
		tp_reader_free(&r);
		fclose(in);
		ck_assert_int_eq(fclose(of), 0);
		read_back(&g, out, olen);
		for (int64_t y = 0; y < H; y++)
			for (int64_t x = 0; x < W; x++) {
				double v = 3 * (y * 1000 + x);

				v -= y == 0 ? x - 1000 : 0;	/* no row -1 */
				v -= y == H - 1 ? H * 1000 + x : 0;
				wrong += g.data[y * W + x] != (float)v;
			}
		ck_assert_int_eq(wrong, 0);
		ck_assert_int_eq(c.badworker, 0);
		tp_grid_free(&g);
		free(out);
	}
	free(buf);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("window");
	TCase *core = tcase_create("core");

	tcase_set_timeout(core, 60);
	tcase_add_test(core, test_window_sums);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
