/* check_index.c - unit tests of tp_index: wetness, stream power, HAND. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_d8.h"
#include "hydro/tp_dinf.h"
#include "hydro/tp_index.h"
#include "tp_test.h"

static const tp_geo_grid TEN = { 10, 0, 0 };

/* The V-valley of tests/tindex.sh, 7 x 5 cells of 10 m: z = 10 |x - 3| +
 * (4 - y); drain marks column 3. */
static void
valley(float *z, uint8_t *drain)
{
	int x, y;

	for (y = 0; y < 5; y++)
		for (x = 0; x < 7; x++) {
			z[y * 7 + x] = (float)(10 * abs(x - 3) + (4 - y));
			drain[y * 7 + x] = x == 3;
		}
}

/* D8 tan b is the drop to the receiver over the distance to it, 0 where
 * there is none; twi floors it, spi does not. */
START_TEST(test_tan_twi_spi)
{
	static const float z[8] = { 3, 2, 1, 0, 9, 9, 0, 9 };
	static const uint8_t dir[8] = { TP_D8_E, TP_D8_SE, TP_D8_OUT | TP_D8_E,
	    TP_D8_SEA, TP_D8_SINK, TP_D8_SINK, TP_D8_SINK, TP_D8_SINK };
	float t[8], sca[8] = { 10, 20, 30, 40, 1, 1, 1, 1 }, twi[8], spi[8];
	int64_t floored;

	tp_index_d8_tan(z, 4, dir, 4, 2, &TEN, 1, t, 4);
	ck_assert_float_eq(t[0], 0.1f);
	/* SE: a drop of 2 over 14.142 */
	ck_assert_float_eq_tol(t[1], (2.0 - 0) / sqrt(200), 1e-7);
	ck_assert_float_eq(t[2], 0);
	ck_assert_float_eq(t[3], 0);
	t[1] = 0.5f;
	tp_index_twi_spi(sca, t, 4, dir, 4, 1, 0.001, 1, twi, spi, 4,
	    &floored);
	ck_assert_float_eq_tol(twi[0], log(100), 1e-6);
	ck_assert_float_eq_tol(twi[1], log(40), 1e-6);
	ck_assert_float_eq_tol(twi[2], log(30000), 1e-6);
	ck_assert(isnan(twi[3]) && isnan(spi[3]));
	ck_assert_float_eq(spi[0], 1);
	ck_assert_float_eq(spi[2], 0);
	ck_assert_int_eq(floored, 1);
}
END_TEST

/* D8 HAND: the sides of the valley drain across to the channel. */
START_TEST(test_hand_d8)
{
	float z[35], hand[35];
	uint8_t drain[35], dir[35];
	tp_err e;
	int i;

	valley(z, drain);
	for (i = 0; i < 35; i++)
		dir[i] = i % 7 < 3 ? TP_D8_E : i % 7 > 3 ? TP_D8_W :
		    i / 7 < 4 ? TP_D8_S : TP_D8_OUT | TP_D8_S;
	ck_assert_int_eq(tp_index_hand_d8(z, 7, dir, drain, 7, 5, hand, 7, &e),
	    0);
	for (i = 0; i < 35; i++)
		ck_assert_float_eq(hand[i], 10 * abs(i % 7 - 3));
	/* no drainage: the channel's water leaves the grid at its foot */
	memset(drain, 0, sizeof drain);
	ck_assert_int_eq(tp_index_hand_d8(z, 7, dir, drain, 7, 5, hand, 7, &e),
	    0);
	for (i = 0; i < 35; i++)
		ck_assert(isnan(hand[i]));
}
END_TEST

/* D-infinity HAND, dinfdistdown's average (the values of tindex.sh's
 * V-valley): 0.873098 x 10 + 0.126902 x 11 next to the channel, twice
 * that one cell further. */
START_TEST(test_hand_dinf)
{
	float z[35], ang[35], hand[35];
	uint8_t drain[35];
	double p = atan(0.1) / (M_PI / 4), one = (1 - p) * 10 + p * 11;
	tp_err e;

	valley(z, drain);
	ck_assert_int_eq(tp_dinf_angles(z, 7, NULL, 7, 5, &TEN, 1, ang, 7,
	    NULL, &e), 0);
	ck_assert_int_eq(tp_index_hand_dinf(z, 7, ang, 7, drain, 7, 5, &TEN, 1,
	    hand, 7, &e), 0);
	ck_assert_float_eq_tol(hand[2 * 7 + 2], one, 1e-5);
	ck_assert_float_eq_tol(hand[2 * 7 + 4], one, 1e-5);
	ck_assert_float_eq_tol(hand[2 * 7 + 1], 2 * one, 1e-5);
	ck_assert_float_eq(hand[2 * 7 + 3], 0);
	/* border cells have no angle: NaN off the channel */
	ck_assert(isnan(hand[0]) && hand[3] == 0);
}
END_TEST

/* The whole run: -j 1 and -j 3 alike, every method, and the counts. */
START_TEST(test_run_threads)
{
	enum { W = 61, H = 47 };
	float *z = malloc(W * H * sizeof *z), *out[2];
	tp_index_opts o = { .geo = TEN, .sea = -INFINITY,
	    .min_tan = TP_INDEX_MIN_TAN, .rivers = 20 };
	tp_index_planes p;
	tp_index_stats st;
	tp_err e;
	int i, m, j;

	ck_assert_ptr_nonnull(z);
	for (i = 0; i < W * H; i++)
		z[i] = (float)(fabs(i % W - 30.0) + (H - i / W) * 0.3 +
		    sin(i * 0.7) * 0.01);
	for (m = TP_INDEX_D8; m <= TP_INDEX_DINF; m++) {
		for (j = 0; j < 2; j++) {
			out[j] = malloc(3 * W * H * sizeof *out[j]);
			ck_assert_ptr_nonnull(out[j]);
			p = (tp_index_planes){ out[j], out[j] + W, out[j] + 2 * W,
			    3 * W };
			o.method = m;
			o.threads = 1 + 2 * j;
			ck_assert_int_eq(tp_index_run(z, NULL, W, W, H, &o, &p,
			    &st, &e), 0);
		}
		ck_assert_int_eq(memcmp(out[0], out[1], 3 * W * H *
		    sizeof *out[0]), 0);
		ck_assert_int_eq(st.valid, W * H);
		ck_assert(st.drains > 0);
		free(out[0]);
		free(out[1]);
	}
	free(z);
}
END_TEST

static Suite *
index_suite(void)
{
	Suite *s = suite_create("index");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_tan_twi_spi);
	tcase_add_test(core, test_hand_d8);
	tcase_add_test(core, test_hand_dinf);
	tcase_add_test(core, test_run_threads);
	suite_add_tcase(s, core);
	return s;
}

int
main(void)
{
	return tp_test_run(index_suite());
}
