/* check_climate.c - unit tests of tp_climate: temperature by latitude and
 * height, rain from moisture, and the orographic model (hand-computed
 * cells, a ridge across the wind, mirror symmetry, fresh air, threads). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "biome/tp_climate.h"
#include "geo/tp_geo.h"
#include "tp_test.h"

#define P_MID	1550.0		/* the middle of the default 100 .. 3000 */

START_TEST(test_sea_temperature)
{
	tp_climate c;

	tp_climate_defaults(&c);
	ck_assert_double_eq_tol(tp_climate_sea_temperature(&c, 0), 26, 1e-12);
	ck_assert_double_eq_tol(tp_climate_sea_temperature(&c, 60), 0.5,
	    1e-12);
	ck_assert_double_eq_tol(tp_climate_sea_temperature(&c, 90), -25,
	    1e-12);
	ck_assert_double_eq_tol(tp_climate_sea_temperature(&c, 95), -25,
	    1e-12);
	for (double lat = 0; lat <= 90; lat += 7.25)
		ck_assert_msg(tp_climate_sea_temperature(&c, -lat) ==
		    tp_climate_sea_temperature(&c, lat), "latitude %g", lat);
	ck_assert(isnan(tp_climate_sea_temperature(&c, NAN)));
}
END_TEST

/* 6.5 K per 1000 m, in metres or in units of zscale metres. */
START_TEST(test_lapse)
{
	tp_climate c;
	double t0, t1;

	tp_climate_defaults(&c);
	t0 = tp_climate_temperature(&c, 45, 250);
	t1 = tp_climate_temperature(&c, 45, 1250);
	ck_assert_double_eq_tol(t0 - t1, 6.5, 1e-9);
	ck_assert_double_eq_tol(tp_climate_temperature(&c, 60, 0), 0.5, 1e-12);
	c.zscale = 1000;
	t0 = tp_climate_temperature(&c, -30, 0.2);
	t1 = tp_climate_temperature(&c, -30, 1.2);
	ck_assert_double_eq_tol(t0 - t1, 6.5, 1e-9);
	ck_assert_double_eq_tol(tp_climate_sea_temperature(&c, -30) - t0,
	    0.2 * 6.5, 1e-9);
	ck_assert(isnan(tp_climate_temperature(&c, 10, NAN)));
}
END_TEST

/* Below the sea is at the sea's surface. */
START_TEST(test_below_sea)
{
	tp_climate c;
	double ts;

	tp_climate_defaults(&c);
	c.zscale = 1000;
	c.sea = 0.3;
	ts = tp_climate_sea_temperature(&c, 20);
	ck_assert(tp_climate_temperature(&c, 20, 0.3) == ts);
	ck_assert(tp_climate_temperature(&c, 20, 0.1) == ts);
	ck_assert(tp_climate_temperature(&c, 20, -7) == ts);
	ck_assert_double_eq_tol(tp_climate_temperature(&c, 20, 0.4),
	    ts - 0.65, 1e-9);
}
END_TEST

START_TEST(test_rain)
{
	tp_climate c;

	tp_climate_defaults(&c);
	ck_assert_double_eq(tp_climate_rain(&c, 0), 100);
	ck_assert_double_eq(tp_climate_rain(&c, 0.5), P_MID);
	ck_assert_double_eq(tp_climate_rain(&c, 1), 3000);
	ck_assert_double_eq(tp_climate_rain(&c, -0.25), 100);
	ck_assert_double_eq(tp_climate_rain(&c, 1.5), 3000);
	ck_assert(isnan(tp_climate_rain(&c, NAN)));
	c.rain_min = c.rain_max = 700;		/* an empty range is allowed */
	ck_assert_int_eq(tp_climate_check(&c, NULL), 0);
	ck_assert_double_eq(tp_climate_rain(&c, 0.3), 700);
}
END_TEST

/* Run the model on a w x hh grid (cell size cs, no CRS); fails the test
 * on an error. */
static void
oro(const tp_climate *c, int64_t w, int64_t hh, double cs, const float *z,
    const float *m, float *rain, int threads)
{
	tp_header h = tp_test_header(w, hh, cs, 0, (double)hh * cs);
	tp_err e;

	ck_assert_msg(tp_climate_orographic(c, &h, z, m, rain, threads, &e) ==
	    0, "%s", e.msg);
	tp_header_free(&h);
}

/* Three cells in a row, a westerly, hand-computed: the rise from 0 to
 * 100 m over 1000 m leaves e^-0.05 of the water and doubles the rain
 * factor (1 + 10 x 0.1); the descent keeps the water and the factor 1. */
START_TEST(test_oro_values)
{
	const float z[3] = { 0, 100, 50 };
	tp_climate c;
	float r[3];
	double q = exp(-100.0 / 2000);

	tp_climate_defaults(&c);
	c.wind_from = 270;
	oro(&c, 3, 1, 1000, z, NULL, r, 1);
	ck_assert_float_eq_tol(r[0], P_MID, 1e-3);
	ck_assert_float_eq_tol(r[1], P_MID * q * 2, 1e-3);
	ck_assert_float_eq_tol(r[2], P_MID * q, 1e-3);
}
END_TEST

/* Over the sea the air regains 1 - exp(-ds / recover) of what it lacks;
 * the sea is at sea level whatever its depth. */
START_TEST(test_oro_sea)
{
	const float z[4] = { 0, 2000, -5, -500 };
	tp_climate c;
	float r[4];
	double q1 = exp(-1.0), g = 1 - exp(-10000.0 / 50000), q2, q3;

	tp_climate_defaults(&c);
	c.wind_from = 270;
	oro(&c, 4, 1, 10000, z, NULL, r, 1);
	q2 = q1 + (1 - q1) * g;
	q3 = q2 + (1 - q2) * g;
	ck_assert_float_eq_tol(r[1], P_MID * q1 * (1 + 10 * 0.2), 1e-3);
	ck_assert_float_eq_tol(r[2], P_MID * q2, 1e-3);
	ck_assert_float_eq_tol(r[3], P_MID * q3, 1e-3);
}
END_TEST

/* A ridge along column 32 of a 64 x 32 grid (100 m cells, rising 40 m a
 * cell to 1280 m), the wind from the west: east of the crest is drier
 * than west of it at the same height and distance, the windward slope
 * wetter than the flat ground before it, the lee drier. */
START_TEST(test_oro_ridge)
{
	enum { W = 64, H = 32, CREST = 32 };
	static float z[W * H], r[W * H];
	tp_climate c;

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			z[y * W + x] = (float)fmax(0, 1280 - 40 * abs(x - CREST));
	tp_climate_defaults(&c);
	c.wind_from = 270;
	oro(&c, W, H, 100, z, NULL, r, 1);
	for (int y = 0; y < H; y++) {
		const float *row = r + y * W;
		ck_assert_float_eq_tol(row[0], P_MID, 1e-3);	/* flat, fresh */
		for (int d = 1; d < CREST; d++)
			ck_assert_msg(row[CREST + d] < row[CREST - d],
			    "row %d, %d cells from the crest: lee %g, "
			    "windward %g", y, d, row[CREST + d],
			    row[CREST - d]);
		ck_assert(row[CREST - 5] > P_MID);
		ck_assert(row[W - 1] < P_MID * 0.6);	/* e^-0.64 left */
		ck_assert(memcmp(row, r, W * sizeof *r) == 0);	/* rows alike */
	}
}
END_TEST

/* Flat ground under fresh air rains P0 everywhere, for any wind. */
START_TEST(test_oro_flat)
{
	enum { W = 23, H = 17 };
	static const double winds[] = { 0, 10, 45, 90, 135, 180, 225, 260.5,
	    270, 315, 359.9, -30, 720 };
	static float z[W * H], m[W * H], r[W * H];
	tp_climate c;

	for (int i = 0; i < W * H; i++) {
		z[i] = 3;
		m[i] = (float)(i % 11) / 10;
	}
	tp_climate_defaults(&c);
	for (size_t k = 0; k < sizeof winds / sizeof winds[0]; k++) {
		c.wind_from = winds[k];
		oro(&c, W, H, 30, z, NULL, r, 1);
		for (int i = 0; i < W * H; i++)
			ck_assert_msg(r[i] == (float)P_MID, "wind %g cell %d: %g",
			    winds[k], i, r[i]);
		oro(&c, W, H, 30, z, m, r, 1);
		for (int i = 0; i < W * H; i++)
			ck_assert_msg(r[i] == (float)tp_climate_rain(&c, m[i]),
			    "wind %g cell %d: %g", winds[k], i, r[i]);
	}
}
END_TEST

/* Fractal terrain with a sea, n x n. */
static void
terrain(float *z, int n, uint64_t seed)
{
	uint64_t s = seed;

	tp_test_fractal(z, n, &s, 0.6f);
	for (int i = 0; i < n * n; i++)
		z[i] = z[i] * 3000;
}

/* The wind from the east on a grid mirrored east-west gives the mirror of
 * the wind from the west, bit for bit; likewise north and south. */
START_TEST(test_oro_mirror)
{
	enum { N = 65 };
	static float z[N * N], zm[N * N], r[N * N], rm[N * N];
	static const double pairs[][2] = { { 270, 90 }, { 250, 110 },
	    { 300, 60 }, { 225, 135 } };
	tp_climate c;

	terrain(z, N, 7);
	tp_climate_defaults(&c);
	c.sea = -100;
	for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
		for (int y = 0; y < N; y++)
			for (int x = 0; x < N; x++)
				zm[y * N + x] = z[y * N + N - 1 - x];
		c.wind_from = pairs[k][0];
		oro(&c, N, N, 50, z, NULL, r, 1);
		c.wind_from = pairs[k][1];
		oro(&c, N, N, 50, zm, NULL, rm, 1);
		for (int y = 0; y < N; y++)
			for (int x = 0; x < N; x++)
				ck_assert_msg(memcmp(&r[y * N + x],
				    &rm[y * N + N - 1 - x], sizeof(float)) == 0,
				    "winds %g/%g cell %d,%d: %.9g vs %.9g",
				    pairs[k][0], pairs[k][1], x, y, r[y * N + x],
				    rm[y * N + N - 1 - x]);
	}
	/* north-south: from the north on the flipped grid */
	for (int y = 0; y < N; y++)
		memcpy(zm + y * N, z + (N - 1 - y) * N, N * sizeof(float));
	c.wind_from = 180;
	oro(&c, N, N, 50, z, NULL, r, 1);
	c.wind_from = 0;
	oro(&c, N, N, 50, zm, NULL, rm, 1);
	for (int y = 0; y < N; y++)
		ck_assert(memcmp(r + y * N, rm + (N - 1 - y) * N,
		    N * sizeof(float)) == 0);
}
END_TEST

/* From the south-west: a ridge along the diagonal x - y = 0 (across the
 * wind) leaves its north-east side drier than its south-west side at the
 * same distance; the model sweeps rows, one column east per row north. */
START_TEST(test_oro_diagonal)
{
	enum { N = 48, C = 24 };
	static float z[N * N], r[N * N];
	tp_climate c;

	for (int y = 0; y < N; y++)
		for (int x = 0; x < N; x++)
			z[y * N + x] = (float)fmax(0, 1000 - 40 * abs(x - y));
	tp_climate_defaults(&c);
	c.wind_from = 225;
	oro(&c, N, N, 100, z, NULL, r, 1);
	for (int d = 1; d < 20; d++) {
		float windward = r[(C + d) * N + C], lee = r[C * N + C + d];
		ck_assert_msg(lee < windward, "%d from the crest: %g vs %g", d,
		    lee, windward);
		ck_assert(windward > P_MID);
	}
	ck_assert_float_eq_tol(r[(N - 1) * N], P_MID, 1e-3);	/* SW corner */
	ck_assert(r[N - 1] < P_MID * 0.7);	/* NE corner, past the ridge */
}
END_TEST

/* Lines of 20000 cells, so two threads share them; rows and columns. */
START_TEST(test_oro_threads)
{
	enum { L = 20000, K = 5 };
	static const double winds[] = { 0, 200, 90, 280 };
	float *z = malloc(L * K * sizeof *z), *r1 = malloc(L * K * sizeof *r1),
	    *r2 = malloc(L * K * sizeof *r2);
	uint64_t s = 99;
	tp_climate c;

	ck_assert(z != NULL && r1 != NULL && r2 != NULL);
	for (int i = 0; i < L * K; i++)
		z[i] = 1000 * tp_test_urand(&s);
	tp_climate_defaults(&c);
	for (size_t k = 0; k < sizeof winds / sizeof winds[0]; k++) {
		int64_t w = k < 2 ? L : K, hh = k < 2 ? K : L;
		c.wind_from = winds[k];
		oro(&c, w, hh, 25, z, NULL, r1, 1);
		oro(&c, w, hh, 25, z, NULL, r2, 2);
		ck_assert_msg(memcmp(r1, r2, L * K * sizeof *r1) == 0,
		    "wind %g", winds[k]);
		oro(&c, w, hh, 25, z, NULL, r2, 3);
		ck_assert_msg(memcmp(r1, r2, L * K * sizeof *r1) == 0,
		    "wind %g", winds[k]);
	}
	free(z);
	free(r1);
	free(r2);
}
END_TEST

/* Air from off the grid, or from past a cell without a height, is fresh
 * and level with the cell: a 2000 m plateau at the west edge rains P0, and
 * so does the plateau just east of a NaN column, not P0 / e. */
START_TEST(test_oro_fresh)
{
	const float z[8] = { 2000, 2000, 0, 2000, NAN, 2000, 2000, INFINITY };
	tp_climate c;
	float r[8];

	tp_climate_defaults(&c);
	c.wind_from = 270;
	oro(&c, 8, 1, 1000, z, NULL, r, 1);
	ck_assert_float_eq_tol(r[0], P_MID, 1e-3);
	ck_assert_float_eq_tol(r[1], P_MID, 1e-3);
	ck_assert_float_eq_tol(r[2], P_MID, 1e-3);
	ck_assert_float_eq_tol(r[3], P_MID * exp(-1.0) * 5, 1e-3);
	ck_assert(isnan(r[4]));
	ck_assert_float_eq_tol(r[5], P_MID, 1e-3);
	ck_assert_float_eq_tol(r[6], P_MID, 1e-3);
	ck_assert(isnan(r[7]));
	/* from the east the NaN column cuts the plateau's air off as well */
	c.wind_from = 90;
	oro(&c, 8, 1, 1000, z, NULL, r, 1);
	ck_assert_float_eq_tol(r[3], P_MID, 1e-3);
	ck_assert_float_eq_tol(r[2], P_MID, 1e-3);
}
END_TEST

/* Between an off-grid point and a cell, and between a NaN cell and a cell,
 * the fresh side counts as water 1 at the cell's own height. The wind from
 * 240 moves the air east, and north by t = tan(30) of a row per column:
 * each cell's upwind point lies t rows south of its own row in the column
 * west of it, and row 2's is partly off the grid. A step climbs 500 m from
 * column 1 to column 2; (2, 1) has no height. */
START_TEST(test_oro_partial)
{
	enum { W = 6, H = 3 };
	float z[W * H], r[W * H];
	tp_climate c;
	double t = tan(M_PI / 6), ds = 10000 / cos(M_PI / 6), lift;

	for (int i = 0; i < W * H; i++)
		z[i] = i % W >= 2 ? 500 : 0;
	z[1 * W + 2] = NAN;
	tp_climate_defaults(&c);
	c.wind_from = 240;
	oro(&c, W, H, 10000, z, NULL, r, 1);
	for (int i = 0; i < W * H; i++)
		ck_assert(i == W + 2 ? isnan(r[i]) : isfinite(r[i]));
	/* (2, 0): air from rows 0 and 1 of column 1, at 0 m */
	ck_assert_float_eq_tol(r[2], P_MID * exp(-500.0 / 2000) *
	    (1 + 10 * 500 / ds), 0.01);
	/* (2, 2): a fraction t of its air comes from off the grid, level with
	 * it, so it climbs only (1 - t) 500 m */
	lift = (1 - t) * 500;
	ck_assert_float_eq_tol(r[2 * W + 2], P_MID * exp(-lift / 2000) *
	    (1 + 10 * lift / ds), 0.01);
	/* (3, 0): a fraction t of its air comes past the NaN cell, fresh */
	ck_assert_float_eq_tol(r[3], P_MID * ((1 - t) * exp(-500.0 / 2000) +
	    t), 0.01);
}
END_TEST

/* On a geographic grid the step is the row's spacing in metres: an arc
 * second east-west at 60 degrees north, 15.5 m. */
START_TEST(test_oro_geographic)
{
	const double arcsec = 1.0 / 3600;
	const float z[3] = { 0, 0.5f, 1 };
	tp_header h = tp_test_header(3, 1, arcsec, 10, 60 + 0.5 * arcsec);
	tp_climate c;
	tp_err e;
	float r[3];
	double ew, ns, q = exp(-0.5 / 2000);

	snprintf(h.crs, sizeof h.crs, "EPSG:4326");
	tp_geo_metres(60, arcsec, &ew, &ns);
	tp_climate_defaults(&c);
	c.wind_from = 270;
	ck_assert_int_eq(tp_climate_orographic(&c, &h, z, NULL, r, 1, &e), 0);
	ck_assert_float_eq_tol(r[1], P_MID * q * (1 + 10 * 0.5 / ew), 1e-3);
	ck_assert_float_eq_tol(r[2], P_MID * q * q * (1 + 10 * 0.5 / ew),
	    1e-3);
	tp_header_free(&h);
}
END_TEST

/* Each bad setting is refused with a message naming it. */
START_TEST(test_errors)
{
	static const struct { const char *field; double v; const char *msg; }
	    bad[] = {
		{ "wind", NAN, "wind direction nan" },
		{ "wind", INFINITY, "wind direction inf" },
		{ "rain", 50, "rain range 100,50" },
		{ "scale", 0, "scale height 0" },
		{ "scale", -3, "scale height -3" },
		{ "recover", 0, "recovery distance" },
		{ "recover", NAN, "recovery distance" },
		{ "zscale", 0, "height scale 0" },
	};
	tp_header h = tp_test_header(2, 2, 1, 0, 2);
	float z[4] = { 0 }, r[4] = { 7, 7, 7, 7 };
	tp_climate c;
	tp_err e;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		tp_climate_defaults(&c);
		c.wind_from = 270;
		if (strcmp(bad[i].field, "wind") == 0)
			c.wind_from = bad[i].v;
		else if (strcmp(bad[i].field, "rain") == 0)
			c.rain_max = bad[i].v;
		else if (strcmp(bad[i].field, "scale") == 0)
			c.scale_height = bad[i].v;
		else if (strcmp(bad[i].field, "recover") == 0)
			c.recover = bad[i].v;
		else
			c.zscale = bad[i].v;
		e.msg[0] = '\0';
		ck_assert_int_eq(tp_climate_orographic(&c, &h, z, NULL, r, 1,
		    &e), -1);
		ck_assert_msg(strstr(e.msg, bad[i].msg) != NULL, "%s: %s",
		    bad[i].msg, e.msg);
		ck_assert(r[0] == 7);		/* nothing written */
	}
	tp_climate_defaults(&c);		/* no wind: fine for the rest */
	ck_assert_int_eq(tp_climate_check(&c, &e), 0);
	c.wind_from = -INFINITY;
	ck_assert_int_eq(tp_climate_check(&c, &e), -1);
	tp_header_free(&h);
}
END_TEST

static Suite *
climate_suite(void)
{
	Suite *s = suite_create("climate");
	TCase *core = tcase_create("core"), *oro_tc = tcase_create("orographic"),
	    *err = tcase_create("errors");

	tcase_add_test(core, test_sea_temperature);
	tcase_add_test(core, test_lapse);
	tcase_add_test(core, test_below_sea);
	tcase_add_test(core, test_rain);
	tcase_add_test(oro_tc, test_oro_values);
	tcase_add_test(oro_tc, test_oro_sea);
	tcase_add_test(oro_tc, test_oro_ridge);
	tcase_add_test(oro_tc, test_oro_flat);
	tcase_add_test(oro_tc, test_oro_mirror);
	tcase_add_test(oro_tc, test_oro_diagonal);
	tcase_add_test(oro_tc, test_oro_threads);
	tcase_add_test(oro_tc, test_oro_fresh);
	tcase_add_test(oro_tc, test_oro_partial);
	tcase_add_test(oro_tc, test_oro_geographic);
	tcase_add_test(err, test_errors);
	suite_add_tcase(s, core);
	suite_add_tcase(s, oro_tc);
	suite_add_tcase(s, err);
	return s;
}

int
main(void)
{
	return tp_test_run(climate_suite());
}
