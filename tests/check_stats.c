/* check_stats.c - unit tests for lib/tp_stats (hand-computed values). */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "stream/tp_stats.h"
#include "tp_test.h"

static tp_stats s;

static void
setup(void)
{
	tp_err e;

	ck_assert_int_eq(tp_stats_init(&s, &e), 0);
}

static void
teardown(void)
{
	tp_stats_free(&s);
}

/* 1..10: mean 5.5, population variance 8.25. */
START_TEST(test_one_to_ten)
{
	float v[10];

	for (int i = 0; i < 10; i++)
		v[i] = (float)(i + 1);
	tp_stats_add(&s, v, 10);
	ck_assert_uint_eq(s.n, 10);
	ck_assert_uint_eq(s.nodata, 0);
	ck_assert_double_eq(s.min, 1);
	ck_assert_double_eq(s.max, 10);
	ck_assert_double_eq_tol(s.mean, 5.5, 1e-15);
	ck_assert_double_eq_tol(tp_stats_stddev(&s), sqrt(8.25), 1e-15);
}
END_TEST

/* The same numbers in pieces of 3, 1 and 6 give the same figures. */
START_TEST(test_pieces_merge)
{
	float v[10];

	for (int i = 0; i < 10; i++)
		v[i] = (float)(i + 1);
	tp_stats_add(&s, v, 3);
	tp_stats_add(&s, v + 3, 1);
	tp_stats_add(&s, v + 4, 6);
	ck_assert_uint_eq(s.n, 10);
	ck_assert_double_eq_tol(s.mean, 5.5, 1e-15);
	ck_assert_double_eq_tol(tp_stats_stddev(&s), sqrt(8.25), 1e-15);
}
END_TEST

/* NaN is nodata, infinities are counted apart, neither moves the figures. */
START_TEST(test_nan_counting)
{
	float v[] = { NAN, 2, NAN, 4, INFINITY, -INFINITY, NAN };

	tp_stats_add(&s, v, 7);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_uint_eq(s.nodata, 3);
	ck_assert_uint_eq(s.ninf, 2);
	ck_assert_double_eq(s.min, 2);
	ck_assert_double_eq(s.max, 4);
	ck_assert_double_eq(s.mean, 3);
	ck_assert_double_eq(tp_stats_stddev(&s), 1);
}
END_TEST

/* 1..10 in 3 bins: edges 1, 4, 7, 10 (all fine edges), counts 3 3 4. */
START_TEST(test_hist_edges)
{
	float v[10];
	double edges[4];
	uint64_t c[3];

	for (int i = 0; i < 10; i++)
		v[i] = (float)(10 - i);
	tp_stats_add(&s, v, 10);
	ck_assert_int_eq(tp_stats_hist(&s, 3, edges, c), 3);
	ck_assert_double_eq(edges[0], 1);
	ck_assert_double_eq(edges[1], 4);
	ck_assert_double_eq(edges[2], 7);
	ck_assert_double_eq(edges[3], 10);
	ck_assert_uint_eq(c[0], 3);	/* 1 2 3 */
	ck_assert_uint_eq(c[1], 3);	/* 4 5 6 */
	ck_assert_uint_eq(c[2], 4);	/* 7 8 9 10: the last bin is closed */
}
END_TEST

/* 0, 0.25, 0.5, 0.75, 1 in 4 bins (the generator range): one per bin, two
 * in the last; the fine bins grew from the first value 0. */
START_TEST(test_hist_unit_range)
{
	float v[] = { 0.5f, 0, 1, 0.25f, 0.75f };
	double edges[5];
	uint64_t c[4];

	tp_stats_add(&s, v, 5);
	ck_assert_int_eq(tp_stats_hist(&s, 4, edges, c), 4);
	for (int k = 0; k <= 4; k++)
		ck_assert_double_eq(edges[k], k * 0.25);
	ck_assert_uint_eq(c[0], 1);
	ck_assert_uint_eq(c[1], 1);
	ck_assert_uint_eq(c[2], 1);
	ck_assert_uint_eq(c[3], 2);
}
END_TEST

/* Counts agree with a direct count against the reported edges, for values
 * arriving in an order that makes the fine bins grow both ways. */
START_TEST(test_hist_exact_for_edges)
{
	enum { N = 5000, B = 7 };
	static float v[N];
	double edges[B + 1];
	uint64_t c[B], want[B] = { 0 }, total = 0;
	uint32_t x = 12345;

	for (int i = 0; i < N; i++) {
		x = x * 1664525u + 1013904223u;
		v[i] = (float)((x >> 8) / 16777216.0 * 300.0 - 100.0 +
		    (i < 10 ? 0 : i * 0.01));
	}
	for (int i = 0; i < N; i += 100)
		tp_stats_add(&s, v + i, 100);
	ck_assert_int_eq(tp_stats_hist(&s, B, edges, c), B);
	for (int i = 0; i < N; i++) {
		int k = 0;

		while (k < B - 1 && edges[k + 1] <= v[i])
			k++;
		want[k]++;
	}
	for (int k = 0; k < B; k++) {
		ck_assert_uint_eq(c[k], want[k]);
		ck_assert(edges[k] <= edges[k + 1]);
		/* snapped within one fine bin of the even edge */
		ck_assert(fabs(edges[k] - (s.min + k * (s.max - s.min) / B)) <=
		    s.w);
		total += c[k];
	}
	ck_assert_uint_eq(total, N);
	ck_assert(s.w <= 2 * (s.max - s.min) / (TP_STATS_FINE - 1));
}
END_TEST

/* A slope read row by row, each row reaching a little lower and higher
 * than the last (the range grows a thousand times): the fine bins stay as
 * narrow as the final range allows, and the edges near the even ones. */
START_TEST(test_growing_range)
{
	static float row[100];
	double edges[11];
	uint64_t c[10];

	for (int y = 0; y < 1000; y++) {
		for (int x = 0; x < 100; x++)
			row[x] = (float)(1000 - y + x * (2.0 * y / 99));
		tp_stats_add(&s, row, 100);
	}
	ck_assert_double_eq(s.min, 1);
	ck_assert_double_eq(s.max, 1999);
	ck_assert(s.w <= 2 * (s.max - s.min) / (TP_STATS_FINE - 1));
	ck_assert_int_eq(tp_stats_hist(&s, 10, edges, c), 10);
	for (int k = 0; k <= 10; k++)	/* min + k * 199.8, within w / 2 */
		ck_assert_double_eq_tol(edges[k], 1 + k * 199.8, s.w / 2);
}
END_TEST

/* Mean and deviation of a large, offset band: 2^22 cells of 1000 + i%2
 * (mean 1000.5, stddev 0.5) with no drift. */
START_TEST(test_large_offset)
{
	enum { W = 4096 };
	static float row[W];

	for (int i = 0; i < W; i++)
		row[i] = 1000.0f + (float)(i % 2);
	for (int r = 0; r < 1024; r++)
		tp_stats_add(&s, row, W);
	ck_assert_uint_eq(s.n, (uint64_t)W * 1024);
	ck_assert_double_eq_tol(s.mean, 1000.5, 1e-12);
	ck_assert_double_eq_tol(tp_stats_stddev(&s), 0.5, 1e-12);
}
END_TEST

/* A band of one value: stddev exactly 0, one histogram bin. */
START_TEST(test_one_value)
{
	float v[] = { 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f, 0.1f };
	double edges[11];
	uint64_t c[10];

	tp_stats_add(&s, v, 3);
	tp_stats_add(&s, v, 7);
	ck_assert_uint_eq(s.n, 10);
	ck_assert_double_eq(s.mean, (double)0.1f);
	ck_assert_double_eq(tp_stats_stddev(&s), 0);
	ck_assert_int_eq(tp_stats_hist(&s, 10, edges, c), 1);
	ck_assert_double_eq(edges[0], (double)0.1f);
	ck_assert_double_eq(edges[1], (double)0.1f);
	ck_assert_uint_eq(c[0], 10);
}
END_TEST

/* Two floats one spacing apart: every distinct value keeps its own bin. */
START_TEST(test_neighbour_floats)
{
	float a = 1000.0f, b = nextafterf(1000.0f, 2000.0f);
	float v[] = { a, b, b };
	double edges[3];
	uint64_t c[2];

	tp_stats_add(&s, v, 3);
	ck_assert_int_eq(tp_stats_hist(&s, 2, edges, c), 2);
	ck_assert_uint_eq(c[0] + c[1], 3);
	ck_assert_uint_eq(c[1], 2);
}
END_TEST

/* No valid cells: figures NaN, no histogram. */
START_TEST(test_all_nan)
{
	float v[] = { NAN, NAN, NAN };
	double edges[11];
	uint64_t c[10];

	tp_stats_add(&s, v, 3);
	ck_assert_uint_eq(s.n, 0);
	ck_assert_uint_eq(s.nodata, 3);
	ck_assert(isnan(s.min) && isnan(s.max) && isnan(s.mean));
	ck_assert(isnan(tp_stats_stddev(&s)));
	ck_assert_int_eq(tp_stats_hist(&s, 10, edges, c), 0);
}
END_TEST

START_TEST(test_empty_and_bad_bins)
{
	float v[] = { 1, 2 };
	double edges[2];
	uint64_t c[1];

	ck_assert_int_eq(tp_stats_hist(&s, 1, edges, c), 0);
	tp_stats_add(&s, v, 0);
	ck_assert_uint_eq(s.n, 0);
	tp_stats_add(&s, v, 2);
	ck_assert_int_eq(tp_stats_hist(&s, 0, edges, c), 0);
	ck_assert_int_eq(tp_stats_hist(&s, TP_STATS_MAXBINS + 1, edges, c), 0);
	ck_assert_int_eq(tp_stats_hist(&s, 1, edges, c), 1);
	ck_assert_uint_eq(c[0], 2);
}
END_TEST

static Suite *
stats_suite(void)
{
	Suite *su = suite_create("stats");
	TCase *core = tcase_create("core");
	TCase *limits = tcase_create("limits");
	TCase *errors = tcase_create("errors");

	tcase_add_checked_fixture(core, setup, teardown);
	tcase_add_checked_fixture(limits, setup, teardown);
	tcase_add_checked_fixture(errors, setup, teardown);
	tcase_add_test(core, test_one_to_ten);
	tcase_add_test(core, test_pieces_merge);
	tcase_add_test(core, test_nan_counting);
	tcase_add_test(core, test_hist_edges);
	tcase_add_test(core, test_hist_unit_range);
	tcase_add_test(core, test_hist_exact_for_edges);
	tcase_add_test(limits, test_growing_range);
	tcase_add_test(limits, test_large_offset);
	tcase_add_test(limits, test_one_value);
	tcase_add_test(limits, test_neighbour_floats);
	tcase_add_test(limits, test_all_nan);
	tcase_add_test(errors, test_empty_and_bad_bins);
	suite_add_tcase(su, core);
	suite_add_tcase(su, limits);
	suite_add_tcase(su, errors);
	return su;
}

int
main(void)
{
	return tp_test_run(stats_suite());
}
