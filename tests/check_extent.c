/* check_extent.c - unit tests for lib/tp_extent: which grids leave the
 * globe under a geographic CRS, and what the message says. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "geo/tp_extent.h"
#include "tp_test.h"

/* A w x w grid of cells cs with north-west corner (x, y) under crs. */
static int
check(const char *crs, double x, double y, double cs, int w, tp_err *e)
{
	tp_header h;
	int r;

	ck_assert_int_eq(tp_header_init(&h, w, w, e), 0);
	h.origin_x = x, h.origin_y = y, h.cellsize = cs;
	snprintf(h.crs, sizeof(h.crs), "%s", crs);
	r = tp_extent_check_geographic(&h, e);
	tp_header_free(&h);
	return r;
}

START_TEST(test_geographic)
{
	tp_err e;

	ck_assert_int_eq(check("EPSG:4326", -84.4, 36.7, 1.0 / 1200, 403, &e), 0);
	ck_assert_int_eq(check("EPSG:4326", -180, 90, 1, 180, &e), 0);
	/* 0..360 longitudes are in use; one degree past is not */
	ck_assert_int_eq(check("EPSG:4326", 180, 90, 1, 180, &e), 0);
	ck_assert_int_eq(check("EPSG:4326", 181, 90, 1, 180, &e), -1);
	ck_assert_int_eq(check("EPSG:4326", -181, 0, 1, 2, &e), -1);
	ck_assert_int_eq(check("EPSG:4326", 0, 91, 1, 2, &e), -1);
	ck_assert_int_eq(check("EPSG:4326", 0, -89, 1, 2, &e), -1);
	ck_assert_int_eq(check("EPSG:4326", 0, 3000, 30, 100, &e), -1);
	ck_assert_str_eq(e.msg, "a geographic CRS EPSG:4326 in degrees, but the "
	    "grid spans x 0..3000, y 0..3000, outside longitudes -180..360 and "
	    "latitudes -90..90 (a cell size in metres needs a projected CRS, "
	    "e.g. a UTM zone)");
}
END_TEST

START_TEST(test_projected_or_none)
{
	tp_err e;

	ck_assert_int_eq(check("EPSG:32633", 500000, 4649776, 30, 100, &e), 0);
	ck_assert_int_eq(check("", 0, 3000, 30, 100, &e), 0);
}
END_TEST

static Suite *
extent_suite(void)
{
	Suite *s = suite_create("extent");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_geographic);
	tcase_add_test(core, test_projected_or_none);
	suite_add_tcase(s, core);
	return s;
}

int
main(void)
{
	return tp_test_run(extent_suite());
}
