/* check_spower.c - unit tests of tp_spower: the node solve, the analytic
 * steady state of a river, slope-area on a steady landscape, diffusion by
 * hand, base level, thread independence, errors. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "erode/tp_spower.h"
#include "tp_test.h"

static const tp_geo_grid G100 = { 100, 0, 0 };	/* 100 m cells */

/* The node solve, by hand: n = 1 in closed form; n = 2, h + (h - 0)^2 =
 * 10 gives h = (sqrt(41) - 1) / 2; n = 0.5, h + sqrt(h) = 6 gives 4; a cell
 * not above its receiver keeps h*. */
START_TEST(test_solve)
{
	ck_assert_double_eq_tol(tp_spower_solve(10, 4, 2, 1), 6, 1e-12);
	ck_assert_double_eq_tol(tp_spower_solve(10, 0, 1, 2),
	    (sqrt(41) - 1) / 2, 1e-10);
	ck_assert_double_eq_tol(tp_spower_solve(6, 0, 1, 0.5), 4, 1e-10);
	ck_assert_double_eq_tol(tp_spower_solve(6, 0, 1e6, 0.5), 3.6e-11,
	    1e-12);
	ck_assert_double_eq(tp_spower_solve(3, 5, 1, 2), 3);
	ck_assert_double_eq(tp_spower_solve(5, 5, 1, 1), 5);
}
END_TEST

/* The solve over several receivers (MFD), by hand: n = 1 with both
 * receivers below the root, (10 + 0 + 4) / 3; with the higher above it,
 * only the lower counts, 10 / 2 = 5; n = 2 with two halves of F on one
 * height is the single solve; one receiver is tp_spower_solve; a cell not
 * above its lowest receiver keeps h*. */
START_TEST(test_solve_multi)
{
	const double h04[] = { 0, 4 }, h08[] = { 8, 0 }, h00[] = { 0, 0 };
	const double f11[] = { 1, 1 }, fh[] = { 0.5, 0.5 };

	ck_assert_double_eq_tol(tp_spower_solve_multi(10, h04, f11, 2, 1),
	    14.0 / 3, 1e-12);
	ck_assert_double_eq_tol(tp_spower_solve_multi(10, h08, f11, 2, 1), 5,
	    1e-12);
	ck_assert_double_eq_tol(tp_spower_solve_multi(10, h00, fh, 2, 2),
	    (sqrt(41) - 1) / 2, 1e-10);
	ck_assert_double_eq_tol(tp_spower_solve_multi(10, h08, f11, 2, 2),
	    tp_spower_solve(10, 0, 1, 2), 1e-10);
	ck_assert_double_eq(tp_spower_solve_multi(10, h04, f11, 1, 2),
	    tp_spower_solve(10, 0, 1, 2));
	ck_assert_double_eq(tp_spower_solve_multi(-1, h04, f11, 2, 1), -1);
}
END_TEST

/* Run s until no cell changes by more than tol metres; the steps run. */
static int
settle(tp_spower *s, double tol, int max)
{
	tp_spower_stats st;
	tp_err e;
	int i;

	for (i = 1; i <= max; i++) {
		ck_assert_int_eq(tp_spower_step(s, &st, &e), 0);
		if (st.max_change <= tol)
			return i;
	}
	ck_abort_msg("not steady after %d steps (%g m)", max, st.max_change);
	return max;
}

/* A river down the middle column of a 3 x H strip: walls (columns 0 and 2,
 * row 0) fixed high, the outlet the middle cell of the last row, at 0. At
 * steady state with uniform U the slope below the cell of row y, which
 * drains y cells of 100 m x 100 m, is S = (U / (K A^m))^(1/n). */
static void
strip(double n)
{
	enum { H = 40 };
	float z[3 * H];
	tp_spower_opts o;
	tp_spower *s;
	const double *a;
	tp_err e;
	double worst = 0;
	int y;

	for (y = 0; y < 3 * H; y++)
		z[y] = 1e6f;
	for (y = 1; y < H; y++)
		z[y * 3 + 1] = 0;
	tp_spower_defaults(&o);
	o.k = 1e-5;
	o.n = n;
	o.diffusion = 0;
	o.dt = 1e5;
	o.threads = 1;
	ck_assert_ptr_nonnull(s = tp_spower_new(z, 3, H, 3, &G100, &o, &e));
	settle(s, 1e-9, 100000);
	tp_spower_heights(s, z, 3);
	a = tp_spower_area(s);
	for (y = 1; y < H - 1; y++) {
		double area = y * 1e4, slope = (z[y * 3 + 1] -
		    z[(y + 1) * 3 + 1]) / 100.0;
		double want = pow(o.uplift / (o.k * pow(area, o.m)), 1 / n);

		ck_assert_double_eq_tol(a[y * 3 + 1], area, 1e-6);
		if (fabs(slope / want - 1) > worst)
			worst = fabs(slope / want - 1);
	}
	/* float32 heights of up to a few km: well inside 1% */
	ck_assert_msg(worst < 0.01, "n %g: slope off by %g", n, worst);
	ck_assert_float_eq(z[(H - 1) * 3 + 1], 0);
	ck_assert_float_eq(z[0], 1e6f);
	tp_spower_free(s);
}

START_TEST(test_strip_n1)
{
	strip(1);
}
END_TEST

START_TEST(test_strip_n2)
{
	strip(2);
}
END_TEST

/* The steepest D8 slope below cell (x, y) of a w-wide plane, 0 if none. */
static double
steepest(const float *z, int w, int x, int y, double dx)
{
	double best = 0;
	int i, j;

	for (j = -1; j <= 1; j++)
		for (i = -1; i <= 1; i++) {
			double d = (i && j) ? dx * sqrt(2) : dx, s;

			if (!i && !j)
				continue;
			s = (z[y * w + x] - z[(y + j) * w + x + i]) / d;
			if (s > best)
				best = s;
		}
	return best;
}

/* Slope-area on a steady 65 x 65 fractal landscape (m/n = 0.45, no
 * diffusion): a least-squares line of log S on log A over every cell
 * draining 10 cells or more has slope -m/n within 0.05 and meets A = 1 m^2
 * at the steepness (U/K)^(1/n) within 5%. */
START_TEST(test_slope_area)
{
	enum { N = 65 };
	static float z[N * N];
	uint64_t seed = 42;
	double sx = 0, sy = 0, sxx = 0, sxy = 0, cnt = 0, b, c;
	tp_spower_opts o;
	const double *a;
	tp_spower *s;
	tp_err e;
	int x, y;

	tp_test_fractal(z, N, &seed, 0.6f);
	for (x = 0; x < N * N; x++)
		z[x] = z[x] * 50 + 100;	/* some hundred metres */
	tp_spower_defaults(&o);
	o.k = 1e-5;
	o.diffusion = 0;
	o.dt = 2e4;
	o.threads = 2;
	o.flow = TP_SPOWER_D8;	/* the law holds along one receiver */
	ck_assert_ptr_nonnull(s = tp_spower_new(z, N, N, N, &G100, &o, &e));
	settle(s, 1e-7, 200000);
	tp_spower_heights(s, z, N);
	a = tp_spower_area(s);
	for (y = 1; y < N - 1; y++)
		for (x = 1; x < N - 1; x++) {
			double lx = log(a[y * N + x]), ly;

			if (a[y * N + x] < 10 * 1e4)
				continue;
			ly = log(steepest(z, N, x, y, 100));
			sx += lx;
			sy += ly;
			sxx += lx * lx;
			sxy += lx * ly;
			cnt++;
		}
	ck_assert(cnt > 50);
	b = (cnt * sxy - sx * sy) / (cnt * sxx - sx * sx);
	c = exp((sy - b * sx) / cnt);
	ck_assert_double_eq_tol(b, -0.45, 0.05);
	ck_assert_double_eq_tol(c / (o.uplift / o.k), 1, 0.05);
	tp_spower_free(s);
}
END_TEST

/* Diffusion alone, by hand: one free cell (height 1) inside a 3 x 3 ring
 * at 0, D dt / dx^2 = 1: the row solve gives 1 / 3, the column solve
 * 1 / 9. With K negligible and no uplift nothing else moves it. */
START_TEST(test_diffusion)
{
	float z[9] = { 0, 0, 0, 0, 1, 0, 0, 0, 0 };
	tp_spower_opts o;
	tp_spower *s;
	tp_err e;

	tp_spower_defaults(&o);
	o.k = 1e-30;
	o.uplift = 0;
	o.diffusion = 10;
	o.dt = 1000;		/* 10 * 1000 / 100^2 = 1 */
	ck_assert_ptr_nonnull(s = tp_spower_new(z, 3, 3, 3, &G100, &o, &e));
	ck_assert_int_eq(tp_spower_step(s, NULL, &e), 0);
	tp_spower_heights(s, z, 3);
	ck_assert_float_eq_tol(z[4], 1.0f / 9, 1e-6f);
	ck_assert_float_eq(z[0] + z[1] + z[3] + z[8], 0);
	tp_spower_free(s);
}
END_TEST

/* Base level: nodata stays NaN, the cells around it and the sea (below
 * 0.5) keep their bytes; land beside the sea is never cut below the
 * level; a --zscale of 1000 with U and K scaled to match gives the same
 * landscape in kilometres. */
START_TEST(test_base_level)
{
	enum { W = 9, H = 7 };
	float z[W * H], ref[W * H], k1[W * H];
	tp_spower_opts o;
	tp_spower *s;
	tp_err e;
	int i, x, y;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			z[y * W + x] = (float)(x < 3 ? 0.25 : 5 + x + y);
	z[3 * W + 6] = NAN;
	memcpy(ref, z, sizeof z);
	tp_spower_defaults(&o);
	o.sea_level = 0.5;
	o.threads = 1;
	ck_assert_ptr_nonnull(s = tp_spower_new(z, W, H, W, &G100, &o, &e));
	for (i = 0; i < 200; i++)
		ck_assert_int_eq(tp_spower_step(s, NULL, &e), 0);
	tp_spower_heights(s, z, W);
	tp_spower_free(s);
	ck_assert(isnan(z[3 * W + 6]));
	ck_assert_float_eq(z[2 * W + 5], ref[2 * W + 5]);	/* by the NaN */
	ck_assert_float_eq(z[4 * W + 7], ref[4 * W + 7]);
	for (y = 0; y < H; y++) {
		ck_assert_float_eq(z[y * W + 1], 0.25f);	/* the sea */
		ck_assert(z[y * W + 3] >= 0.5f);		/* the coast */
	}
	ck_assert(z[3 * W + 4] != ref[3 * W + 4]);	/* it moved */

	/* the same model in kilometres: U / 1000, K x 1000^(1-n) = K */
	for (i = 0; i < W * H; i++)
		k1[i] = ref[i] / 1000;
	o.zscale = 1000;
	o.sea_level = 0.0005;
	ck_assert_ptr_nonnull(s = tp_spower_new(k1, W, H, W, &G100, &o, &e));
	for (i = 0; i < 200; i++)
		ck_assert_int_eq(tp_spower_step(s, NULL, &e), 0);
	tp_spower_heights(s, k1, W);
	tp_spower_free(s);
	for (i = 0; i < W * H; i++)
		if (!isnan(z[i]))
			ck_assert_float_eq_tol(k1[i] * 1000, z[i],
			    1e-3f * (1 + fabsf(z[i])));
}
END_TEST

/* The same bytes on 1, 2 and 5 threads, diffusion and n != 1 included. */
START_TEST(test_threads)
{
	enum { N = 129 };
	static float z0[N * N], z[3][N * N];
	static const int th[3] = { 1, 2, 5 };
	uint64_t seed = 7;
	tp_spower_opts o;
	tp_spower *s;
	tp_err e;
	int t, i;

	tp_test_fractal(z0, N, &seed, 0.55f);
	tp_spower_defaults(&o);
	o.n = 1.5;
	o.diffusion = 50;
	o.zscale = 300;
	for (t = 0; t < 3; t++) {
		memcpy(z[t], z0, sizeof z0);
		o.threads = th[t];
		ck_assert_ptr_nonnull(s = tp_spower_new(z[t], N, N - 3, N,
		    &G100, &o, &e));
		for (i = 0; i < 20; i++)
			ck_assert_int_eq(tp_spower_step(s, NULL, &e), 0);
		tp_spower_heights(s, z[t], N);
		tp_spower_free(s);
	}
	ck_assert_mem_eq(z[0], z[1], sizeof z0);
	ck_assert_mem_eq(z[0], z[2], sizeof z0);
	ck_assert(memcmp(z[0], z0, sizeof z0) != 0);
}
END_TEST

START_TEST(test_errors)
{
	float z[4] = { 0, 0, 0, 0 };
	tp_spower_opts o;
	tp_err e;

	tp_spower_defaults(&o);
	o.n = 5;
	ck_assert_ptr_null(tp_spower_new(z, 2, 2, 2, &G100, &o, &e));
	ck_assert_str_eq(e.msg, "n must be in 0.5..4");
	tp_spower_defaults(&o);
	o.dt = 0;
	ck_assert_ptr_null(tp_spower_new(z, 2, 2, 2, &G100, &o, &e));
	ck_assert_str_eq(e.msg, "dt must be positive and finite");
	tp_spower_defaults(&o);
	ck_assert_ptr_null(tp_spower_new(z, 65536, 32768, 2, &G100, &o, &e));
	ck_assert_str_eq(e.msg, "the model takes grids of fewer than 2^31 "
	    "cells, not 65536x32768");
}
END_TEST

static Suite *
spower_suite(void)
{
	Suite *s = suite_create("spower");
	TCase *core = tcase_create("core"), *err = tcase_create("errors");

	tcase_add_test(core, test_solve);
	tcase_add_test(core, test_solve_multi);
	tcase_add_test(core, test_strip_n1);
	tcase_add_test(core, test_strip_n2);
	tcase_add_test(core, test_slope_area);
	tcase_add_test(core, test_diffusion);
	tcase_add_test(core, test_base_level);
	tcase_add_test(core, test_threads);
	tcase_set_timeout(core, 120);
	tcase_add_test(err, test_errors);
	suite_add_tcase(s, core);
	suite_add_tcase(s, err);
	return s;
}

int
main(void)
{
	return tp_test_run(spower_suite());
}
