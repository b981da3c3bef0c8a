/* check_contour.c - unit tests of tp_contour: a peak, saddles both ways,
 * NaN, levels, all with points worked out by hand. */
#include <check.h>
#include <math.h>

#include "vector/tp_contour.h"
#include "tp_test.h"

/* Cell (x, y) of a grid with origin (0, h) and cell size 1 has its centre
 * at (x + 0.5, h - y - 0.5). */

/* A peak of 1 in a 3 x 3 field of 0: at 0.5 one closed ring through the
 * four midpoints, counter-clockwise (higher ground, inside, on the left). */
START_TEST(test_peak)
{
	float z[9] = { 0, 0, 0, 0, 1, 0, 0, 0, 0 };
	tp_contours c;
	double a = 0;
	size_t i;

	ck_assert_int_eq(tp_contour_run(z, 3, 3, 3, 0.5, 1, 0, 3, 1, &c,
	    NULL), 0);
	ck_assert_int_eq(c.n, 1);
	ck_assert_int_eq(c.line[0].closed, 1);
	ck_assert_int_eq(c.line[0].npts, 5);
	ck_assert_double_eq(c.line[0].level, 0.5);
	for (i = 0; i < 4; i++) {
		double x = c.xy[2 * i], y = c.xy[2 * i + 1];

		/* a midpoint between the centre (1.5, 1.5) and a side */
		ck_assert_double_eq(fabs(x - 1.5) + fabs(y - 1.5), 0.5);
		a += x * c.xy[2 * i + 3] - c.xy[2 * i + 2] * y;
	}
	ck_assert_double_eq(c.xy[0], c.xy[8]);
	ck_assert_double_eq(c.xy[1], c.xy[9]);
	ck_assert(a > 0);
	tp_contour_free(&c);
}
END_TEST

/* A saddle: 1 0 / 0 1. The mean (0.5) is at or above 0.5: the high
 * corners are joined, two lines cut off the low ones. At 0.6 (mean below)
 * the two lines cut off the high corners instead. */
START_TEST(test_saddle)
{
	float z[4] = { 1, 0, 0, 1 };
	tp_contours c;

	ck_assert_int_eq(tp_contour_run(z, 2, 2, 2, 0.5, 10, 0, 2, 1, &c,
	    NULL), 0);
	ck_assert_int_eq(c.n, 2);
	/* the low corner south-west, (0.5, 0.5), is cut off by the line
	 * from the left side's midpoint (0.5, 1) to the bottom's (1, 0.5),
	 * the high centre on its left; the second cuts off the north-east */
	ck_assert_int_eq(c.line[0].npts, 2);
	ck_assert_int_eq(c.line[0].closed, 0);
	ck_assert_double_eq(c.xy[0], 0.5);
	ck_assert_double_eq(c.xy[1], 1.0);
	ck_assert_double_eq(c.xy[2], 1.0);
	ck_assert_double_eq(c.xy[3], 0.5);
	ck_assert_double_eq(c.xy[4], 1.5);
	ck_assert_double_eq(c.xy[5], 1.0);
	tp_contour_free(&c);
	ck_assert_int_eq(tp_contour_run(z, 2, 2, 2, 0.6, 10, 0, 2, 1, &c,
	    NULL), 0);
	ck_assert_int_eq(c.n, 2);
	/* now the high north-west corner is cut off: on the left side 0.4
	 * below it, on the top side 0.4 east of it */
	ck_assert_double_eq_tol(c.xy[0], 0.5, 1e-12);
	ck_assert_double_eq_tol(c.xy[1], 1.1, 1e-12);
	ck_assert_double_eq_tol(c.xy[2], 0.9, 1e-12);
	ck_assert_double_eq_tol(c.xy[3], 1.5, 1e-12);
	tp_contour_free(&c);
}
END_TEST

/* Levels base + k interval inside (min, max]: a ramp 0..4 in a row pair
 * crosses 1, 2, 3 and 4 (4 is the top corner itself: a line through it). */
START_TEST(test_levels)
{
	float z[10] = { 0, 1.5f, 2, 3.5f, 4, 0, 1.5f, 2, 3.5f, 4 };
	tp_contours c;
	size_t i;

	ck_assert_int_eq(tp_contour_run(z, 5, 2, 5, 0, 1, 0, 2, 1, &c, NULL),
	    0);
	ck_assert_int_eq(c.n, 4);
	for (i = 0; i < 4; i++) {
		ck_assert_double_eq(c.line[i].level, (double)(i + 1));
		ck_assert_int_eq(c.line[i].npts, 2);
		/* vertical lines: both points at the same x */
		ck_assert_double_eq(c.xy[2 * c.line[i].pt0],
		    c.xy[2 * c.line[i].pt0 + 2]);
	}
	/* level 1 crosses 0 .. 1.5 at 2/3 of the way from x 0.5 */
	ck_assert_double_eq_tol(c.xy[0], 0.5 + 2.0 / 3, 1e-12);
	tp_contour_free(&c);
	ck_assert_int_eq(tp_contour_run(z, 5, 2, 5, 0.25, 2, 0, 2, 1, &c,
	    NULL), 0);
	ck_assert_int_eq(c.n, 2);		/* 0.25 and 2.25 */
	ck_assert_double_eq(c.line[0].level, 0.25);
	ck_assert_double_eq(c.line[1].level, 2.25);
	tp_contour_free(&c);
}
END_TEST

/* NaN ends lines: the peak with its south-east cell NaN leaves one open
 * line around the three squares that have no NaN corner. */
START_TEST(test_nan)
{
	float z[9] = { 0, 0, 0, 0, 1, 0, 0, 0, NAN };
	tp_contours c;

	ck_assert_int_eq(tp_contour_run(z, 3, 3, 3, 0.5, 1, 0, 3, 1, &c,
	    NULL), 0);
	ck_assert_int_eq(c.n, 1);
	ck_assert_int_eq(c.line[0].closed, 0);
	ck_assert_int_eq(c.line[0].npts, 4);
	tp_contour_free(&c);
}
END_TEST

START_TEST(test_errors)
{
	float z[4] = { 0, 1e9f, 0, 0 }, inf[4] = { 0, INFINITY, 0, 0 };
	tp_contours c;
	tp_err e;

	ck_assert_int_eq(tp_contour_run(z, 2, 2, 2, 0, 1, 0, 2, 1, &c, &e),
	    -1);
	ck_assert_str_eq(e.msg, "contours: an interval of 1 gives more than "
	    "100000 levels between 0 and 1e+09");
	ck_assert_int_eq(tp_contour_run(inf, 2, 2, 2, 0, 1, 0, 2, 1, &c, &e),
	    -1);
	ck_assert_str_eq(e.msg, "contours: infinite value at column 1, row 0");
	/* a flat grid has no contours */
	ck_assert_int_eq(tp_contour_run(z + 2, 2, 1, 2, 0, 1, 0, 1, 1, &c,
	    &e), 0);
	ck_assert_int_eq(c.n, 0);
	tp_contour_free(&c);
}
END_TEST

static Suite *
contour_suite(void)
{
	Suite *s = suite_create("contour");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_peak);
	tcase_add_test(core, test_saddle);
	tcase_add_test(core, test_levels);
	tcase_add_test(core, test_nan);
	tcase_add_test(core, test_errors);
	suite_add_tcase(s, core);
	return s;
}

int
main(void)
{
	return tp_test_run(contour_suite());
}
