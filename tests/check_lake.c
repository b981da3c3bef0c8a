/*
 * check_lake.c - unit tests of tp_lake: a fill's depressions levelled to
 * flat water and labelled as lakes.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "hydro/tp_fill.h"
#include "hydro/tp_lake.h"
#include "tp_test.h"

/* A rim of 9 with its pour point, the 5 on the east border. Filled flat,
 * by hand: from the 5, (3,3)'s 3 rises to 5, then through it (2,2)'s 4,
 * and through that (1,1) 3, (2,1) 2, (1,2) 1, (1,3) 2: one lake of six
 * cells at 5, depths 2 3 4 1 3 2. (3,1) 7, (3,2) 6 and (2,3) 8 stay. */
static const float rim[25] = {
	9, 9, 9, 9, 9,
	9, 3, 2, 7, 9,
	9, 1, 4, 6, 5,
	9, 2, 8, 3, 9,
	9, 9, 9, 9, 9 };
static const float level[25] = {
	9, 9, 9, 9, 9,
	9, 5, 5, 7, 9,
	9, 5, 5, 6, 5,
	9, 5, 8, 5, 9,
	9, 9, 9, 9, 9 };

/* z filled by rule into f, and the depth band d = f - z. */
static void
fill(const float *z, int w, int h, tp_fill_rule rule, float *f, float *d)
{
	tp_fill_opts o = { .rule = rule };
	tp_err e;

	memcpy(f, z, (size_t)w * (size_t)h * sizeof *f);
	memcpy(d, z, (size_t)w * (size_t)h * sizeof *d);
	ck_assert_int_eq(tp_fill_pf(f, w, h, (size_t)w, &o, NULL, &e), 0);
	tp_fill_depth(f, d, w, h, (size_t)w);
}

/* Either fill's heights level to the hand-filled lake. */
START_TEST(test_level)
{
	tp_fill_rule rules[2] = { TP_FILL_NEXT, TP_FILL_FLAT };
	float f[25], d[25], zl[25];
	tp_err e;
	int r, i;

	for (r = 0; r < 2; r++) {
		fill(rim, 5, 5, rules[r], f, d);
		ck_assert_int_eq(tp_lake_level(f, 5, d, 5, 5, 5,
		    zl, &e), 0);
		for (i = 0; i < 25; i++)
			ck_assert_float_eq(zl[i], level[i]);
	}
}
END_TEST

/* The six cells are one lake, labelled 1, from the default fill; of
 * fewer than 7 cells, or shallower than asked, it is a puddle: no label,
 * still wet. */
START_TEST(test_label)
{
	float f[25], d[25], zl[25], lake[25];
	uint8_t wet[25];
	int64_t n;
	tp_err e;
	int i;

	fill(rim, 5, 5, TP_FILL_NEXT, f, d);
	ck_assert_int_eq(tp_lake_level(f, 5, d, 5, 5, 5, zl, &e),
	    0);
	ck_assert_int_eq(tp_lake_label(f, 5, d, 5, zl, 5, 5, 6, 0, wet, lake, 5,
	    &n, &e), 0);
	ck_assert_int_eq(n, 1);
	for (i = 0; i < 25; i++) {
		int in = level[i] == 5 && rim[i] < 5;

		ck_assert_int_eq(wet[i], in);
		ck_assert_float_eq(lake[i], in ? 1 : 0);
	}
	ck_assert_int_eq(tp_lake_label(f, 5, d, 5, zl, 5, 5, 7, 0, wet, lake, 5,
	    &n, &e), 0);
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(wet[6], 1);
	ck_assert_float_eq(lake[6], 0);
	/* its deepest cell, (1,2)'s 1, lies 4 below the level 5 */
	ck_assert_int_eq(tp_lake_label(f, 5, d, 5, zl, 5, 5, 6, 4, wet, lake, 5,
	    &n, &e), 0);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(tp_lake_label(f, 5, d, 5, zl, 5, 5, 6, 4.01, wet, lake,
	    5, &n, &e), 0);
	ck_assert_int_eq(n, 0);
}
END_TEST

/* A flat of the input raised by the default fill only to drain it is no
 * lake: its ground is at its level. Two pits beside it are two lakes,
 * numbered in row-major order of their first cells; NaN stays NaN. */
START_TEST(test_flat_is_not_water)
{
	/* 7 x 4: the 3s drain west through the 2 on the border; the 1 at
	 * (5,1) and the 0 at (2,2) are pits below them. */
	float z[28] = {
		9, 9, 9, 9, 9, 9, 9,
		2, 3, 3, 3, 3, 1, 9,
		9, 3, 0, 3, 3, 3, 9,
		9, 9, 9, 9, 9, 9, NAN };
	float f[28], d[28], zl[28], lake[28];
	uint8_t wet[28];
	int64_t n;
	tp_err e;
	int i;

	fill(z, 7, 4, TP_FILL_NEXT, f, d);
	ck_assert(d[9] > 0);		/* (2,1): raised for a gradient */
	ck_assert_int_eq(tp_lake_level(f, 7, d, 7, 7, 4, zl, &e),
	    0);
	ck_assert_int_eq(tp_lake_label(f, 7, d, 7, zl, 7, 4, 1, 0, wet, lake, 7,
	    &n, &e), 0);
	ck_assert_int_eq(n, 2);
	for (i = 0; i < 27; i++)
		ck_assert_float_eq(lake[i], i == 12 ? 1 : i == 16 ? 2 : 0);
	ck_assert(isnan(lake[27]));
	ck_assert_float_eq(zl[12], 3);
	ck_assert_float_eq(zl[16], 3);
	ck_assert_int_eq(wet[9], 0);
}
END_TEST

static Suite *
lake_suite(void)
{
	Suite *s = suite_create("lake");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_level);
	tcase_add_test(tc, test_label);
	tcase_add_test(tc, test_flat_is_not_water);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tp_test_run(lake_suite());
}
