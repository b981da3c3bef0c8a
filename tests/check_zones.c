/* check_zones.c - unit tests of tp_zones: a checkerboard worked by hand,
 * zones as whole values (truncated, NaN skipped), areas on a geographic
 * grid as tp_geo_spacing measures its rows, and thousands of zones. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geo/tp_geo.h"
#include "geo/tp_zones.h"
#include "tp_test.h"

/* Rows of a two-band stream (zone, value), w x h, fed to z. */
static void
feed(tp_zones *z, const float *zone, const float *val, int64_t w, int64_t h)
{
	float *row = malloc(2 * (size_t)w * sizeof *row);
	tp_err e;

	ck_assert(row != NULL);
	for (int64_t y = 0; y < h; y++) {
		memcpy(row, zone + y * w, (size_t)w * sizeof *row);
		memcpy(row + w, val + y * w, (size_t)w * sizeof *row);
		ck_assert_int_eq(tp_zones_row(z, y, row, &e), 0);
	}
	free(row);
}

static tp_header
two_bands(int64_t w, int64_t h, double cs, double y0)
{
	tp_header hd = tp_test_header(w, h, cs, 0, y0);
	tp_err e;

	ck_assert_int_eq(tp_header_add_band(&hd, "value", &e), 1);
	return hd;
}

/* A 4 x 3 checkerboard of zones 1 and 2 (1 where x + y is even), values
 * y * 4 + x, cell size 10; the value at (0, 0) is NaN. Zone 1 holds
 * 2, 5, 7, 8, 10 (and the NaN): count 5, sum 32, mean 6.4, population
 * variance (19.36 + 1.96 + 0.36 + 2.56 + 12.96) / 5 = 7.44; zone 2 holds
 * 1, 3, 4, 6, 9, 11: sum 34, mean 34 / 6, min 1, max 11. */
START_TEST(test_checkerboard)
{
	float zone[12], val[12];
	tp_header h = two_bands(4, 3, 10, 30);
	tp_zones z;
	tp_err e;

	for (int i = 0; i < 12; i++) {
		zone[i] = (float)((i % 4 + i / 4) % 2 ? 2 : 1);
		val[i] = (float)i;
	}
	val[0] = NAN;
	ck_assert_int_eq(tp_zones_init(&z, &h, 0, TP_GEO_NO, &e), 0);
	feed(&z, zone, val, 4, 3);
	tp_zones_finish(&z);
	ck_assert_uint_eq(z.nzones, 2);
	ck_assert_int_eq(z.zone[0].id, 1);
	ck_assert_uint_eq(z.zone[0].cells, 6);
	ck_assert_double_eq(z.zone[0].area, 600);
	ck_assert_uint_eq(z.zone[0].acc[1].n, 5);
	ck_assert_uint_eq(z.zone[0].acc[1].nodata, 1);
	ck_assert_double_eq(z.zone[0].acc[1].sum, 32);
	ck_assert_double_eq_tol(z.zone[0].acc[1].mean, 6.4, 1e-12);
	ck_assert_double_eq_tol(tp_zones_stddev(&z.zone[0].acc[1]),
	    sqrt(7.44), 1e-12);
	ck_assert_double_eq(z.zone[0].acc[1].min, 2);
	ck_assert_double_eq(z.zone[0].acc[1].max, 10);
	ck_assert_int_eq(z.zone[1].id, 2);
	ck_assert_uint_eq(z.zone[1].acc[1].n, 6);
	ck_assert_double_eq(z.zone[1].acc[1].sum, 34);
	ck_assert_double_eq(z.zone[1].acc[1].min, 1);
	ck_assert_double_eq(z.zone[1].acc[1].max, 11);
	ck_assert_double_eq_tol(z.zone[1].acc[1].mean, 34.0 / 6, 1e-12);
	tp_zones_free(&z);
	tp_header_free(&h);
}
END_TEST

/* Whole values: 2.7 is zone 2, -0.5 zone 0, -1.5 zone -1; NaN and inf
 * are in no zone. */
START_TEST(test_whole_values)
{
	float zone[6] = { 2.7f, 2, -0.5f, -1.5f, NAN, INFINITY };
	float val[6] = { 1, 2, 3, 4, 5, 6 };
	tp_header h = two_bands(6, 1, 1, 1);
	tp_zones z;
	tp_err e;

	ck_assert_int_eq(tp_zones_init(&z, &h, 0, TP_GEO_NO, &e), 0);
	feed(&z, zone, val, 6, 1);
	tp_zones_finish(&z);
	ck_assert_uint_eq(z.skipped, 2);
	ck_assert_uint_eq(z.nzones, 3);
	ck_assert_int_eq(z.zone[0].id, -1);
	ck_assert_int_eq(z.zone[1].id, 0);
	ck_assert_int_eq(z.zone[2].id, 2);
	ck_assert_uint_eq(z.zone[2].cells, 2);
	ck_assert_double_eq(z.zone[2].acc[1].sum, 3);
	tp_zones_free(&z);
	tp_header_free(&h);
}
END_TEST

/* A geographic grid of 0.01 degree cells from 60 N: each row's area is
 * tp_geo_spacing's dx * dy at the row's latitude. */
START_TEST(test_geographic_area)
{
	enum { W = 3, H = 50 };
	float zone[W * H], val[W * H];
	tp_header h = two_bands(W, H, 0.01, 60);
	tp_geo_grid g;
	double want = 0, dx, dy;
	tp_zones z;
	tp_err e;

	for (int i = 0; i < W * H; i++) {
		zone[i] = 7;
		val[i] = 1;
	}
	strcpy(h.crs, "EPSG:4326");
	g = tp_geo_grid_of(&h, TP_GEO_AUTO);
	ck_assert(g.geographic);
	for (int y = 0; y < H; y++) {
		tp_geo_spacing(&g, y, &dx, &dy);
		want += W * dx * dy;
	}
	ck_assert_int_eq(tp_zones_init(&z, &h, 0, TP_GEO_AUTO, &e), 0);
	feed(&z, zone, val, W, H);
	tp_zones_finish(&z);
	ck_assert_double_eq_tol(z.zone[0].area, want, want * 1e-12);
	/* about 0.01 degree squared at 59.75 N: 1113 m x 561 m a cell */
	ck_assert_double_eq_tol(z.zone[0].area / (W * H), 1113.0 * 561.6,
	    1113.0 * 561.6 * 0.01);
	tp_zones_free(&z);
	tp_header_free(&h);
}
END_TEST

/* Ten thousand zones, met in a scattered order, all found again. */
START_TEST(test_many_zones)
{
	enum { W = 100, H = 100 };
	float *zone = malloc(W * H * sizeof *zone), *val = malloc(W * H *
	    sizeof *val);
	tp_header h = two_bands(W, H, 1, H);
	tp_zones z;
	tp_err e;

	ck_assert(zone != NULL && val != NULL);
	for (int i = 0; i < W * H; i++) {
		zone[i] = (float)((i * 7919) % (W * H) - 5000);
		val[i] = (float)i;
	}
	ck_assert_int_eq(tp_zones_init(&z, &h, 0, TP_GEO_NO, &e), 0);
	feed(&z, zone, val, W, H);
	feed(&z, zone, val, W, H);	/* every zone a second cell */
	tp_zones_finish(&z);
	ck_assert_uint_eq(z.nzones, W * H);
	for (size_t i = 0; i < z.nzones; i++) {
		ck_assert_int_eq(z.zone[i].id, (int64_t)i - 5000);
		ck_assert_uint_eq(z.zone[i].cells, 2);
		ck_assert_double_eq(z.zone[i].acc[1].min,
		    z.zone[i].acc[1].max);
		ck_assert_double_eq(tp_zones_stddev(&z.zone[i].acc[1]), 0);
	}
	tp_zones_free(&z);
	tp_header_free(&h);
	free(zone);
	free(val);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("zones");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_checkerboard);
	tcase_add_test(tc, test_whole_values);
	tcase_add_test(tc, test_geographic_area);
	tcase_add_test(tc, test_many_zones);
	suite_add_tcase(s, tc);
	return tp_test_run(s);
}
