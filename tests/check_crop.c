/* check_crop.c - unit tests for lib/tp_crop: window arithmetic from cells
 * and world boxes, the cropped header, and the streaming copy. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/tp_crop.h"
#include "tp_test.h"

/* 10 x 8 cells of 30 m, north-west corner (1000, 2000): cell (col, row)
 * spans x 1000 + 30 col .. + 30, y 2000 - 30 row - 30 .. 2000 - 30 row. */
static tp_header h;

static void
setup(void)
{
	tp_err e;

	ck_assert_int_eq(tp_header_init(&h, 10, 8, &e), 0);
	h.cellsize = 30;
	h.origin_x = 1000;
	h.origin_y = 2000;
}

static void
teardown(void)
{
	tp_header_free(&h);
}

static void
assert_window(const tp_crop_window *w, int64_t col, int64_t row, int64_t ww,
    int64_t wh)
{
	ck_assert_int_eq(w->col, col);
	ck_assert_int_eq(w->row, row);
	ck_assert_int_eq(w->w, ww);
	ck_assert_int_eq(w->h, wh);
}

/* x 1045..1100 is columns 1.5 .. 3.33, so cells 1, 2, 3; y 1850..1955 is
 * rows 1.5 .. 5, so cells 1 to 4. */
START_TEST(test_bbox_outward)
{
	tp_crop_window w;
	tp_err e;

	ck_assert_int_eq(tp_crop_bbox(&h, 1045, 1850, 1100, 1955, &w, &e), 0);
	assert_window(&w, 1, 1, 3, 4);
	/* inside one cell: that cell */
	ck_assert_int_eq(tp_crop_bbox(&h, 1031, 1941, 1032, 1942, &w, &e), 0);
	assert_window(&w, 1, 1, 1, 1);
}
END_TEST

/* A box on cell edges covers exactly those cells, also when rounding puts
 * an edge 3e-14 cells past one (90.000000000001 / 30). */
START_TEST(test_bbox_on_edges)
{
	tp_crop_window w;
	tp_err e;

	ck_assert_int_eq(tp_crop_bbox(&h, 1030, 1880, 1090, 1970, &w, &e), 0);
	assert_window(&w, 1, 1, 2, 3);
	ck_assert_int_eq(tp_crop_bbox(&h, 1030, 1880, 1090.000000000001,
	    1970, &w, &e), 0);
	assert_window(&w, 1, 1, 2, 3);
	/* 1e-6 cells past is a real overlap */
	ck_assert_int_eq(tp_crop_bbox(&h, 1030, 1880, 1090.00003, 1970, &w,
	    &e), 0);
	assert_window(&w, 1, 1, 3, 3);
}
END_TEST

START_TEST(test_fit_and_clip)
{
	tp_crop_window w = { 2, 3, 4, 2 };
	tp_err e;

	ck_assert_int_eq(tp_crop_fit(&h, &w, 0, &e), 0);
	assert_window(&w, 2, 3, 4, 2);
	w = (tp_crop_window){ 8, 6, 4, 4 };
	ck_assert_int_eq(tp_crop_fit(&h, &w, 0, &e), -1);
	ck_assert_str_eq(e.msg, "window 8,6,4,4 reaches outside the 10x8 grid; "
	    "clipping keeps the part inside");
	ck_assert_int_eq(tp_crop_fit(&h, &w, 1, &e), 0);
	assert_window(&w, 8, 6, 2, 2);
	w = (tp_crop_window){ -2, -1, 5, 4 };
	ck_assert_int_eq(tp_crop_fit(&h, &w, 1, &e), 0);
	assert_window(&w, 0, 0, 3, 3);
	w = (tp_crop_window){ 0, 0, 10, 8 };			/* the whole grid */
	ck_assert_int_eq(tp_crop_fit(&h, &w, 0, &e), 0);
	assert_window(&w, 0, 0, 10, 8);
}
END_TEST

/* The window's north-west corner becomes the origin. */
START_TEST(test_header)
{
	tp_crop_window w = { 2, 3, 4, 2 };

	tp_crop_header(&h, &w);
	ck_assert_double_eq(h.origin_x, 1060);
	ck_assert_double_eq(h.origin_y, 1910);
	ck_assert_int_eq(h.width, 4);
	ck_assert_int_eq(h.height, 2);
	ck_assert_double_eq(h.cellsize, 30);
}
END_TEST

/* Crop win out of a w x ht stream of nb bands holding row * 10000 + band *
 * 1000 + x, cut short by cut bytes; returns tp_crop_copy's result and
 * the output in *g (read back) when it succeeds. */
static int
crop(int64_t w, int64_t ht, int nb, size_t cut, tp_crop_window win, tp_grid *g,
    tp_err *e)
{
	char *buf = NULL, *out = NULL;
	size_t len, olen;
	FILE *f = open_memstream(&buf, &len), *of;
	tp_header oh;
	tp_reader r;
	tp_writer wr;
	int rc;

	ck_assert_int_eq(tp_header_init(&oh, w, ht, e), 0);
	for (int b = 1; b < nb; b++)
		ck_assert_int_ge(tp_header_add_band(&oh, b == 1 ? "b" : "c", e), 0);
	ck_assert_int_eq(tp_grid_alloc(g, &oh, e), 0);
	for (int64_t i = 0; i < w * ht * nb; i++)
		g->data[i] = (float)(i / (nb * w) * 10000 + i / w % nb * 1000 +
		    i % w);
	ck_assert_int_eq(tp_grid_write(g, f, e), 0);
	fclose(f);
	tp_grid_free(g);
	tp_header_free(&oh);
	f = fmemopen(buf, len - cut, "r");
	of = open_memstream(&out, &olen);
	ck_assert_int_eq(tp_reader_open(&r, f, e), 0);
	ck_assert_int_eq(tp_header_copy(&oh, &r.h, e), 0);
	tp_crop_header(&oh, &win);
	ck_assert_int_eq(tp_writer_open(&wr, of, &oh, e), 0);
	rc = tp_crop_copy(&r, &wr, &win, e);
	tp_writer_free(&wr);
	tp_header_free(&oh);
	tp_reader_free(&r);
	fclose(f);
	fclose(of);
	if (rc == 0) {
		f = fmemopen(out, olen, "r");
		ck_assert_int_eq(tp_grid_read(g, f, e), 0);
		fclose(f);
	}
	free(buf);
	free(out);
	return rc;
}

/* Every output cell is the input cell (col + x, row + y), every band. */
static void
assert_crop(const tp_grid *g, const tp_crop_window *win, int nb)
{
	int64_t wrong = 0;

	ck_assert_int_eq(g->h.width, win->w);
	ck_assert_int_eq(g->h.height, win->h);
	for (int64_t y = 0; y < win->h; y++)
		for (int b = 0; b < nb; b++)
			for (int64_t x = 0; x < win->w; x++)
				wrong += g->data[(y * nb + b) * win->w + x] !=
				    (float)((win->row + y) * 10000 + b * 1000 +
				    win->col + x);
	ck_assert_int_eq(wrong, 0);
}

START_TEST(test_copy_window)
{
	tp_crop_window wins[] = {
		{ 2, 3, 4, 2 },		/* inside */
		{ 0, 5, 10, 3 },	/* whole rows, to the last */
		{ 9, 0, 1, 1 },		/* one corner cell */
	};
	tp_grid g;
	tp_err e;

	for (size_t i = 0; i < sizeof wins / sizeof *wins; i++) {
		ck_assert_msg(crop(10, 8, 2, 0, wins[i], &g, &e) == 0, "%s",
		    e.msg);
		assert_crop(&g, &wins[i], 2);
		tp_grid_free(&g);
	}
}
END_TEST

/* 3 bands of 3000 cells in and of 1000 out: 87 rows a batch, so rows
 * 50..299 come from four batches. */
START_TEST(test_copy_batches)
{
	tp_crop_window win = { 1000, 50, 1000, 250 };
	tp_grid g;
	tp_err e;

	ck_assert_msg(crop(3000, 400, 3, 0, win, &g, &e) == 0, "%s", e.msg);
	assert_crop(&g, &win, 3);
	tp_grid_free(&g);
}
END_TEST

/* Cut short inside the window, or in the rows after it: both are errors
 * (the rows after the window are read and checked too). */
START_TEST(test_truncated)
{
	tp_crop_window win = { 2, 1, 4, 2 };
	tp_grid g;
	tp_err e;

	ck_assert_int_eq(crop(10, 8, 2, 6 * 80, win, &g, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "truncated stream"));
	ck_assert_ptr_nonnull(strstr(e.msg, "in row 2 of 8"));
	ck_assert_int_eq(crop(10, 8, 2, 4, win, &g, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "in row 7 of 8"));
}
END_TEST

START_TEST(test_bad_windows)
{
	tp_crop_window w;
	tp_err e;

	ck_assert_int_eq(tp_crop_bbox(&h, 1100, 1850, 1045, 1955, &w, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "is empty"));
	ck_assert_int_eq(tp_crop_bbox(&h, 1045, 1900, 1100, 1900, &w, &e), -1);
	w = (tp_crop_window){ 10, 0, 2, 2 };
	ck_assert_int_eq(tp_crop_fit(&h, &w, 1, &e), -1);
	ck_assert_str_eq(e.msg, "window 10,0,2,2 lies wholly outside the 10x8 "
	    "grid");
	w = (tp_crop_window){ -5, -5, 5, 5 };	/* touches the corner only */
	ck_assert_int_eq(tp_crop_fit(&h, &w, 1, &e), -1);
}
END_TEST

static Suite *
crop_suite(void)
{
	Suite *s = suite_create("crop");
	TCase *core = tcase_create("core");
	TCase *limits = tcase_create("limits");
	TCase *errors = tcase_create("errors");

	tcase_add_checked_fixture(core, setup, teardown);
	tcase_add_checked_fixture(limits, setup, teardown);
	tcase_add_checked_fixture(errors, setup, teardown);
	tcase_add_test(core, test_bbox_outward);
	tcase_add_test(core, test_fit_and_clip);
	tcase_add_test(core, test_header);
	tcase_add_test(core, test_copy_window);
	tcase_add_test(limits, test_bbox_on_edges);
	tcase_add_test(limits, test_copy_batches);
	tcase_add_test(errors, test_truncated);
	tcase_add_test(errors, test_bad_windows);
	suite_add_tcase(s, core);
	suite_add_tcase(s, limits);
	suite_add_tcase(s, errors);
	return s;
}

int
main(void)
{
	return tp_test_run(crop_suite());
}
