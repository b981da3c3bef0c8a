/* check_ridge.c - unit tests of ridged noise under the height mask. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen/tp_ridge.h"
#include "tp_test.h"
#include "tp_test_simd.h"

static tp_ridge
ridge(int octaves)
{
	tp_ridge r;
	tp_err e;

	tp_ridge_defaults(&r);
	r.noise.octaves = octaves;
	ck_assert_int_eq(tp_ridge_init(&r, &e), 0);
	return r;
}

START_TEST(test_first_octave_left_out)
{
	tp_ridge one = ridge(1), four = ridge(4);

	ck_assert_int_eq(one.nused, 1);
	ck_assert_uint_eq(one.oct[0].seed, 0);
	ck_assert_double_eq(one.oct[0].frequency, 1.0 / 256);
	ck_assert_int_eq(four.nused, 3);
	ck_assert_uint_eq(four.oct[0].seed, TP_OCTAVE_SEED_STEP);
	ck_assert_double_eq(four.oct[0].frequency, 2.0 / 256);
	ck_assert_float_eq(four.amp[0], 0.5f);
	ck_assert_float_eq(four.amp[2], 0.125f);
	ck_assert_float_eq(four.inv_sum, 1.0f / 0.875f);
}
END_TEST

START_TEST(test_lattice_points_are_crests)
{
	/* gradient noise is 0 on every lattice point, so r = 1 in every
	 * octave there and the field is exactly 1 */
	tp_ridge r = ridge(5);

	ck_assert_double_eq(tp_ridge_field(&r, 0, 0), 1.0);
	ck_assert_double_eq(tp_ridge_field(&r, 256, -512), 1.0);
	for (int i = 0; i < 500; i++) {
		double v = tp_ridge_field(&r, i * 3.7, i * -1.3);

		ck_assert(v >= 0.0 && v <= 1.0);
	}
}
END_TEST

START_TEST(test_apply_hand_values)
{
	tp_ridge r = ridge(6);

	/* below the mask: unchanged */
	ck_assert_double_eq(tp_ridge_apply(&r, 0.3, 1.0), 0.3);
	ck_assert_double_eq(tp_ridge_apply(&r, 0.5, 0.0), 0.5);
	/* half way up the mask: w = 0.5, 0.65 + 0.5 * 0.5 * 0.3 = 0.725 */
	ck_assert_double_eq_tol(tp_ridge_apply(&r, 0.65, 1.0), 0.725, 1e-15);
	/* full mask: 0.9 - 0.5 * 0.3 = 0.75; 0.9 + 0.15 clamps to 1 */
	ck_assert_double_eq_tol(tp_ridge_apply(&r, 0.9, 0.0), 0.75, 1e-15);
	ck_assert_double_eq(tp_ridge_apply(&r, 0.9, 1.0), 1.0);
	/* naive: everywhere, 0.3 - 0.15 */
	r.naive = 1;
	ck_assert_double_eq_tol(tp_ridge_apply(&r, 0.3, 0.0), 0.15, 1e-15);
	ck_assert(isnan(tp_ridge_apply(&r, NAN, 0.7)));
}
END_TEST

/* The row function and the point function give the same bytes. */
START_TEST(test_row_is_point)
{
	tp_header h = tp_test_header(300, 4, 30, 500000, 4649776);
	tp_ridge r = ridge(4);
	float in[300], out[300];

	for (int i = 0; i < 300; i++)
		in[i] = (float)i / 299.0f;
	tp_ridge_row(&r, &h, 2, in, out);
	for (int i = 0; i < 300; i++) {
		double x = tp_noise_centre(500000, i, 30);
		double y = tp_noise_centre(4649776, -3, 30);

		ck_assert_float_eq(out[i], (float)tp_ridge_apply(&r, in[i],
		    tp_ridge_field(&r, x, y)));
	}
}
END_TEST

/* Every kind and fade, masked and naive, a row wider than one block with
 * a ragged tail, heights out of range, -0 and NaN: the row function gives
 * the point function's bytes (NaN passes through). */
START_TEST(test_row_is_point_all)
{
	enum { W = 1100 };
	tp_header h = tp_test_header(W, 3, 0.3, 12.37, -5.71);
	tp_ridge r;
	tp_err e;
	static float in[W], out[W];
	double y = tp_noise_centre(-5.71, -2, 0.3);

	tp_ridge_defaults(&r);
	r.noise.kind = (tp_noise_kind)(_i % 3);
	r.noise.fade = (tp_noise_fade)(_i / 3 % 3);
	r.noise.frequency = 1.0 / 7.0;
	r.naive = _i / 9;
	ck_assert_int_eq(tp_ridge_init(&r, &e), 0);
	for (int i = 0; i < W; i++)
		in[i] = i % 97 == 5 ? NAN : i % 89 == 3 ? -0.0f :
		    (float)(i % 151) / 100.0f - 0.2f;
	tp_ridge_row(&r, &h, 1, in, out);
	for (int i = 0; i < W; i++) {
		float pt = (float)tp_ridge_apply(&r, in[i],
		    tp_ridge_field(&r, tp_noise_centre(12.37, i, 0.3), y));

		if (isnan(in[i]))
			ck_assert_msg(memcmp(&in[i], &out[i], 4) == 0, "%d", i);
		else
			ck_assert_msg(memcmp(&pt, &out[i], 4) == 0,
			    "case %d cell %d: %.9g != %.9g", _i, i, pt, out[i]);
	}
}
END_TEST

/* Flat 0.3 stays 0.3 (the mask is 0); flat 0.9 moves up and down. */
START_TEST(test_flat_inputs)
{
	tp_header h = tp_test_header(512, 64, 8, 0, 512);
	tp_ridge r = ridge(6);
	float in[512], out[512];
	double lo = 1, hi = 0, sum = 0;

	for (int i = 0; i < 512; i++)
		in[i] = 0.3f;
	for (int row = 0; row < 64; row++) {
		tp_ridge_row(&r, &h, row, in, out);
		ck_assert_mem_eq(in, out, sizeof(in));
	}
	for (int i = 0; i < 512; i++)
		in[i] = 0.9f;
	for (int row = 0; row < 64; row++) {
		tp_ridge_row(&r, &h, row, in, out);
		for (int i = 0; i < 512; i++) {
			lo = fmin(lo, out[i]);
			hi = fmax(hi, out[i]);
			sum += out[i];
		}
	}
	ck_assert_double_lt(lo, 0.85);
	ck_assert_double_gt(hi, 0.95);
	/* centred on 0.5: the mean moves far less than the spread */
	ck_assert_double_lt(fabs(sum / (512 * 64) - 0.9), 0.05);
}
END_TEST

/* Seed 000's bug: with the first octave in the sum every peak sank. On
 * fBm terrain scaled so its maximum is 0.95, with strong ridges (amount 1),
 * the maximum stays above 0.9; the buggy sum (the same settings shifted down
 * one octave, so the terrain's first octave is included) drops below it. */
START_TEST(test_peaks_survive)
{
	static float g[256][256];
	tp_header h = tp_test_header(256, 256, 4, 0, 1024);
	tp_ridge good, bad;
	tp_noise_fbm t;
	float out[256];
	double top = 0, before = 0, after = 0, buggy = 0;

	tp_noise_fbm_defaults(&t);
	t.seed = (uint32_t)_i;
	tp_ridge_defaults(&good);
	good.noise.seed = t.seed;
	good.amount = 1.0;
	bad = good;
	bad.noise.octaves = 7;
	bad.noise.frequency = t.frequency / 2;
	bad.noise.seed = t.seed - TP_OCTAVE_SEED_STEP;
	ck_assert_int_eq(tp_ridge_init(&good, NULL), 0);
	ck_assert_int_eq(tp_ridge_init(&bad, NULL), 0);
	ck_assert_uint_eq(bad.oct[0].seed, t.seed);	/* the first octave */
	for (int y = 0; y < 256; y++) {
		tp_noise_fbm_row(&t, 0, 0, 4, tp_noise_centre(1024, -y - 1, 4),
		    g[y], 256);
		for (int i = 0; i < 256; i++)
			top = fmax(top, g[y][i]);
	}
	for (int y = 0; y < 256; y++) {
		for (int i = 0; i < 256; i++) {
			g[y][i] = (float)(0.5 + (g[y][i] - 0.5) * 0.45 / (top - 0.5));
			before = fmax(before, g[y][i]);
		}
		tp_ridge_row(&good, &h, y, g[y], out);
		for (int i = 0; i < 256; i++)
			after = fmax(after, out[i]);
		tp_ridge_row(&bad, &h, y, g[y], out);
		for (int i = 0; i < 256; i++)
			buggy = fmax(buggy, out[i]);
	}
	ck_assert_double_gt(before, 0.9);
	ck_assert_double_gt(after, 0.9);
	ck_assert_double_lt(buggy, 0.9);
}
END_TEST

START_TEST(test_limits)
{
	tp_header h = tp_test_header(4, 1, 1, 0, 1);
	tp_ridge r = ridge(3);
	float in[4] = { NAN, 1.5f, -0.25f, 0.2f }, out[4];

	tp_ridge_row(&r, &h, 0, in, out);
	ck_assert(isnan(out[0]));
	ck_assert_float_eq(out[1], 1.0f);	/* clamp01 */
	ck_assert_float_eq(out[2], 0.0f);
	ck_assert_float_eq(out[3], 0.2f);
	r.naive = 1;
	tp_ridge_row(&r, &h, 0, in, out);
	ck_assert(isnan(out[0]));
	ck_assert(out[3] != 0.2f);
}
END_TEST

/* A tile with a shifted origin gives the bytes of the whole's window. */
START_TEST(test_tiles)
{
	tp_header whole = tp_test_header(600, 8, 30, 500000, 4649776);
	tp_header tile = tp_test_header(250, 3, 30, 500000 + 301 * 30, 4649776 - 5 * 30);
	tp_ridge r = ridge(5);
	float in[600], a[600], b[250];

	r.naive = 1;
	for (int i = 0; i < 600; i++)
		in[i] = (float)(i % 11) / 10.0f;
	for (int row = 0; row < 3; row++) {
		tp_ridge_row(&r, &whole, row + 5, in, a);
		tp_ridge_row(&r, &tile, row, in + 301, b);
		ck_assert_mem_eq(a + 301, b, sizeof(b));
	}
}
END_TEST

START_TEST(test_errors)
{
	tp_ridge r;
	tp_err e;

	tp_ridge_defaults(&r);
	r.noise.octaves = 0;
	ck_assert_int_eq(tp_ridge_init(&r, &e), -1);
	r.noise.octaves = TP_NOISE_MAX_OCTAVES + 1;
	ck_assert_int_eq(tp_ridge_init(&r, &e), -1);
	tp_ridge_defaults(&r);
	r.noise.frequency = 0;
	ck_assert_int_eq(tp_ridge_init(&r, &e), -1);
	tp_ridge_defaults(&r);
	r.mask_lo = 0.8;
	r.mask_hi = 0.8;
	ck_assert_int_eq(tp_ridge_init(&r, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "mask"));
	tp_ridge_defaults(&r);
	r.amount = NAN;
	ck_assert_int_eq(tp_ridge_init(&r, &e), -1);
}
END_TEST

/* tridge's rows, which place samples by their world position. */
static void
ridge_row(const void *k, const tp_header *h, int64_t y, const float *in,
    float *out)
{
	tp_ridge_row(k, h, y, in, out);
}

/* The same bytes at every vector level: each kind of noise, one and
 * several octaves, masked and naive. */
START_TEST(test_simd_levels)
{
	tp_ridge rg;
	tp_test_world w = { .k = &rg, .row = ridge_row, .simd = &rg.simd,
		.step = 5 };
	tp_err e;

	tp_test_world_header(&w);
	tp_ridge_defaults(&rg);
	rg.noise.kind = (tp_noise_kind)(_i % 3);
	rg.noise.octaves = _i / 3 % 2 ? 1 : 5;
	rg.noise.frequency = 1.0 / 40.0;
	rg.naive = _i / 6;
	ck_assert_int_eq(tp_ridge_init(&rg, &e), 0);
	tp_test_same_at_levels(tp_test_world_rows, &w, (size_t)TP_TEST_SIMD_N *
	    TP_TEST_SIMD_ROWS, "ridge", _i);
	tp_header_free(&w.h);
}
END_TEST

static Suite *
ridge_suite(void)
{
	Suite *s = suite_create("ridge");
	TCase *core = tcase_create("core"), *lim = tcase_create("limits"),
	    *err = tcase_create("errors");
	TCase *simd = tcase_create("simd");

	tcase_set_timeout(core, 30);
	tcase_add_test(core, test_first_octave_left_out);
	tcase_add_test(core, test_lattice_points_are_crests);
	tcase_add_test(core, test_apply_hand_values);
	tcase_add_test(core, test_row_is_point);
	tcase_add_loop_test(core, test_row_is_point_all, 0, 18);
	tcase_add_test(core, test_flat_inputs);
	tcase_add_loop_test(core, test_peaks_survive, 0, 6);
	tcase_add_test(core, test_tiles);
	tcase_add_test(lim, test_limits);
	tcase_add_test(err, test_errors);
	tcase_set_timeout(simd, 60);
	tcase_add_loop_test(simd, test_simd_levels, 0, 12);
	suite_add_tcase(s, core);
	suite_add_tcase(s, lim);
	suite_add_tcase(s, err);
	suite_add_tcase(s, simd);
	return s;
}

int
main(void)
{
	return tp_test_run(ridge_suite());
}
