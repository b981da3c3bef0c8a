/* check_export.c - unit tests of tp_export: levels, byte orders, the
 * range, the sidecar, cell sizes in metres. Values by hand. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/tp_export.h"
#include "tp_test.h"

/* Levels: floor((v - lo) 65535 / (hi - lo) + 0.5), clamped; NaN 0. */
START_TEST(test_levels)
{
	ck_assert_uint_eq(tp_export_q16(0, 0, 3), 0);
	ck_assert_uint_eq(tp_export_q16(1, 0, 3), 21845);	/* exactly */
	ck_assert_uint_eq(tp_export_q16(1.5, 0, 3), 32768);	/* 32767.5 up */
	ck_assert_uint_eq(tp_export_q16(3, 0, 3), 65535);
	ck_assert_uint_eq(tp_export_q16(-7, 0, 3), 0);
	ck_assert_uint_eq(tp_export_q16(9, 0, 3), 65535);
	ck_assert_uint_eq(tp_export_q16(NAN, 0, 3), 0);
	ck_assert_uint_eq(tp_export_q16(INFINITY, 0, 3), 65535);
	ck_assert_uint_eq(tp_export_q16(5, 5, 5), 0);	/* flat */
	/* 12.5 .. 1803 m: 1000 m is level floor(987.5 x 65535 / 1790.5 +
	 * 0.5) = floor(36143.87...) = 36144 */
	ck_assert_uint_eq(tp_export_q16(1000, 12.5, 1803), 36144);
}
END_TEST

/* Every level reads back within half a step. */
START_TEST(test_levels_round_trip)
{
	double lo = -12.25, hi = 1803, step = (hi - lo) / 65535;

	for (int i = 0; i <= 100000; i++) {
		double v = lo + (hi - lo) * i / 100000.0;
		double back = lo + tp_export_q16(v, lo, hi) * step;

		ck_assert(fabs(back - v) <= step / 2 * (1 + 1e-9));
	}
}
END_TEST

START_TEST(test_byte_orders)
{
	const float v[2] = { 1, NAN };
	unsigned char b[8];
	uint16_t q[2];

	tp_export_encode(TP_EXPORT_R16, v, 2, 0, 3, b);	/* 21845 = 0x5555 */
	ck_assert_mem_eq(b, "\x55\x55\x00\x00", 4);
	tp_export_encode(TP_EXPORT_R16, (const float[]){ 0.00005f }, 1, 0, 1, b);
	ck_assert_mem_eq(b, "\x03\x00", 2);	/* 3.27675 -> 3, low first */
	tp_export_encode(TP_EXPORT_PGM, (const float[]){ 0.00005f }, 1, 0, 1, b);
	ck_assert_mem_eq(b, "\x00\x03", 2);	/* big-endian */
	tp_export_encode(TP_EXPORT_PNG16, v, 2, 0, 3, q);	/* machine order */
	ck_assert_uint_eq(q[0], 21845);
	ck_assert_uint_eq(q[1], 0);
	/* float32 1.0 is 0x3f800000; NaN becomes lo, -2 = 0xc0000000 */
	tp_export_encode(TP_EXPORT_R32, v, 2, -2, 3, b);
	ck_assert_mem_eq(b, "\x00\x00\x80\x3f\x00\x00\x00\xc0", 8);
}
END_TEST

/* A mask's 8-bit levels: the heightmap's rule on 255 steps, clamped, NaN
 * and an empty range 0. */
START_TEST(test_mask_levels)
{
	const float v[] = { 0, 1, 2, 0.5f / 255, 0.49f / 255, -1, 3, NAN,
	    127.5f / 255 };
	unsigned char b[9];

	ck_assert_uint_eq(tp_export_sample_bytes(TP_EXPORT_PNG8), 1);
	ck_assert_uint_eq(tp_export_encode(TP_EXPORT_PNG8, v, 9, 0, 2, b), 1);
	ck_assert_mem_eq(b, "\x00\x80\xff\x00\x00\x00\xff\x00\x40", 9);
	tp_export_encode(TP_EXPORT_PNG8, v, 9, 0, 1, b);
	ck_assert_mem_eq(b, "\x00\xff\xff\x01\x00\x00\xff\x00\x80", 9);
	tp_export_encode(TP_EXPORT_PNG8, v, 3, 1, 1, b);
	ck_assert_mem_eq(b, "\x00\x00\x00", 3);
}
END_TEST

START_TEST(test_range)
{
	const float v[] = { 3, NAN, -1, INFINITY, 2, -INFINITY };
	tp_export_range r;
	double lo, hi;

	tp_export_range_init(&r);
	tp_export_range_get(&r, &lo, &hi);
	ck_assert(lo == 0 && hi == 0);	/* nothing finite */
	tp_export_range_add(&r, v, 6);
	tp_export_range_get(&r, &lo, &hi);
	ck_assert(lo == -1 && hi == 3);
	ck_assert_int_eq(r.nan, 1);
}
END_TEST

START_TEST(test_sidecar_json)
{
	tp_export_info in = { .width = 65, .height = 33, .cellsize = 2,
	    .cellsize_x_m = 2, .cellsize_y_m = 2, .origin_x = 10, .origin_y = 20, .crs = "EPSG:32633",
	    .units = "m", .format = "r16", .engine = "unity", .lo = 0,
	    .hi = 100, .flip = 1, .nhint = 1, .hint_name = { "terrain_height" },
	    .hint = { 100 } };
	char *t = tp_export_json(&in);

	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_nonnull(strstr(t, "\"width\": 65"));
	ck_assert_ptr_nonnull(strstr(t, "\"cellsize_m\": 2.0"));
	ck_assert_ptr_nonnull(strstr(t, "\"cellsize_x_m\": 2.0"));
	ck_assert_ptr_nonnull(strstr(t, "\"crs\": \"EPSG:32633\""));
	ck_assert_ptr_nonnull(strstr(t, "\"byte_order\": \"little-endian\""));
	ck_assert_ptr_nonnull(strstr(t, "\"first_row\": \"south\""));
	ck_assert_ptr_nonnull(strstr(t, "\"terrain_height\": 100.0"));
	ck_assert_int_eq(t[strlen(t) - 1], '\n');
	free(t);
}
END_TEST

/* The sidecar's metres a cell: CELLSIZE when projected; on EPSG:4326 a
 * 1/1200 degree cell on the equator spans 1/1200 of WGS84's 110574.27 m
 * a degree north-south there (a (1 - e^2) pi / 180), 92.145 m, and
 * 111319.49 / 1200 = 92.766 m east-west (a pi / 180); at 60 N east-west
 * is about half that: 111319.49 cos 60 / W / 1200 with W^2 = 1 - e2 3/4,
 * 46.46 m. */
START_TEST(test_cell_metres)
{
	tp_header h;
	tp_err e;
	double x, y, lat;

	ck_assert_int_eq(tp_header_init(&h, 4, 1, &e), 0);
	h.cellsize = 30;
	tp_export_cell_metres(&h, 1, &x, &y, &lat);
	ck_assert(x == 30 && y == 30 && isnan(lat));
	strcpy(h.crs, "EPSG:4326");
	h.cellsize = 1.0 / 1200;
	h.origin_y = h.cellsize / 2;	/* row 0's centre on the equator */
	tp_export_cell_metres(&h, 1, &x, &y, &lat);
	ck_assert_double_eq_tol(y, 110574.27 / 1200, 0.001);
	ck_assert_double_eq_tol(x, 111319.49 / 1200, 0.001);
	ck_assert_double_eq_tol(lat, 0, 1e-12);
	h.origin_y = 60 + h.cellsize / 2;
	tp_export_cell_metres(&h, 1, &x, &y, &lat);
	ck_assert_double_eq_tol(x, 111319.49 * 0.5 /
	    sqrt(1 - 0.00669437999014 * 0.75) / 1200, 0.001);
	tp_header_free(&h);
}
END_TEST

/* texport's range line: the float range in its fewest digits, the unit
 * after it when the header has one; OUT.json beside OUT. */
START_TEST(test_range_text)
{
	tp_header h;
	tp_err e;
	char *t;

	ck_assert_int_eq(tp_header_init(&h, 4, 1, &e), 0);
	t = tp_export_range_text(TP_EXPORT_PNG16, 0.1f, 900, &h);
	ck_assert_str_eq(t, "height 0..65535 = 0.1..900");
	free(t);
	ck_assert_int_eq(tp_header_set_extra(&h, "UNITS", "m", &e), 0);
	t = tp_export_range_text(TP_EXPORT_R32, -1 / 3.f, 12.5, &h);
	ck_assert_str_eq(t, "heights -0.33333334..12.5 m as float32");
	free(t);
	tp_header_free(&h);
	t = tp_export_sidecar_name("a/b.png");
	ck_assert_str_eq(t, "a/b.png.json");
	free(t);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("export");
	TCase *ex = tcase_create("export");

	tcase_add_test(ex, test_levels);
	tcase_add_test(ex, test_levels_round_trip);
	tcase_add_test(ex, test_byte_orders);
	tcase_add_test(ex, test_mask_levels);
	tcase_add_test(ex, test_range);
	tcase_add_test(ex, test_sidecar_json);
	tcase_add_test(ex, test_range_text);
	tcase_add_test(ex, test_cell_metres);
	suite_add_tcase(s, ex);
	return tp_test_run(s);
}
