/* check_gpkg.c - unit tests of tp_gpkg: the GeoPackage geometry blobs
 * (header, envelope, WKB) of a line and of a multipolygon, byte by
 * byte. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vector/tp_gpkg.h"
#include "vector/tp_vecgeom.h"
#include "tp_test.h"

/* A two-point LineString: 'GP', version 0, flags 3 (little-endian, xy
 * envelope), srs_id, minx maxx miny maxy, then WKB 01 02000000 02000000
 * and the four doubles. */
START_TEST(test_blob)
{
	static const double xy[4] = { 1, 2, 3, -4 };
	tp_vecgeom g = { .type = TP_VG_LINE, .xy = xy, .npts = 2 };
	unsigned char buf[128];
	double d;

	ck_assert_uint_eq(tp_gpkg_blob(&g, 32633, NULL), 40 + 9 + 32);
	ck_assert_uint_eq(tp_gpkg_blob(&g, 32633, buf), 81);
	ck_assert(memcmp(buf, "GP\0\3\x79\x7f\0\0", 8) == 0);	/* 32633 */
	memcpy(&d, buf + 8, 8);
	ck_assert_double_eq(d, 1);		/* minx */
	memcpy(&d, buf + 16, 8);
	ck_assert_double_eq(d, 3);		/* maxx */
	memcpy(&d, buf + 24, 8);
	ck_assert_double_eq(d, -4);		/* miny */
	memcpy(&d, buf + 32, 8);
	ck_assert_double_eq(d, 2);		/* maxy */
	ck_assert(memcmp(buf + 40, "\1\2\0\0\0\2\0\0\0", 9) == 0);
	memcpy(&d, buf + 73, 8);
	ck_assert_double_eq(d, -4);
}
END_TEST

/* A MultiPolygon of one square with a square hole: 6, 1 polygon, 3, two
 * rings of five points. */
START_TEST(test_blob_poly)
{
	static const double xy[20] = { 0, 0, 4, 0, 4, 4, 0, 4, 0, 0,
	    1, 1, 1, 2, 2, 2, 2, 1, 1, 1 };
	static const size_t ring[2] = { 5, 5 }, poly[1] = { 2 };
	tp_vecgeom g = { .type = TP_VG_MPOLY, .xy = xy, .npts = 10,
	    .ring = ring, .nrings = 2, .poly = poly, .npolys = 1 };
	unsigned char buf[256];

	ck_assert_uint_eq(tp_gpkg_blob(&g, -1, buf), 40 + 9 + 9 + 8 + 160);
	ck_assert(memcmp(buf + 40, "\1\6\0\0\0\1\0\0\0\1\3\0\0\0\2\0\0\0\5",
	    19) == 0);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("gpkg");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_blob);
	tcase_add_test(core, test_blob_poly);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
