/* check_shape.c - unit tests of the height curve (tshape's library). */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "gen/tp_shape.h"
#include "tp_test.h"
#include "tp_test_simd.h"

/* A small deterministic generator for the random cases. */
static double
rnd(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return (double)(*s >> 8) / 16777216.0;
}

static double
at(const double *y, int n, double x)
{
	tp_shape_curve c;
	tp_err e;

	ck_assert_int_eq(tp_shape_curve_knots(&c, y, n, &e), 0);
	return tp_shape_curve_eval(&c, x);
}

START_TEST(test_seed_s_curve)
{
	/* seed 000: knots 0,0,0,1,1 make an S between the 3rd and 4th knot
	 * whose middle (x = 0.625) is exactly 0.5 */
	const double y[] = { 0, 0, 0, 1, 1 };

	ck_assert_double_eq(at(y, 5, 0.625), 0.5);
	ck_assert_double_eq(at(y, 5, 0.5), 0.0);
	ck_assert_double_eq(at(y, 5, 0.75), 1.0);
	ck_assert_double_eq(at(y, 5, 0.3), 0.0);
	ck_assert_double_eq(at(y, 5, 0.9), 1.0);
	/* u = 0.25 in that interval: 3u^2 - 2u^3 = 0.15625 */
	ck_assert_double_eq_tol(at(y, 5, 0.5625), 0.15625, 1e-15);
}
END_TEST

START_TEST(test_fritsch_carlson_slopes)
{
	/* knots 0, 0.25, 1 at x 0, .5, 1: secants 0.5 and 1.5, inner slope
	 * 2*0.5*1.5/2 = 0.75, end slopes 0.5 and 1.5. At x = 0.25 (u = 0.5,
	 * h = 0.5): 0.125*0.25 + 0.5*0.25 - 0.125*0.375 = 0.109375 */
	const double y[] = { 0, 0.25, 1 };
	const double px[] = { 0, 0.5, 1 };
	tp_shape_curve c;
	tp_err e;

	ck_assert_int_eq(tp_shape_curve_knots(&c, y, 3, &e), 0);
	ck_assert_double_eq_tol(c.m[1], 0.75, 1e-15);
	ck_assert_double_eq_tol(c.m[0], 0.5, 1e-15);
	ck_assert_double_eq_tol(c.m[2], 1.5, 1e-15);
	ck_assert_double_eq_tol(tp_shape_curve_eval(&c, 0.25), 0.109375, 1e-15);
	/* the same knots as points: the weighted mean is the plain one */
	ck_assert_int_eq(tp_shape_curve_points(&c, px, y, 3, &e), 0);
	ck_assert_double_eq_tol(c.m[1], 0.75, 1e-15);
	ck_assert_double_eq_tol(tp_shape_curve_eval(&c, 0.25), 0.109375, 1e-15);
}
END_TEST

START_TEST(test_uneven_points)
{
	/* 0:0, 0.25:0.5, 1:1: secants 2 and 2/3, weights 1.75 and 1.25,
	 * inner slope 3 / (1.75/2 + 1.25*1.5) = 12/11 */
	const double x[] = { 0, 0.25, 1 }, y[] = { 0, 0.5, 1 };
	tp_shape_curve c;
	tp_err e;

	ck_assert_int_eq(tp_shape_curve_points(&c, x, y, 3, &e), 0);
	ck_assert_double_eq_tol(c.m[1], 12.0 / 11.0, 1e-15);
	ck_assert_double_eq_tol(tp_shape_curve_eval(&c, 0.25), 0.5, 1e-15);
	ck_assert_double_eq_tol(tp_shape_curve_eval(&c, 0.0), 0.0, 1e-15);
	ck_assert_double_eq_tol(tp_shape_curve_eval(&c, 1.0), 1.0, 1e-15);
}
END_TEST

START_TEST(test_linear_identity)
{
	tp_shape_curve c;
	tp_shape s;
	tp_err e;
	float in[10001], out[10001];

	ck_assert_int_eq(tp_shape_curve_preset_init(&c, TP_CURVE_LINEAR, &e),
	    0);
	tp_shape_init(&s, &c);
	for (int i = 0; i <= 10000; i++)
		in[i] = (float)(i / 10000.0);
	tp_shape_row(&s, in, out, 10001);
	for (int i = 0; i <= 10000; i++)
		ck_assert_float_eq_tol(out[i], in[i], 2e-7);
}
END_TEST

START_TEST(test_presets)
{
	tp_shape_curve c;
	tp_err e;

	ck_assert_int_eq(tp_shape_curve_preset_init(&c, TP_CURVE_VALLEYS, &e),
	    0);
	ck_assert_double_eq_tol(tp_shape_curve_eval(&c, 0.25), 0.0625, 1e-15);
	ck_assert_double_eq_tol(tp_shape_curve_eval(&c, 0.5), 0.25, 1e-15);
	ck_assert_double_eq_tol(tp_shape_curve_eval(&c, 0.75), 0.5625, 1e-15);
	ck_assert_double_eq_tol(tp_shape_curve_eval(&c, 1.0), 1.0, 1e-15);
	ck_assert_int_eq(tp_shape_curve_preset_init(&c, TP_CURVE_SCURVE, &e),
	    0);
	ck_assert_double_eq_tol(tp_shape_curve_eval(&c, 0.5), 0.5, 1e-15);
	ck_assert_int_eq(tp_shape_curve_preset_init(&c, TP_CURVE_PLATEAUS, &e),
	    0);
	ck_assert_double_eq_tol(tp_shape_curve_eval(&c, 0.25), 0.4, 1e-15);
	ck_assert_int_eq(tp_shape_curve_preset_init(&c, TP_CURVE_PEAKS, &e), 0);
	ck_assert_double_eq_tol(tp_shape_curve_eval(&c, 0.5), 0.125, 1e-15);
}
END_TEST

START_TEST(test_pow_and_stretch)
{
	tp_shape_curve c;
	tp_shape s;
	tp_err e;
	float in[3] = { 0.5f, 1.0f, 3.0f }, out[3];

	ck_assert_int_eq(tp_shape_curve_preset_init(&c, TP_CURVE_LINEAR, &e),
	    0);
	tp_shape_init(&s, &c);
	s.k = 2.0;			/* Red Blob's pow(e, 2) */
	tp_shape_row(&s, in, out, 1);
	ck_assert_float_eq(out[0], 0.25f);
	s.k = 1.0;
	ck_assert_int_eq(tp_shape_stretch(&s, -1.0, 3.0, &e), 0);
	tp_shape_row(&s, in, out, 3);	/* (h + 1) / 4 */
	ck_assert_float_eq(out[0], 0.375f);
	ck_assert_float_eq(out[1], 0.5f);
	ck_assert_float_eq(out[2], 1.0f);
}
END_TEST

/* Random rising knots, evenly spaced or not: the curve never falls. */
START_TEST(test_random_monotone)
{
	uint32_t seed = 12345u + (uint32_t)_i;
	double x[TP_CURVE_MAX], y[TP_CURVE_MAX], prev = -1.0;
	int n = 2 + (int)(rnd(&seed) * (TP_CURVE_MAX - 1));
	tp_shape_curve c;
	tp_err e;

	for (int i = 0; i < n; i++)
		y[i] = rnd(&seed);
	for (int i = 1; i < n; i++)	/* sort ascending */
		for (int k = i; k > 0 && y[k] < y[k - 1]; k--) {
			double t = y[k]; y[k] = y[k - 1]; y[k - 1] = t;
		}
	for (int i = 0; i < n; i++)
		x[i] = (i + 0.3 * rnd(&seed)) / n;
	ck_assert_int_eq(_i % 2 ? tp_shape_curve_points(&c, x, y, n, &e) :
	    tp_shape_curve_knots(&c, y, n, &e), 0);
	for (int i = 0; i <= 20000; i++) {
		double v = tp_shape_curve_eval(&c, i / 20000.0);

		ck_assert(v >= prev);
		ck_assert(v >= 0.0 && v <= 1.0);
		prev = v;
	}
}
END_TEST

/* A random curve for case i: evenly spaced knots (i < 30) or points, at
 * 2 .. 16 knots, with a stretch on odd cases. */
static void
random_shape(tp_shape *s, int i, uint32_t *seed)
{
	double x[TP_CURVE_MAX], y[TP_CURVE_MAX], top;
	int n = 2 + i % (TP_CURVE_MAX - 1);
	tp_shape_curve c;
	tp_err e;

	for (int k = 0; k < n; k++)
		y[k] = rnd(seed);
	x[0] = i % 4 < 2 ? 0.0 : 0.05 * rnd(seed);
	for (int k = 1; k < n; k++)
		x[k] = x[k - 1] + 0.01 + rnd(seed);
	top = x[n - 1] / (i % 3 ? 1.0 : 0.9);	/* the last knot: 1 or 0.9 */
	for (int k = 0; k < n; k++)
		x[k] /= top;
	if (i < 30)
		ck_assert_int_eq(tp_shape_curve_knots(&c, y, n, &e), 0);
	else
		ck_assert_int_eq(tp_shape_curve_points(&c, x, y, n, &e), 0);
	tp_shape_init(s, &c);
	if (i % 2)
		ck_assert_int_eq(tp_shape_stretch(s, -0.3, 1.7, &e), 0);
}

/* The row function at every SIMD level (scalar, SSE2, AVX2 where the
 * processor has them) gives the bytes of the point function, for random
 * knots, a stretch, odd lengths, in place, and odd values. */
START_TEST(test_row_is_eval)
{
	uint32_t seed = 99u + (uint32_t)_i;
	float in[1001], out[1001];
	tp_shape s;

	random_shape(&s, _i, &seed);
	for (int i = 0; i < 1001; i++)
		in[i] = (float)(rnd(&seed) * 3.0 - 1.0);
	for (int i = 20; i < 1001; i += 7)	/* on the knots */
		in[i] = (float)(s.curve.x[i % s.curve.n] / s.scale + s.lo);
	in[3] = NAN;
	in[4] = INFINITY;
	in[5] = -INFINITY;
	in[6] = 1.0f;
	in[7] = -0.0f;
	in[8] = 0.0f;
	in[9] = 1e-45f;
	for (int simd = 0, top = s.simd; simd <= top; simd++) {
		memcpy(out, in, sizeof(in));
		s.simd = simd;
		tp_shape_row(&s, out, out, 1001 - simd);
		for (int i = 0; i < 1001 - simd; i++) {
			float want = (float)tp_shape_curve_eval(&s.curve,
			    ((double)in[i] - s.lo) * s.scale);

			ck_assert_mem_eq(&out[i], &want, sizeof(want));
		}
	}
}
END_TEST

/* With a pow every SIMD level gives the bytes of the scalar path. */
START_TEST(test_row_pow_levels)
{
	uint32_t seed = 7u + (uint32_t)_i;
	float in[203], want[203], out[203];
	tp_shape s;

	random_shape(&s, _i, &seed);
	s.k = 0.5 + 2.0 * rnd(&seed);
	for (int i = 0; i < 203; i++)
		in[i] = (float)(rnd(&seed) * 1.4 - 0.2);
	s.simd = TP_SIMD_SCALAR;
	tp_shape_row(&s, in, want, 203);
	for (int simd = 1; simd <= (int)tp_simd_probe(); simd++) {
		s.simd = simd;
		tp_shape_row(&s, in, out, 203);
		ck_assert_mem_eq(out, want, sizeof(want));
	}
}
END_TEST

START_TEST(test_clamp_rule)
{
	/* below 0 -> curve(0), above 1 -> curve(1), NaN -> 0 */
	tp_shape_curve c;
	tp_shape s;
	tp_err e;
	float in[6] = { -0.5f, 1.5f, NAN, INFINITY, -INFINITY, 0.0f }, out[6];
	const double y[] = { 0.1, 0.2, 0.9 };

	ck_assert_int_eq(tp_shape_curve_knots(&c, y, 3, &e), 0);
	tp_shape_init(&s, &c);
	tp_shape_row(&s, in, out, 6);
	ck_assert_float_eq(out[0], 0.1f);
	ck_assert_float_eq(out[1], 0.9f);
	ck_assert_float_eq(out[2], 0.1f);
	ck_assert_float_eq(out[3], 0.9f);
	ck_assert_float_eq(out[4], 0.1f);
	ck_assert_float_eq(out[5], 0.1f);
}
END_TEST

START_TEST(test_knot_clamping)
{
	/* a knot may not overtake its neighbours: 0, .8, .3, 1 -> 0, .3, .3, 1
	 * and .5, .2, .6 -> .2, .2, .6 */
	const double y1[] = { 0, 0.8, 0.3, 1 }, y2[] = { 0.5, 0.2, 0.6 };
	tp_shape_curve c;
	tp_err e;

	ck_assert_int_eq(tp_shape_curve_knots(&c, y1, 4, &e), 0);
	ck_assert_double_eq(c.y[1], 0.3);
	ck_assert_double_eq(c.y[2], 0.3);
	ck_assert_double_eq(tp_shape_curve_eval(&c, 0.5), 0.3);
	ck_assert_int_eq(tp_shape_curve_knots(&c, y2, 3, &e), 0);
	ck_assert_double_eq(c.y[0], 0.2);
	ck_assert_double_eq(c.y[1], 0.2);
}
END_TEST

START_TEST(test_flat_ends)
{
	const double x[] = { 0.2, 0.8 }, y[] = { 0.1, 0.9 };
	tp_shape_curve c;
	tp_err e;

	ck_assert_int_eq(tp_shape_curve_points(&c, x, y, 2, &e), 0);
	ck_assert_double_eq(tp_shape_curve_eval(&c, 0.0), 0.1);
	ck_assert_double_eq(tp_shape_curve_eval(&c, 1.0), 0.9);
	ck_assert_double_eq_tol(tp_shape_curve_eval(&c, 0.5), 0.5, 1e-15);
}
END_TEST

START_TEST(test_errors)
{
	double y[TP_CURVE_MAX + 1] = { 0 }, x[3] = { 0, 0.5, 0.5 };
	tp_shape_curve c;
	tp_shape s;
	tp_err e;

	ck_assert_int_eq(tp_shape_curve_knots(&c, y, 1, &e), -1);
	ck_assert_int_eq(tp_shape_curve_knots(&c, y, TP_CURVE_MAX + 1, &e), -1);
	ck_assert_int_eq(tp_shape_curve_knots(&c, y, TP_CURVE_MAX, &e), 0);
	y[1] = 1.5;
	ck_assert_int_eq(tp_shape_curve_knots(&c, y, 3, &e), -1);
	y[1] = NAN;
	ck_assert_int_eq(tp_shape_curve_knots(&c, y, 3, &e), -1);
	y[1] = 0.5;
	ck_assert_int_eq(tp_shape_curve_points(&c, x, y, 3, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "increase"));
	ck_assert_int_eq(tp_shape_curve_preset_init(&c,
	    (tp_shape_curve_preset)99, &e), -1);
	ck_assert_int_eq(tp_shape_curve_preset_init(&c, TP_CURVE_LINEAR, &e),
	    0);
	tp_shape_init(&s, &c);
	ck_assert_int_eq(tp_shape_stretch(&s, 1, 1, &e), -1);
	ck_assert_int_eq(tp_shape_stretch(&s, 2, 1, &e), -1);
}
END_TEST

/* tshape's row (in place) at vector level l. */
static void
run_shape(void *ctx, tp_simd_level l, float *out, size_t n)
{
	tp_shape *sh = ctx;

	tp_test_simd_heights(out, n, 11);
	sh->simd = l;
	tp_shape_row(sh, out, out, n);
}

/* The same bytes at every vector level: presets (small lookups), 9 even
 * knots and 7 uneven ones (large and point lookups), with and without a
 * stretch and a pow. */
START_TEST(test_simd_levels)
{
	static const double y9[] = { 0, .05, .1, .3, .35, .6, .8, .95, 1 };
	static const double x7[] = { 0, .1, .15, .5, .6, .9, 1 };
	tp_shape_curve c;
	tp_shape sh;
	tp_err e;
	int kind = _i % 7;

	if (kind < 5)
		ck_assert_int_eq(tp_shape_curve_preset_init(&c,
		    (tp_shape_curve_preset)kind, &e), 0);
	else if (kind == 5)
		ck_assert_int_eq(tp_shape_curve_knots(&c, y9, 9, &e), 0);
	else
		ck_assert_int_eq(tp_shape_curve_points(&c, x7, y9, 7, &e), 0);
	tp_shape_init(&sh, &c);
	if (_i / 7 % 2)
		ck_assert_int_eq(tp_shape_stretch(&sh, -0.2, 1.3, &e), 0);
	if (_i / 14)
		sh.k = 2.5;
	tp_test_same_at_levels(run_shape, &sh, TP_TEST_SIMD_N, "shape", _i);
}
END_TEST

static Suite *
shape_suite(void)
{
	Suite *s = suite_create("shape");
	TCase *core = tcase_create("core"), *lim = tcase_create("limits"),
	    *err = tcase_create("errors");
	TCase *simd = tcase_create("simd");

	tcase_add_test(core, test_seed_s_curve);
	tcase_add_test(core, test_fritsch_carlson_slopes);
	tcase_add_test(core, test_uneven_points);
	tcase_add_test(core, test_linear_identity);
	tcase_add_test(core, test_presets);
	tcase_add_test(core, test_pow_and_stretch);
	tcase_add_loop_test(core, test_random_monotone, 0, 40);
	tcase_add_loop_test(lim, test_row_is_eval, 0, 60);
	tcase_add_loop_test(lim, test_row_pow_levels, 0, 60);
	tcase_add_test(lim, test_clamp_rule);
	tcase_add_test(lim, test_knot_clamping);
	tcase_add_test(lim, test_flat_ends);
	tcase_add_test(err, test_errors);
	tcase_set_timeout(simd, 60);
	tcase_add_loop_test(simd, test_simd_levels, 0, 28);
	suite_add_tcase(s, core);
	suite_add_tcase(s, lim);
	suite_add_tcase(s, err);
	suite_add_tcase(s, simd);
	return s;
}

int
main(void)
{
	return tp_test_run(shape_suite());
}
