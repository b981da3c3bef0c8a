/* check_latitude.c - unit tests of tp_latitude: geographic rows, UTM
 * against PROJ itself, tiles against the window of a larger grid, the
 * user's edges, and the errors. */
#include <check.h>
#include <math.h>
#include <proj.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geo/tp_latitude.h"
#include "tp_test.h"

/* The latitudes of every row of h, row-major; fails the test on error. */
static double *
all_rows(const tp_header *h, double south, double north)
{
	double *lat = malloc((size_t)(h->width * h->height) * sizeof *lat);
	tp_latitude *l;
	tp_err e;

	ck_assert_ptr_nonnull(lat);
	ck_assert_msg(tp_latitude_open(&l, h, south, north, &e) == 0, "%s",
	    e.msg);
	for (int64_t y = 0; y < h->height; y++)
		ck_assert_msg(tp_latitude_row(l, y, lat + y * h->width, &e) ==
		    0, "%s", e.msg);
	tp_latitude_close(l);
	return lat;
}

/* Opening fails with a message containing want. */
static void
open_fails(const tp_header *h, double south, double north, const char *want)
{
	tp_latitude *l = (tp_latitude *)1;
	tp_err e;

	e.msg[0] = '\0';
	ck_assert_int_eq(tp_latitude_open(&l, h, south, north, &e), -1);
	ck_assert_ptr_null(l);
	ck_assert_msg(strstr(e.msg, want) != NULL, "want '%s', got '%s'", want,
	    e.msg);
}

/* A geographic grid: each row is its centre's y, clamped at the poles. */
START_TEST(test_geographic)
{
	tp_header h = tp_test_header(5, 4, 0.5, 10, 50.25);
	double *lat;

	snprintf(h.crs, sizeof h.crs, "EPSG:4326");
	lat = all_rows(&h, NAN, NAN);
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 5; x++)
			ck_assert_double_eq(lat[y * 5 + x], 50 - 0.5 * y);
	free(lat);
	h.origin_y = 91;			/* row 0 centred on 90.5 N */
	h.cellsize = 1;
	lat = all_rows(&h, NAN, NAN);
	ck_assert_double_eq(lat[0], 90);
	ck_assert_double_eq(lat[5], 89.5);
	free(lat);
	h.origin_y = -87;			/* the south pole */
	lat = all_rows(&h, NAN, NAN);
	ck_assert_double_eq(lat[2 * 5], -89.5);
	ck_assert_double_eq(lat[3 * 5 + 4], -90);
	free(lat);
	/* geographic by GEOKEYS, without a CRS line */
	h.crs[0] = '\0';
	h.origin_y = 0.5;
	ck_assert_int_eq(tp_header_set_extra(&h, "GEOKEYS",
	    "1.1.0 1024=s:2 2048=s:32767", NULL), 0);
	lat = all_rows(&h, NAN, NAN);
	ck_assert_double_eq(lat[0], 0);
	ck_assert_double_eq(lat[3 * 5], -3);
	free(lat);
	tp_header_free(&h);
}
END_TEST

/* The latitude PROJ gives for point (x, y) of crs, directly. */
static void
proj_direct(PJ *p, double x, double y, double *lat)
{
	PJ_COORD c = proj_coord(x, y, 0, 0);

	c = proj_trans(p, PJ_FWD, c);
	*lat = c.lp.phi;
}

static PJ *
proj_open(PJ_CONTEXT *ctx, const char *crs)
{
	PJ *p = proj_create_crs_to_crs(ctx, crs, "EPSG:4326", NULL), *n;

	ck_assert_ptr_nonnull(p);
	n = proj_normalize_for_visualization(ctx, p);
	proj_destroy(p);
	ck_assert_ptr_nonnull(n);
	return n;
}

/* UTM 33N around northing 5000000 (45 N), 30 m cells: every cell within
 * 1e-7 degrees of PROJ's own transform of its centre. */
START_TEST(test_utm)
{
	enum { W = 300, H = 200 };
	tp_header h = tp_test_header(W, H, 30, 431000, 5003000);
	PJ_CONTEXT *ctx = proj_context_create();
	PJ *p;
	double *lat, want, worst = 0;

	snprintf(h.crs, sizeof h.crs, "EPSG:32633");
	lat = all_rows(&h, NAN, NAN);
	p = proj_open(ctx, h.crs);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			proj_direct(p, tp_cell_x(&h, x), tp_cell_y(&h, y), &want);
			worst = fmax(worst, fabs(lat[y * W + x] - want));
		}
	ck_assert_msg(worst < 1e-7, "worst error %g degrees", worst);
	ck_assert(lat[0] > 45.1 && lat[0] < 45.2);
	ck_assert(lat[(H - 1) * W] < lat[0]);	/* south is south */
	free(lat);
	/* the same CRS as a PROJ string: the same ground */
	snprintf(h.crs, sizeof h.crs, "+proj=utm +zone=33 +datum=WGS84 "
	    "+units=m +no_defs +type=crs");
	lat = all_rows(&h, NAN, NAN);
	proj_direct(p, tp_cell_x(&h, 7), tp_cell_y(&h, 9), &want);
	ck_assert_double_eq_tol(lat[9 * W + 7], want, 1e-7);
	free(lat);
	/* a GEOKEYS line naming EPSG:32633, without a CRS line: the same */
	{
		double *lat2;

		snprintf(h.crs, sizeof h.crs, "EPSG:32633");
		lat = all_rows(&h, NAN, NAN);
		h.crs[0] = '\0';
		ck_assert_int_eq(tp_header_set_extra(&h, "GEOKEYS",
		    "1.1.0 1024=s:1 3072=s:32633", NULL), 0);
		lat2 = all_rows(&h, NAN, NAN);
		ck_assert(memcmp(lat, lat2, W * H * sizeof *lat) == 0);
		free(lat);
		free(lat2);
	}
	proj_destroy(p);
	proj_context_destroy(ctx);
	tp_header_free(&h);
}
END_TEST

/* A tile with a shifted ORIGIN gets bit for bit the latitudes of that
 * window of the larger grid: projected (through the lattice), geographic,
 * and geographic on another datum (through PROJ). */
START_TEST(test_tile)
{
	enum { W = 300, H = 200, X0 = 37, Y0 = 45, TW = 100, TH = 61 };
	static const char *const crs[] = { "EPSG:32633", "EPSG:3857",
	    "EPSG:4326", "EPSG:4314" };
	tp_header h, t;
	double *big, *tile;

	for (size_t k = 0; k < sizeof crs / sizeof crs[0]; k++) {
		int deg = k >= 2;
		double cs = deg ? 1.0 / 1024 : 30, ox = deg ? 14 : 431000,
		    oy = deg ? 45 : 5003000;
		h = tp_test_header(W, H, cs, ox, oy);
		t = tp_test_header(TW, TH, cs, ox + X0 * cs, oy - Y0 * cs);
		snprintf(h.crs, sizeof h.crs, "%s", crs[k]);
		snprintf(t.crs, sizeof t.crs, "%s", crs[k]);
		big = all_rows(&h, NAN, NAN);
		tile = all_rows(&t, NAN, NAN);
		for (int y = 0; y < TH; y++)
			ck_assert_msg(memcmp(tile + y * TW,
			    big + (Y0 + y) * W + X0, TW * sizeof *tile) == 0,
			    "%s: tile row %d", crs[k], y);
		free(big);
		free(tile);
		tp_header_free(&h);
		tp_header_free(&t);
	}
}
END_TEST

/* --latitude: rows evenly between the edges, whatever the CRS says. */
START_TEST(test_edges)
{
	tp_header h = tp_test_header(3, 4, 1, 0, 4);
	double *lat;

	lat = all_rows(&h, 10, 20);
	ck_assert_double_eq(lat[0], 18.75);
	ck_assert_double_eq(lat[2], 18.75);
	ck_assert_double_eq(lat[1 * 3], 16.25);
	ck_assert_double_eq(lat[2 * 3], 13.75);
	ck_assert_double_eq(lat[3 * 3 + 1], 11.25);
	free(lat);
	snprintf(h.crs, sizeof h.crs, "EPSG:32633");	/* the edges win */
	lat = all_rows(&h, -60, -20);
	ck_assert_double_eq(lat[0], -25);
	ck_assert_double_eq(lat[3 * 3 + 2], -55);
	free(lat);
	lat = all_rows(&h, 45, 45);			/* one latitude */
	ck_assert_double_eq(lat[3 * 3], 45);
	free(lat);
	tp_header_free(&h);
}
END_TEST

START_TEST(test_no_crs)
{
	tp_header h = tp_test_header(3, 4, 1, 0, 4);

	open_fails(&h, NAN, NAN, "the grid has no CRS: give its latitude range "
	    "SOUTH,NORTH");
	ck_assert_int_eq(tp_header_set_extra(&h, "GEOKEYS",
	    "1.1.0 1024=s:1 2048=s:4269 3072=s:32767", NULL), 0);
	open_fails(&h, NAN, NAN, "GEOKEYS line without an EPSG code");
	open_fails(&h, 10, NAN, "give both");
	open_fails(&h, NAN, 10, "give both");
	open_fails(&h, 20, 10, "latitudes 20,10: the south edge is north");
	open_fails(&h, -91, 10, "within -90..90");
	open_fails(&h, 0, INFINITY, "within -90..90");
	tp_header_free(&h);
}
END_TEST

START_TEST(test_bad_crs)
{
	static const char *const bad[] = { "EPSG:999999", "bogus",
	    "GEOGCS[\"broken\"" };
	tp_header h = tp_test_header(3, 4, 1, 0, 4);
	char want[300];

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(h.crs, sizeof h.crs, "%s", bad[i]);
		snprintf(want, sizeof want, "CRS %s: PROJ cannot read it",
		    bad[i]);
		open_fails(&h, NAN, NAN, want);
	}
	tp_header_free(&h);
}
END_TEST

/* A node PROJ cannot invert (UTM 100,000 km east of its meridian) is an
 * error naming the CRS, not a wrong number. */
START_TEST(test_bad_transform)
{
	tp_header h = tp_test_header(4, 4, 1000, 1e8, 5e6);
	tp_latitude *l;
	tp_err e;
	double lat[4];

	snprintf(h.crs, sizeof h.crs, "EPSG:32633");
	ck_assert_int_eq(tp_latitude_open(&l, &h, NAN, NAN, &e), 0);
	ck_assert_int_eq(tp_latitude_row(l, 0, lat, &e), -1);
	ck_assert_msg(strstr(e.msg, "CRS EPSG:32633: PROJ cannot find the "
	    "latitudes near 100000000,") != NULL, "%s", e.msg);
	ck_assert_int_eq(tp_latitude_row(l, 4, lat, &e), -1);
	ck_assert_msg(strstr(e.msg, "rows 0..3") != NULL, "%s", e.msg);
	tp_latitude_close(l);
	h.origin_x = 1e25;		/* no node index: refused, not undefined */
	open_fails(&h, NAN, NAN, "too far from its CRS's origin");
	h.origin_x = 500000;
	h.origin_y = 1e25;
	ck_assert_int_eq(tp_latitude_open(&l, &h, NAN, NAN, &e), 0);
	ck_assert_int_eq(tp_latitude_row(l, 0, lat, &e), -1);
	ck_assert_msg(strstr(e.msg, "too far from its CRS's origin") != NULL,
	    "%s", e.msg);
	tp_latitude_close(l);
	tp_header_free(&h);
}
END_TEST

static Suite *
latitude_suite(void)
{
	Suite *s = suite_create("latitude");
	TCase *core = tcase_create("core"), *err = tcase_create("errors");

	tcase_add_test(core, test_geographic);
	tcase_add_test(core, test_utm);
	tcase_add_test(core, test_tile);
	tcase_add_test(core, test_edges);
	tcase_add_test(err, test_no_crs);
	tcase_add_test(err, test_bad_crs);
	tcase_add_test(err, test_bad_transform);
	suite_add_tcase(s, core);
	suite_add_tcase(s, err);
	return s;
}

int
main(void)
{
	return tp_test_run(latitude_suite());
}
