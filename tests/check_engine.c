/* check_engine.c - unit tests of tp_engine: the sides an engine takes,
 * the nearest such size, fitting a grid to it. Values by hand. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/tp_engine.h"
#include "tp_test.h"

START_TEST(test_engine_sides)
{
	int64_t lo, hi;

	ck_assert(tp_engine_side_ok(TP_ENGINE_UNITY, 33));
	ck_assert(tp_engine_side_ok(TP_ENGINE_UNITY, 4097));
	ck_assert(!tp_engine_side_ok(TP_ENGINE_UNITY, 17));
	ck_assert(!tp_engine_side_ok(TP_ENGINE_UNITY, 8193));
	ck_assert(!tp_engine_side_ok(TP_ENGINE_UNITY, 1024));
	ck_assert(tp_engine_side_ok(TP_ENGINE_UNREAL, 8129));
	ck_assert(!tp_engine_side_ok(TP_ENGINE_UNREAL, 1025));
	tp_engine_nearest(TP_ENGINE_UNITY, 1000, &lo, &hi);
	ck_assert(lo == 513 && hi == 1025);
	tp_engine_nearest(TP_ENGINE_UNITY, 9000, &lo, &hi);
	ck_assert(lo == 4097 && hi == 0);
	tp_engine_nearest(TP_ENGINE_UNREAL, 100, &lo, &hi);
	ck_assert(lo == 0 && hi == 127);
	tp_engine_nearest(TP_ENGINE_UNREAL, 2017, &lo, &hi);
	ck_assert(lo == 2017 && hi == 2017);
}
END_TEST

START_TEST(test_engine_fit)
{
	int64_t w, h;
	tp_err e;

	ck_assert_int_eq(tp_engine_fit(TP_ENGINE_UNITY, 513, 513, TP_FIT_CHECK,
	    &w, &h, &e), 0);
	ck_assert(w == 513 && h == 513);
	ck_assert_int_eq(tp_engine_fit(TP_ENGINE_UNITY, 600, 400, TP_FIT_CHECK,
	    &w, &h, &e), -1);
	ck_assert_str_eq(e.msg, "unity wants a square of 2^n+1 samples (33 .. "
	    "4097): 600x400 does not fit; nearest: 513 or 1025, or use "
	    "padding or cropping");
	ck_assert_int_eq(tp_engine_fit(TP_ENGINE_UNITY, 600, 400, TP_FIT_PAD,
	    &w, &h, &e), 0);
	ck_assert(w == 1025 && h == 1025);
	ck_assert_int_eq(tp_engine_fit(TP_ENGINE_UNITY, 600, 400, TP_FIT_CROP,
	    &w, &h, &e), 0);
	ck_assert(w == 257 && h == 257);
	ck_assert_int_eq(tp_engine_fit(TP_ENGINE_UNREAL, 600, 253,
	    TP_FIT_PAD, &w, &h, &e), 0);
	ck_assert(w == 1009 && h == 253);
	ck_assert_int_eq(tp_engine_fit(TP_ENGINE_NONE, 7, 3, TP_FIT_CHECK,
	    &w, &h, &e), 0);
	ck_assert(w == 7 && h == 3);
	ck_assert_int_eq(tp_engine_fit(TP_ENGINE_UNITY, 5000, 5000,
	    TP_FIT_PAD, &w, &h, &e), -1);
	ck_assert_str_eq(e.msg, "unity: no size to pad 5000x5000 to");
	/* what fitting changes: 403x344 to 253x253 keeps 64009 of 138632
	 * cells (54% dropped); 60x50 to 65x65 adds 1225 to 3000 (41%) */
	ck_assert_double_eq_tol(tp_engine_fit_change(403, 344, 253, 253),
	    (138632.0 - 64009) / 138632, 1e-15);
	ck_assert_double_eq_tol(tp_engine_fit_change(60, 50, 65, 65),
	    1225.0 / 3000, 1e-15);
	ck_assert(tp_engine_fit_change(65, 65, 65, 65) == 0);
}
END_TEST

START_TEST(test_engine_hints)
{
	const char *name[8];
	double v[8];
	tp_err e;
	int n;

	/* Unreal: 1009 samples of 2 m, 0 .. 1024 m: scale 200 cm, Z scale
	 * 1024 x 100 / 512 = 200, actor at 512 m */
	n = tp_engine_hints(TP_ENGINE_UNREAL, 1009, 1009, 2, 2, 0, 1024, name,
	    v);
	ck_assert_int_eq(n, 4);
	ck_assert_str_eq(name[2], "scale_z");
	ck_assert(v[0] == 200 && v[2] == 200 && v[3] == 51200);
	n = tp_engine_hints(TP_ENGINE_UNITY, 513, 257, 4, 4, 10, 110, name, v);
	ck_assert(n == 4 && v[0] == 2048 && v[1] == 1024 && v[2] == 100 &&
	    v[3] == 10);
	/* cells 3 m east-west, 4 m north-south: each axis its own */
	n = tp_engine_hints(TP_ENGINE_UNITY, 513, 257, 3, 4, 10, 110, name, v);
	ck_assert(n == 4 && v[0] == 1536 && v[1] == 1024);
	n = tp_engine_hints(TP_ENGINE_UNREAL, 127, 127, 3, 4, 0, 512, name, v);
	ck_assert(n == 4 && v[0] == 300 && v[1] == 400);
	n = tp_engine_hints(TP_ENGINE_GODOT, 65, 65, 3, 4, 0, 512, name, v);
	ck_assert_int_eq(n, 4);	/* no one cell_size for cells not square */
	ck_assert_str_eq(name[2], "map_scale_x");
	ck_assert(v[2] == 3 && v[3] == 4);
	n = tp_engine_hints(TP_ENGINE_GODOT, 65, 65, 2, 2, 0, 512, name, v);
	ck_assert(n == 5 && v[4] == 2);
	ck_assert_str_eq(name[4], "cell_size");
	ck_assert(tp_engine_flip(TP_ENGINE_UNITY));
	/* Godot reads 16-bit PNG as 8 bits: r16 (or r32) only, r16 the
	 * default, as Unity's */
	ck_assert_int_eq(tp_engine_format_ok(TP_ENGINE_GODOT, TP_EXPORT_PNG16,
	    &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "as 8 bits"));
	ck_assert_int_eq(tp_engine_format_ok(TP_ENGINE_GODOT, TP_EXPORT_R16,
	    &e), 0);
	ck_assert_int_eq(tp_engine_default_format(TP_ENGINE_GODOT),
	    TP_EXPORT_R16);
	ck_assert_int_eq(tp_engine_default_format(TP_ENGINE_UNITY),
	    TP_EXPORT_R16);
	ck_assert_int_eq(tp_engine_default_format(TP_ENGINE_UNREAL),
	    TP_EXPORT_PNG16);
	ck_assert_int_eq(tp_engine_default_format(TP_ENGINE_NONE),
	    TP_EXPORT_PNG16);
	ck_assert(!tp_engine_flip(TP_ENGINE_UNREAL));
}
END_TEST

/* The sidecar from a header and an engine: its grid, the engine's row
 * order and hints (Unity: terrain height = the range in metres). */
START_TEST(test_engine_json)
{
	tp_header h;
	tp_err e;
	char *t;

	ck_assert_int_eq(tp_header_init(&h, 65, 65, &e), 0);
	h.cellsize = 2;
	t = tp_engine_json(TP_ENGINE_UNITY, &h, "r16", 65, 65, 0, 50, 2, 1);
	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_nonnull(strstr(t, "\"width\": 65"));
	ck_assert_ptr_nonnull(strstr(t, "\"engine\": \"unity\""));
	ck_assert_ptr_nonnull(strstr(t, "\"first_row\": \"south\""));
	ck_assert_ptr_nonnull(strstr(t, "\"terrain_height\": 100.0"));
	free(t);
	tp_header_free(&h);
}
END_TEST

/* A geographic grid's cells in metres, per axis, at the file's middle
 * row: on the jacksboro DEM's grid (3" cells, north edge 36.7329 N), a
 * 257-row file's middle row lies at 36.6259 N, where a 3" cell is
 * 111319.49 cos(lat) / W / 1200 = 74.54 m east-west and 92.48 m
 * north-south; Unity's terrain is 256 of each wide and long. */
START_TEST(test_engine_geographic)
{
	tp_header h;
	tp_err e;
	char *t;
	int oom;

	ck_assert_int_eq(tp_header_init(&h, 403, 344, &e), 0);
	h.cellsize = 1.0 / 1200;
	h.origin_x = -84.41375;
	h.origin_y = 36.73291666666667;
	ck_assert_ptr_null(tp_engine_geo_text(TP_ENGINE_UNITY, &h, 257,
	    &oom));	/* no CRS: projected */
	ck_assert_int_eq(oom, 0);
	strcpy(h.crs, "EPSG:4326");
	t = tp_engine_json(TP_ENGINE_UNITY, &h, "r16", 257, 257, 0, 1, 1, 0);
	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_null(strstr(t, "\"cellsize_m\""));
	ck_assert_ptr_nonnull(strstr(t, "\"cellsize_x_m\": 74.53"));
	ck_assert_ptr_nonnull(strstr(t, "\"cellsize_y_m\": 92.47"));
	ck_assert_ptr_nonnull(strstr(t, "\"terrain_width\": 19081."));
	ck_assert_ptr_nonnull(strstr(t, "\"terrain_length\": 23673."));
	free(t);
	t = tp_engine_geo_text(TP_ENGINE_UNITY, &h, 257, &oom);
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(t, "geographic grid: cells 74.5 x 92.5 m at 36.6 N; "
	    "the sidecar's terrain_width and terrain_length use both");
	free(t);
	tp_header_free(&h);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("engine");
	TCase *en = tcase_create("engine");

	tcase_add_test(en, test_engine_json);
	tcase_add_test(en, test_engine_sides);
	tcase_add_test(en, test_engine_fit);
	tcase_add_test(en, test_engine_hints);
	tcase_add_test(en, test_engine_geographic);
	suite_add_tcase(s, en);
	return tp_test_run(s);
}
