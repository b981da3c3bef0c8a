/* check_island.c - unit tests of the radial island falloff. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "gen/tp_island.h"
#include "tp_test.h"
#include "tp_test_simd.h"

/* One row of a constant height v through the falloff. */
static void
row_of(tp_island *is, const tp_header *h, int64_t row, float v, float *out)
{
	float in[64];

	for (int i = 0; i < h->width; i++)
		in[i] = v;
	tp_island_row(is, h, row, in, out);
}

START_TEST(test_hand_values)
{
	/* 4x4 cells of 1, origin (0, 4): centre (2, 2), radius 2. Cell (1, 1)
	 * has centre (1.5, 2.5): nx = -0.25, ny = 0.25, d = sqrt(0.125). */
	tp_header h = tp_test_header(4, 4, 1, 0, 4);
	tp_island is;
	tp_err e;
	float out[4];

	tp_island_defaults(&is);
	tp_island_extent(&is, &h);
	ck_assert_int_eq(tp_island_columns(&is, &h, &e), 0);
	row_of(&is, &h, 1, 0.5f, out);
	/* 0.5 + 0.5 * (1 - 0.35355339 - 0.5) */
	ck_assert_float_eq_tol(out[1], 0.57322330f, 1e-7);
	/* the corner: nx = -0.75, ny = 0.75, d = min(1, 1.06) = 1 */
	row_of(&is, &h, 0, 0.5f, out);
	ck_assert_float_eq(out[0], 0.25f);
	is.mix = 1.0;
	is.shape = TP_ISLAND_SQUARE_BUMP;	/* 1 - (1 - 1/16)^2 */
	row_of(&is, &h, 1, 0.5f, out);
	ck_assert_float_eq_tol(out[1], 0.87890625f, 1e-7);
	is.shape = TP_ISLAND_EUCLIDEAN2;	/* 1 - 0.125 / sqrt 2 */
	row_of(&is, &h, 1, 0.5f, out);
	ck_assert_float_eq_tol(out[1], 0.91161165f, 1e-7);
	tp_island_free(&is);
	tp_header_free(&h);
}
END_TEST

START_TEST(test_mix_zero_and_corners)
{
	/* mix 0 changes nothing (the centre cell included); euclidean corners
	 * go to (1 - mix) h, for any mix */
	static const double mixes[] = { 0.0, 0.25, 0.5, 0.8, 1.0 };
	tp_header h = tp_test_header(9, 9, 30, 500010, 4649760);
	tp_island is;
	tp_err e;
	float out[9];

	tp_island_defaults(&is);
	tp_island_extent(&is, &h);
	ck_assert_int_eq(tp_island_columns(&is, &h, &e), 0);
	for (size_t k = 0; k < sizeof(mixes) / sizeof(mixes[0]); k++) {
		is.mix = mixes[k];
		row_of(&is, &h, 0, 0.7f, out);
		ck_assert_float_eq_tol(out[0], (1 - mixes[k]) * 0.7f, 1e-7);
		ck_assert_float_eq_tol(out[8], (1 - mixes[k]) * 0.7f, 1e-7);
		row_of(&is, &h, 4, 0.7f, out);	/* the centre: d = 0 */
		ck_assert_float_eq_tol(out[4], 0.7f + mixes[k] * 0.3f, 1e-7);
	}
	is.mix = 0.0;
	for (int r = 0; r < 9; r++) {
		row_of(&is, &h, r, 0.3f, out);
		for (int i = 0; i < 9; i++)
			ck_assert_float_eq(out[i], 0.3f);
	}
	tp_island_free(&is);
	tp_header_free(&h);
}
END_TEST

/* Tiles of one island made with the same centre and radius give the same
 * bytes as the window of the whole, with and without a warp. */
START_TEST(test_tiles)
{
	tp_header whole = tp_test_header(48, 40, 30, 500000, 4649776);
	tp_header tile = tp_test_header(20, 15, 30, 500000 + 17 * 30, 4649776 - 11 * 30);
	tp_island a, b;
	tp_err e;
	float wo[48], to[20], in[48];

	for (int i = 0; i < 48; i++)
		in[i] = (float)(i % 7) / 7.0f;
	tp_island_defaults(&a);
	ck_assert_int_eq(tp_island_center(&a, 500000 + 700, 4649776 - 600, &e), 0);
	ck_assert_int_eq(tp_island_radius(&a, 650, &e), 0);
	ck_assert_int_eq(tp_island_warp(&a, 0.2 * _i, 2.0, 5, &e), 0);
	b = a;
	ck_assert_int_eq(tp_island_columns(&a, &whole, &e), 0);
	b.nx = NULL;
	ck_assert_int_eq(tp_island_columns(&b, &tile, &e), 0);
	for (int r = 0; r < 15; r++) {
		tp_island_row(&a, &whole, r + 11, in, wo);
		tp_island_row(&b, &tile, r, in + 17, to);
		ck_assert_mem_eq(wo + 17, to, sizeof(to));
	}
	tp_island_free(&a);
	tp_island_free(&b);
}
END_TEST

/* The row function (SSE2 or not) and the point function agree, with and
 * without a warp, for every shape. */
START_TEST(test_row_is_point)
{
	tp_header h = tp_test_header(37, 5, 2.5, -40, 10);
	tp_island is;
	tp_err e;
	float out[37], in[37];

	for (int i = 0; i < 37; i++)
		in[i] = (float)i / 40.0f;
	tp_island_defaults(&is);
	tp_island_extent(&is, &h);
	is.shape = (tp_island_shape)(_i % 3);
	ck_assert_int_eq(tp_island_warp(&is, _i < 3 ? 0.0 : 0.3, 1.5, 9, &e),
	    0);
	ck_assert_int_eq(tp_island_columns(&is, &h, &e), 0);
	is.mix = 0.7;
	for (int simd = 0, top = is.simd; simd <= top; simd++) {
		is.simd = simd;
		tp_island_row(&is, &h, 3, in, out);
		for (int i = 0; i < 37; i++) {
			double d = tp_island_distance(&is,
			    tp_noise_centre(-40, i, 2.5),
			    tp_noise_centre(10, -4, 2.5));
			double v = in[i];

			ck_assert_float_eq(out[i],
			    (float)(v + 0.7 * (1.0 - d - v)));
		}
	}
	tp_island_free(&is);
}
END_TEST

/* Every SIMD level gives the bytes of the scalar path, also for NaN,
 * infinities, in place, far outside, a radius so small that nx
 * overflows, and with a warp. */
START_TEST(test_row_levels)
{
	tp_header h = tp_test_header(61, 9, 0.5, -3, 2);
	tp_island is;
	tp_err e;
	float in[61], want[61], out[61];
	uint32_t s = 5u + (uint32_t)_i;

	for (int i = 0; i < 61; i++) {
		s = s * 1664525u + 1013904223u;
		in[i] = (float)((s >> 8) / 16777216.0 * 3.0 - 1.0);
	}
	in[1] = NAN;
	in[2] = INFINITY;
	in[3] = -INFINITY;
	in[4] = -0.0f;
	in[60] = 1e30f;
	tp_island_defaults(&is);
	tp_island_extent(&is, &h);
	is.shape = (tp_island_shape)(_i % 3);
	is.mix = _i < 6 ? 0.35 : 1.0;
	if (_i >= 3)
		ck_assert_int_eq(tp_island_radius(&is, _i >= 6 && _i < 9 ?
		    1e-300 : 7.0, &e), 0);
	if (_i >= 9)
		ck_assert_int_eq(tp_island_warp(&is, 0.4, 1.5, 3, &e), 0);
	ck_assert_int_eq(tp_island_columns(&is, &h, &e), 0);
	for (int64_t r = 0; r < 9; r++) {
		is.simd = TP_SIMD_SCALAR;
		tp_island_row(&is, &h, r, in, want);
		for (int simd = 1; simd <= (int)tp_simd_probe(); simd++) {
			memcpy(out, in, sizeof(in));
			is.simd = simd;
			tp_island_row(&is, &h, r, out, out);
			ck_assert_mem_eq(out, want, sizeof(want));
		}
	}
	tp_island_free(&is);
}
END_TEST

/* Without a warp d is the same a quarter turn around the centre; with
 * one, the coast is not rotationally symmetric. */
START_TEST(test_warp_breaks_symmetry)
{
	tp_island is;
	tp_err e;
	int differ = 0;

	tp_island_defaults(&is);
	for (int pass = 0; pass < 2; pass++) {
		ck_assert_int_eq(tp_island_warp(&is, pass ? 0.25 : 0.0, 1.5, 1,
		    &e), 0);
		differ = 0;
		for (double y = -1.0; y <= 1.0; y += 0.125)
			for (double x = -1.0; x <= 1.0; x += 0.125) {
				double d1 = tp_island_distance(&is, x, y);
				double d2 = tp_island_distance(&is, -y, x);

				if (!pass)
					ck_assert_double_eq(d1, d2);
				differ += fabs(d1 - d2) > 0.02;
			}
	}
	ck_assert_int_gt(differ, 50);
}
END_TEST

START_TEST(test_limits)
{
	tp_header h = tp_test_header(3, 1, 1, 0, 1);
	tp_island is;
	tp_err e;
	float in[3] = { NAN, 0.5f, 0.5f }, out[3];

	tp_island_defaults(&is);
	ck_assert_int_eq(tp_island_radius(&is, 0.25, &e), 0);
	ck_assert_int_eq(tp_island_center(&is, 0.5, 0.5, &e), 0);
	ck_assert_int_eq(tp_island_columns(&is, &h, &e), 0);
	is.mix = 1.0;
	tp_island_row(&is, &h, 0, in, out);
	ck_assert(isnan(out[0]));
	ck_assert_float_eq(out[1], 0.0f);	/* 4 radii out: d = 1 */
	is.shape = TP_ISLAND_SQUARE_BUMP;
	tp_island_row(&is, &h, 0, in, out);
	ck_assert_float_eq(out[2], 0.0f);
	/* far outside: d stays 1 for every shape */
	for (int s = 0; s < 3; s++) {
		is.shape = (tp_island_shape)s;
		ck_assert_double_eq(tp_island_distance(&is, 1e6, -1e6), 1.0);
	}
	tp_island_free(&is);
}
END_TEST

START_TEST(test_errors)
{
	tp_island is;
	tp_err e;

	tp_island_defaults(&is);
	ck_assert_int_eq(tp_island_radius(&is, 0, &e), -1);
	ck_assert_int_eq(tp_island_radius(&is, -3, &e), -1);
	ck_assert_int_eq(tp_island_radius(&is, NAN, &e), -1);
	ck_assert_int_eq(tp_island_center(&is, NAN, 0, &e), -1);
	ck_assert_int_eq(tp_island_center(&is, 0, INFINITY, &e), -1);
	ck_assert_int_eq(tp_island_warp(&is, -1, 1, 0, &e), -1);
	ck_assert_int_eq(tp_island_warp(&is, 0.1, 0, 0, &e), -1);
}
END_TEST

/* tisland's rows, which place samples by their world position. */
static void
island_row(const void *k, const tp_header *h, int64_t y, const float *in,
    float *out)
{
	tp_island_row(k, h, y, in, out);
}

/* The same bytes at every vector level: the three shapes, without and
 * with a warped coast. */
START_TEST(test_simd_levels)
{
	tp_island is;
	tp_test_world w = { .k = &is, .row = island_row, .simd = &is.simd,
		.step = 7 };
	tp_err e;

	tp_test_world_header(&w);
	tp_island_defaults(&is);
	tp_island_extent(&is, &w.h);
	is.shape = (tp_island_shape)(_i % 3);
	is.mix = 0.8;
	if (_i >= 3)
		ck_assert_int_eq(tp_island_warp(&is, 0.3, 2.0, 5, &e), 0);
	ck_assert_int_eq(tp_island_columns(&is, &w.h, &e), 0);
	tp_test_same_at_levels(tp_test_world_rows, &w, (size_t)TP_TEST_SIMD_N *
	    TP_TEST_SIMD_ROWS, "island", _i);
	tp_island_free(&is);
	tp_header_free(&w.h);
}
END_TEST

static Suite *
island_suite(void)
{
	Suite *s = suite_create("island");
	TCase *core = tcase_create("core"), *lim = tcase_create("limits"),
	    *err = tcase_create("errors");
	TCase *simd = tcase_create("simd");

	tcase_add_test(core, test_hand_values);
	tcase_add_test(core, test_mix_zero_and_corners);
	tcase_add_loop_test(core, test_tiles, 0, 2);
	tcase_add_loop_test(core, test_row_is_point, 0, 6);
	tcase_add_loop_test(lim, test_row_levels, 0, 12);
	tcase_add_test(core, test_warp_breaks_symmetry);
	tcase_add_test(lim, test_limits);
	tcase_add_test(err, test_errors);
	tcase_set_timeout(simd, 60);
	tcase_add_loop_test(simd, test_simd_levels, 0, 6);
	suite_add_tcase(s, core);
	suite_add_tcase(s, lim);
	suite_add_tcase(s, err);
	suite_add_tcase(s, simd);
	return s;
}

int
main(void)
{
	return tp_test_run(island_suite());
}
