/* check_terrace.c - unit tests of terraces with sloped risers. */
#include <check.h>
#include <math.h>

#include "gen/tp_terrace.h"
#include "tp_test.h"
#include "tp_test_simd.h"

static tp_terrace
make(int steps, double riser, int naive)
{
	tp_terrace t;
	tp_err e;

	ck_assert_int_eq(tp_terrace_init(&t, steps, riser, naive, &e), 0);
	return t;
}

START_TEST(test_seed_value)
{
	/* seed 000: 4 steps, riser 0.4: 0.375 gives 0.375 */
	tp_terrace t = make(4, 0.4, 0);

	ck_assert_double_eq_tol(tp_terrace_eval(&t, 0.375), 0.375, 1e-15);
	/* the middle of every riser is the identity */
	for (int k = 0; k < 4; k++)
		ck_assert_double_eq_tol(tp_terrace_eval(&t, (k + 0.5) / 4),
		    (k + 0.5) / 4, 1e-15);
	/* on the tread: t = 1.2, f = 0.2 < 0.3 -> level 1 -> 0.25 */
	ck_assert_double_eq_tol(tp_terrace_eval(&t, 0.3), 0.25, 1e-15);
	/* on the riser: f = 0.6, x = 0.75, smoothstep 0.84375 ->
	 * (1 + 0.84375) / 4 = 0.4609375 */
	ck_assert_double_eq_tol(tp_terrace_eval(&t, 0.4), 0.4609375, 1e-15);
}
END_TEST

START_TEST(test_riser_zero_is_hard)
{
	tp_terrace t = make(5, 0.0, 0), n = make(5, 0.35, 1);
	float in[4001], a[4001], b[4001];

	for (int i = 0; i <= 4000; i++)
		in[i] = (float)(i / 4000.0);
	tp_terrace_row(&t, in, a, 4001);
	tp_terrace_row(&n, in, b, 4001);
	for (int i = 0; i <= 4000; i++) {
		ck_assert_float_eq(a[i], b[i]);
		ck_assert_float_eq(a[i], (float)(floor(in[i] * 5.0 + 0.5) / 5.0));
	}
}
END_TEST

START_TEST(test_monotone)
{
	static const double risers[] = { 0.0, 0.1, 0.35, 0.4, 1.0 };
	tp_terrace t = make(1 + _i % 13, risers[_i % 5], 0);
	float in[20001], out[20001];

	for (int i = 0; i <= 20000; i++)
		in[i] = (float)(i / 20000.0);
	tp_terrace_row(&t, in, out, 20001);
	for (int i = 1; i <= 20000; i++)
		ck_assert(out[i] >= out[i - 1]);
}
END_TEST

/* The row function at every SIMD level (scalar, SSE2, AVX2 where the
 * processor has them) gives the bytes of the scalar reference, also for
 * huge values, NaN, -0 and odd lengths, in place too. */
START_TEST(test_row_is_eval)
{
	static const double risers[] = { 0.0, 0.35, 1.0 };
	tp_terrace t = make(1 + 3 * _i, risers[_i % 3], _i == 4);
	float in[1003], out[1003];
	unsigned s = 7;

	for (int i = 0; i < 1003; i++) {
		s = s * 1664525u + 1013904223u;
		in[i] = (float)((s >> 8) / 16777216.0 * 5.0 - 2.0);
		if (i % 17 == 3)	/* exact step edges and riser ends */
			in[i] = (float)((int)(s >> 24) / 8.0 - 8.0);
	}
	in[5] = NAN;
	in[6] = 3e9f;
	in[7] = -1e30f;
	in[8] = -0.0f;
	in[9] = 0.0f;
	in[10] = -INFINITY;
	in[1001] = INFINITY;
	for (int simd = 0, top = t.simd; simd <= top; simd++) {
		for (int i = 0; i < 1003; i++)
			out[i] = in[i];
		t.simd = simd;
		tp_terrace_row(&t, out, out, 1003 - simd);
		for (int i = 0; i < 1003 - simd; i++) {
			float want = (float)tp_terrace_eval(&t, in[i]);

			if (isnan(want))
				ck_assert(isnan(out[i]));
			else
				ck_assert_mem_eq(&out[i], &want, sizeof(want));
		}
	}
}
END_TEST

START_TEST(test_fixed_points)
{
	for (int s = 1; s <= 40; s++)
		for (double r = 0.0; r <= 1.0; r += 0.25) {
			tp_terrace t = make(s, r, 0);

			ck_assert_double_eq(tp_terrace_eval(&t, 0.0), 0.0);
			ck_assert_double_eq((float)tp_terrace_eval(&t, 1.0), 1.0);
		}
}
END_TEST

START_TEST(test_limits)
{
	tp_terrace t = make(4, 0.0, 0), one = make(1, 1.0, 0);

	ck_assert(isnan(tp_terrace_eval(&t, NAN)));
	/* outside [0, 1] the stairs go on: 2 stays 2, -0.4/4 rounds to 0 */
	ck_assert_double_eq(tp_terrace_eval(&t, 2.0), 2.0);
	ck_assert_double_eq(tp_terrace_eval(&t, -0.1), 0.0);
	ck_assert_double_eq(tp_terrace_eval(&t, -0.2), -0.25);
	/* one step with riser 1 is smoothstep(0, 1, h): 0.25 -> 0.15625 */
	ck_assert_double_eq_tol(tp_terrace_eval(&one, 0.25), 0.15625, 1e-15);
}
END_TEST

START_TEST(test_errors)
{
	tp_terrace t;
	tp_err e;

	ck_assert_int_eq(tp_terrace_init(&t, 0, 0.3, 0, &e), -1);
	ck_assert_int_eq(tp_terrace_init(&t, TP_TERRACE_MAX_STEPS + 1, 0.3, 0,
	    &e), -1);
	ck_assert_int_eq(tp_terrace_init(&t, 4, -0.1, 0, &e), -1);
	ck_assert_int_eq(tp_terrace_init(&t, 4, 1.1, 0, &e), -1);
	ck_assert_int_eq(tp_terrace_init(&t, 4, NAN, 0, &e), -1);
	ck_assert_int_eq(tp_terrace_init(&t, TP_TERRACE_MAX_STEPS, 1.0, 0, &e),
	    0);
}
END_TEST

/* tterrace's row (in place) at vector level l. */
static void
run_terrace(void *ctx, tp_simd_level l, float *out, size_t n)
{
	tp_terrace *te = ctx;

	tp_test_simd_heights(out, n, 11);
	te->simd = l;
	tp_terrace_row(te, out, out, n);
}

/* The same bytes at every vector level: sloped risers, riser 0 and
 * naive, few and many steps. */
START_TEST(test_simd_levels)
{
	static const int steps[] = { 1, 8, 1000 };
	static const double risers[] = { 0.35, 0.0, 1.0 };
	tp_terrace te;
	tp_err e;

	ck_assert_int_eq(tp_terrace_init(&te, steps[_i % 3],
	    risers[_i / 3 % 3], _i / 9, &e), 0);
	tp_test_same_at_levels(run_terrace, &te, TP_TEST_SIMD_N, "terrace",
	    _i);
}
END_TEST

static Suite *
terrace_suite(void)
{
	Suite *s = suite_create("terrace");
	TCase *core = tcase_create("core"), *lim = tcase_create("limits"),
	    *err = tcase_create("errors");
	TCase *simd = tcase_create("simd");

	tcase_add_test(core, test_seed_value);
	tcase_add_test(core, test_riser_zero_is_hard);
	tcase_add_loop_test(core, test_monotone, 0, 30);
	tcase_add_loop_test(lim, test_row_is_eval, 0, 12);
	tcase_add_test(lim, test_fixed_points);
	tcase_add_test(lim, test_limits);
	tcase_add_test(err, test_errors);
	tcase_set_timeout(simd, 60);
	tcase_add_loop_test(simd, test_simd_levels, 0, 18);
	suite_add_tcase(s, core);
	suite_add_tcase(s, lim);
	suite_add_tcase(s, err);
	suite_add_tcase(s, simd);
	return s;
}

int
main(void)
{
	return tp_test_run(terrace_suite());
}
