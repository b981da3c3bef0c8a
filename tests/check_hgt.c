/* check_hgt.c - unit tests for lib/tp_hgt: corners from names, the
 * georeference of 3 and 1 arc-second tiles, big-endian samples and voids,
 * and the refusals. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/tp_hgt.h"
#include "tp_test.h"

START_TEST(test_corners)
{
	static const struct { const char *name; int lat, lon; } c[] = {
		{ "N35W107.hgt", 35, -107 }, { "dir/s01e012.HGT", -1, 12 },
		{ "/a/b/N00E000.SRTMGL1.hgt", 0, 0 }, { "S90W180.hgt", -90, -180 },
		{ "N89E179.hgt", 89, 179 },
	};
	tp_err e;
	size_t i;
	int lat, lon;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		ck_assert_msg(tp_hgt_corner(c[i].name, &lat, &lon, &e) == 0, "%s: %s",
		    c[i].name, e.msg);
		ck_assert_int_eq(lat, c[i].lat);
		ck_assert_int_eq(lon, c[i].lon);
	}
	ck_assert(tp_hgt_is_name("x/N35W107.hgt"));
	ck_assert(tp_hgt_is_name("N35W107.HGT"));
	ck_assert(!tp_hgt_is_name("N35W107.hgt.zip"));
	ck_assert(!tp_hgt_is_name(".hgt"));
}
END_TEST

START_TEST(test_bad_names)
{
	static const char *const bad[] = { "dem.hgt", "N3W107.hgt", "X35W107.hgt",
	    "N35Q107.hgt", "N35W1x7.hgt", "N90E000.hgt", "S00E180.hgt", "N35",
	    "" };
	tp_err e;
	size_t i;
	int lat, lon;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(tp_hgt_corner(bad[i], &lat, &lon, &e) == -1, "%s",
		    bad[i]);
	tp_hgt_corner("dem.hgt", &lat, &lon, &e);
	ck_assert_ptr_nonnull(strstr(e.msg, "like N35W107.hgt"));
	ck_assert_ptr_nonnull(strstr(e.msg, "gdal_translate -of GTiff"));
}
END_TEST

/* A side x side tile in a temporary file: sample (x, y) is x - y, big-
 * endian, with one void at (1, 0). */
static FILE *
tile(int side)
{
	FILE *f = tmpfile();
	int x, y, v;

	ck_assert_ptr_nonnull(f);
	for (y = 0; y < side; y++)
		for (x = 0; x < side; x++) {
			v = y == 0 && x == 1 ? -32768 : x - y;
			putc((v >> 8) & 0xff, f);
			putc(v & 0xff, f);
		}
	rewind(f);
	return f;
}

START_TEST(test_read_tiles)
{
	static const int sides[] = { TP_HGT_SIDE_3, TP_HGT_SIDE_1 };
	int side = sides[_i];
	uint64_t len = 2ull * (uint64_t)side * (uint64_t)side;
	FILE *f = tile(side);
	tp_grid g;
	tp_err e;
	double cs = 1.0 / (side - 1);

	ck_assert_msg(tp_hgt_read(&g, f, len, "N35W107.hgt", &e) == 0, "%s", e.msg);
	fclose(f);
	ck_assert_int_eq(g.h.width, side);
	ck_assert_int_eq(g.h.height, side);
	ck_assert_double_eq(g.h.cellsize, cs);
	/* edge cell centres on whole degrees: -107 .. -106, 36 .. 35 */
	ck_assert_double_eq_tol(tp_cell_x(&g.h, 0), -107, 1e-12);
	ck_assert_double_eq_tol(tp_cell_x(&g.h, side - 1), -106, 1e-12);
	ck_assert_double_eq_tol(tp_cell_y(&g.h, 0), 36, 1e-12);
	ck_assert_double_eq_tol(tp_cell_y(&g.h, side - 1), 35, 1e-12);
	ck_assert_str_eq(g.h.crs, "EPSG:4326");
	ck_assert_str_eq(tp_header_units(&g.h), "m");
	ck_assert_float_eq(g.data[0], 0);
	ck_assert(isnan(g.data[1]));
	ck_assert_float_eq(g.data[2], 2);
	ck_assert_float_eq(g.data[(size_t)side * 5], -5);
	ck_assert_float_eq(g.data[(size_t)side * side - 1], 0);
	tp_grid_free(&g);
}
END_TEST

START_TEST(test_refusals)
{
	FILE *f = tile(TP_HGT_SIDE_3);
	tp_grid g;
	tp_err e;

	ck_assert_int_eq(tp_hgt_read(&g, f, 1000, "N35W107.hgt", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "this one 1000"));
	ck_assert_int_eq(tp_hgt_read(&g, f, 2ull * 1201 * 1201, "dem.hgt", &e), -1);
	fclose(f);
	/* the size is right, the bytes are not all there */
	f = tmpfile();
	fputs("short", f);
	rewind(f);
	ck_assert_int_eq(tp_hgt_read(&g, f, 2ull * 1201 * 1201, "N35W107.hgt",
	    &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "truncated in row 0"));
	fclose(f);
}
END_TEST

static Suite *
hgt_suite(void)
{
	Suite *s = suite_create("hgt");
	TCase *core = tcase_create("core");
	TCase *errors = tcase_create("errors");

	tcase_add_test(core, test_corners);
	tcase_add_loop_test(core, test_read_tiles, 0, 2);
	tcase_add_test(errors, test_bad_names);
	tcase_add_test(errors, test_refusals);
	suite_add_tcase(s, core);
	suite_add_tcase(s, errors);
	return s;
}

int
main(void)
{
	return tp_test_run(hgt_suite());
}
