/* check_orographic.c - unit tests of tp_orographic: the rain of a Gaussian
 * hill against the orographic-precipitation package's own
 * (tests/data/orographic, made by make_fixture.py there), flat ground,
 * the mirror of a wind, repeatability, the parser and the errors. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "biome/tp_orographic.h"
#include "tp_test.h"

#define N	64
#define DX	2000.0
#define FIX	"tests/data/orographic/"

static void
load(const char *path, float *v)
{
	FILE *f = fopen(path, "rb");

	ck_assert_msg(f != NULL, "cannot open %s", path);
	ck_assert_uint_eq(fread(v, sizeof *v, N * N, f), N * N);
	fclose(f);
}

static void
fixture_params(tp_orographic *p)
{
	tp_orographic_defaults(p);
	p->wind_from = 240;
	p->latitude = 45;
}

/* The package's rate, background 1 mm/h and max(0, .), within 1% at
 * every cell (and 1e-6 mm/h where the reference is 0). */
START_TEST(test_package)
{
	static float z[N * N], ref[N * N], rate[N * N];
	tp_orographic p;
	tp_err e = { 0 };
	double worst = 0;

	load(FIX "hill.f32", z);
	load(FIX "rain.f32", ref);
	fixture_params(&p);
	ck_assert_int_eq(tp_orographic_rain(&p, N, N, DX, DX, z, rate, &e), 0);
	for (int i = 0; i < N * N; i++) {
		double got = fmax(0, 1 + rate[i]), d = fabs(got - ref[i]);

		ck_assert_msg(d <= 0.01 * fabs(ref[i]) + 1e-6,
		    "cell %d: %g, the package %g", i, got, ref[i]);
		if (ref[i] > 0 && d / ref[i] > worst)
			worst = d / ref[i];
	}
	/* the package pads with zeros, tp_orographic with the edge's
	 * 0.0015 m tapered: 0.27% at the worst cell */
	ck_assert_msg(worst < 5e-3, "worst %g", worst);
}
END_TEST

START_TEST(test_flat)
{
	static float z[N * N], rate[N * N];
	tp_orographic p;
	tp_err e = { 0 };

	tp_orographic_defaults(&p);
	for (int i = 0; i < N * N; i++)
		z[i] = i % 7 == 0 ? NAN : 0;	/* NaN counts as 0 */
	ck_assert_int_eq(tp_orographic_rain(&p, N, N, DX, DX, z, rate, &e), 0);
	for (int i = 0; i < N * N; i++)
		ck_assert(rate[i] == 0);
}
END_TEST

/* A wind from the east on the hill mirrored east-west is the wind from
 * the west mirrored; and a second run gives the same bytes. */
START_TEST(test_mirror)
{
	static float z[N * N], zm[N * N], a[N * N], b[N * N], c[N * N];
	tp_orographic p;
	tp_err e = { 0 };

	load(FIX "hill.f32", z);
	for (int i = 0; i < N * N; i++)		/* lopsided: not symmetric */
		z[i] *= 1 + (float)(i % N) / N;
	for (int y = 0; y < N; y++)
		for (int x = 0; x < N; x++)
			zm[y * N + x] = z[y * N + N - 1 - x];
	tp_orographic_defaults(&p);
	ck_assert_int_eq(tp_orographic_rain(&p, N, N, DX, DX, z, a, &e), 0);
	p.wind_from = 90;
	ck_assert_int_eq(tp_orographic_rain(&p, N, N, DX, DX, zm, b, &e), 0);
	for (int y = 0; y < N; y++)
		for (int x = 0; x < N; x++)
			ck_assert_float_eq_tol(a[y * N + x], b[y * N + N - 1 - x],
			    1e-5);
	p.wind_from = 270;
	ck_assert_int_eq(tp_orographic_rain(&p, N, N, DX, DX, z, c, &e), 0);
	ck_assert(memcmp(a, c, sizeof a) == 0);
}
END_TEST

START_TEST(test_parse)
{
	tp_orographic p;
	tp_err e = { 0 };

	tp_orographic_defaults(&p);
	ck_assert_int_eq(tp_orographic_parse(&p, "speed=10,tc=500,"
	    "tf=800,nm=0.01,hw=3000,cw=0.004", &e), 0);
	ck_assert(p.speed == 10 && p.conv_time == 500 &&
	    p.fall_time == 800 && p.nm == 0.01 && p.hw == 3000 &&
	    p.cw == 0.004);
	ck_assert_int_eq(tp_orographic_parse(&p, "", &e), 0);
	ck_assert_int_eq(tp_orographic_parse(&p, "speed", &e), -1);
	ck_assert_int_eq(tp_orographic_parse(&p, "wind=3", &e), -1);
	ck_assert_int_eq(tp_orographic_parse(&p, "tc=3x", &e), -1);
	ck_assert_int_eq(tp_orographic_parse(&p, "tc=", &e), -1);
	ck_assert_int_eq(tp_orographic_parse(&p, "tc=-1", &e), -1);
	ck_assert_int_eq(tp_orographic_parse(&p, "lat=45", &e), -1);
	ck_assert_int_eq(tp_orographic_parse(&p, "wet=1.5", &e), -1);
	ck_assert_int_eq(tp_orographic_parse(&p, "nm=nan", &e), -1);
}
END_TEST

START_TEST(test_errors)
{
	float z[4] = { 0 }, r[4];
	tp_orographic p;
	tp_err e = { 0 };

	tp_orographic_defaults(&p);
	ck_assert_int_eq(tp_orographic_rain(&p, 0, 2, DX, DX, z, r, &e), -1);
	ck_assert_int_eq(tp_orographic_rain(&p, 2, 2, 0, DX, z, r, &e), -1);
	ck_assert_int_eq(tp_orographic_rain(&p, 2, 2, DX, NAN, z, r, &e), -1);
	p.wind_from = INFINITY;
	ck_assert_int_eq(tp_orographic_rain(&p, 2, 2, DX, DX, z, r, &e), -1);
	p.wind_from = 0;
	p.latitude = 91;
	ck_assert_int_eq(tp_orographic_rain(&p, 2, 2, DX, DX, z, r, &e), -1);
}
END_TEST

static Suite *
orographic_suite(void)
{
	Suite *s = suite_create("orographic");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_package);
	tcase_add_test(tc, test_flat);
	tcase_add_test(tc, test_mirror);
	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tp_test_run(orographic_suite());
}
