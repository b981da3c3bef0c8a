/* check_filter.c - unit tests for lib/tp_filter: the batched, threaded row
 * loop, through memory streams (every value computable by hand). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/tp_filter.h"
#include "stream/tp_window.h"
#include "tp_test.h"
#include "tp_test_rows.h"

/* Band fn: minus the input, plus the row (h gives the width). */
static void
neg_row(void *ctx, const tp_header *h, int64_t row, const float *in,
    float *out)
{
	for (int64_t x = 0; x < h->width; x++)
		out[x] = (float)row - in[x];
}

/* Every cell holds row * 1000 + x after the round trip, on 1, 2 and 3
 * threads alike; progress climbs once per batch to the height. */
START_TEST(test_generator_values)
{
	static const int threads[] = { 1, 2, 3 };
	tp_grid g;
	size_t len;

	for (int t = 0; t < 3; t++) {
		struct calls c = { 0, 0, 0, 0 };
		char *buf = generate(W, H, threads[t], &c, &len);
		int64_t wrong = 0;

		read_back(&g, buf, len);
		ck_assert_int_eq(g.h.width, W);
		ck_assert_int_eq(g.h.height, H);
		for (int64_t y = 0; y < H; y++)
			for (int64_t x = 0; x < W; x++)
				wrong += g.data[y * W + x] != (float)(y * 1000 + x);
		ck_assert_int_eq(wrong, 0);
		ck_assert_float_eq(g.data[(H - 1) * W + W - 1], 801999.0f);
		ck_assert_int_eq(c.n, 5);	/* 4 x 174 + 104 rows of 12000 B */
		ck_assert_int_eq(c.last, H);
		ck_assert_int_eq(c.total, H);
		ck_assert_int_eq(c.backwards, 0);
		tp_grid_free(&g);
		free(buf);
	}
}
END_TEST

/* tp_filter_band changes one band of three and copies the others:
 * band 1 becomes row - (row * 1000 + x), bands 0 and 2 are untouched. */
START_TEST(test_band_round_trip)
{
	size_t len, olen;
	char *buf = generate(5, 4, 1, &(struct calls){ 0 }, &len), *out = NULL;
	tp_header h3;
	tp_reader r;
	tp_writer w;
	tp_grid g;
	tp_err e;
	FILE *in, *of;

	/* make it three bands: the generator's one, twice more */
	read_back(&g, buf, len);
	ck_assert_int_eq(tp_header_copy(&h3, &g.h, &e), 0);
	ck_assert_int_eq(tp_header_add_band(&h3, "b", &e), 1);
	ck_assert_int_eq(tp_header_add_band(&h3, "c", &e), 2);
	free(buf);
	of = open_memstream(&buf, &len);
	ck_assert_int_eq(tp_writer_open(&w, of, &h3, &e), 0);
	for (int64_t y = 0; y < 4; y++) {
		float row[15];

		for (int b = 0; b < 3; b++)
			memcpy(row + b * 5, g.data + y * 5, 5 * sizeof *row);
		ck_assert_int_eq(tp_writer_row(&w, row, &e), 0);
	}
	ck_assert_int_eq(tp_writer_finish(&w, &e), 0);
	tp_writer_free(&w);
	fclose(of);
	tp_grid_free(&g);
	tp_header_free(&h3);

	in = fmemopen(buf, len, "r");
	of = open_memstream(&out, &olen);
	ck_assert_int_eq(tp_reader_open(&r, in, &e), 0);
	ck_assert_int_eq(tp_writer_open(&w, of, &r.h, &e), 0);
	ck_assert_msg(tp_filter_band(&r, &w, 1, neg_row, NULL,
	    &(tp_filter_opts){ 2, NULL, NULL }, &e) == 0, "%s", e.msg);
	tp_writer_free(&w);
	tp_reader_free(&r);
	fclose(in);
	fclose(of);
	read_back(&g, out, olen);
	ck_assert_int_eq(g.h.nbands, 3);
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 5; x++) {
			float v = (float)(y * 1000 + x);
			float *row = g.data + y * 15;

			ck_assert_float_eq(row[x], v);
			ck_assert_float_eq(row[5 + x], (float)y - v);
			ck_assert_float_eq(row[10 + x], v);
		}
	tp_grid_free(&g);
	free(buf);
	free(out);
}
END_TEST

/* One cell, one row: a batch of one. */
START_TEST(test_one_cell)
{
	struct calls c = { 0 };
	size_t len;
	char *buf = generate(1, 1, 4, &c, &len);
	tp_grid g;

	read_back(&g, buf, len);
	ck_assert_float_eq(g.data[0], 0.0f);
	ck_assert_int_eq(c.n, 1);
	tp_grid_free(&g);
	free(buf);
}
END_TEST

/* A row wider than a batch still goes one row at a time. */
START_TEST(test_row_wider_than_batch)
{
	int64_t w = (int64_t)(TP_BATCH_BYTES / sizeof(float)) + 3;
	struct calls c = { 0 };
	size_t len;
	char *buf = generate(w, 3, 2, &c, &len);
	tp_grid g;

	read_back(&g, buf, len);
	ck_assert_float_eq(g.data[2 * w + w - 1], (float)(2000 + w - 1));
	ck_assert_int_eq(c.n, 3);
	tp_grid_free(&g);
	free(buf);
}
END_TEST

/* Filter the first len bytes of buf through neg_row; returns its result
 * and the message in *e. */
static int
filter_bytes(char *buf, size_t len, tp_err *e)
{
	FILE *in = fmemopen(buf, len, "r"), *of = fopen("/dev/null", "w");
	tp_reader r;
	tp_writer w;
	int rc;

	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(of);
	ck_assert_int_eq(tp_reader_open(&r, in, e), 0);
	ck_assert_int_eq(tp_writer_open(&w, of, &r.h, e), 0);
	rc = tp_filter_band(&r, &w, 0, neg_row, NULL, NULL, e);
	tp_writer_free(&w);
	tp_reader_free(&r);
	fclose(in);
	fclose(of);
	return rc;
}

/* A stream cut in the third batch: an error naming the row, not a short
 * output. */
START_TEST(test_truncated)
{
	size_t len, hdr;
	char *buf = generate(W, H, 2, &(struct calls){ 0 }, &len);
	tp_err e;

	hdr = len - (size_t)W * H * sizeof(float);
	ck_assert_int_eq(filter_bytes(buf, hdr + (size_t)W * 4 * 700 + 8, &e),
	    -1);
	ck_assert_msg(strstr(e.msg, "truncated stream") != NULL &&
	    strstr(e.msg, "in row 700 of 800") != NULL, "%s", e.msg);
	free(buf);
}
END_TEST

/* Bytes after the last row are refused. */
START_TEST(test_trailing)
{
	size_t len;
	char *buf = generate(3, 2, 1, &(struct calls){ 0 }, &len);
	char *more = malloc(len + 4);
	tp_err e;

	ck_assert_ptr_nonnull(more);
	memcpy(more, buf, len);
	memset(more + len, 0, 4);
	ck_assert_int_eq(filter_bytes(more, len + 4, &e), -1);
	ck_assert_msg(strstr(e.msg, "trailing data") != NULL, "%s", e.msg);
	ck_assert_int_eq(filter_bytes(more, len, &e), 0);
	free(more);
	free(buf);
}
END_TEST

/* A full disk under both loops: -1 and the write error, not a crash or
 * a hang, whichever batch the write fails in. */
START_TEST(test_write_fails)
{
	size_t len;
	char *buf = generate(W, H, 1, &(struct calls){ 0 }, &len);

	for (int loop = 0; loop < 2; loop++) {
		struct wsum c = { W, 2, 0 };
		tp_filter_opts o = { 2, NULL, NULL };
		FILE *in = fmemopen(buf, len, "r"), *of = fopen("/dev/full", "w");
		tp_reader r;
		tp_writer w;
		tp_err e;
		int rc;

		ck_assert_ptr_nonnull(in);
		ck_assert_ptr_nonnull(of);
		ck_assert_int_eq(tp_reader_open(&r, in, &e), 0);
		ck_assert_int_eq(tp_writer_open(&w, of, &r.h, &e), 0);
		rc = loop == 0 ? tp_filter_band(&r, &w, 0, neg_row, NULL, &o, &e) :
		    tp_window_run(&r, &w, &r.h, column_sum, &c, &o, &e);
		ck_assert_int_eq(rc, -1);
		ck_assert_msg(strstr(e.msg, "write error") != NULL, "%s", e.msg);
		tp_writer_free(&w);
		tp_reader_free(&r);
		fclose(in);
		fclose(of);
	}
	free(buf);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("filter");
	TCase *core = tcase_create("core");
	TCase *limits = tcase_create("limits");
	TCase *errors = tcase_create("errors");

	tcase_set_timeout(core, 60);
	tcase_add_test(core, test_generator_values);
	tcase_add_test(core, test_band_round_trip);
	tcase_set_timeout(limits, 60);
	tcase_add_test(limits, test_one_cell);
	tcase_add_test(limits, test_row_wider_than_batch);
	tcase_set_timeout(errors, 60);
	tcase_add_test(errors, test_truncated);
	tcase_add_test(errors, test_trailing);
	tcase_add_test(errors, test_write_fails);
	suite_add_tcase(s, core);
	suite_add_tcase(s, limits);
	suite_add_tcase(s, errors);
	return tp_test_run(s);
}
