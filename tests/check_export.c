/* check_export.c - unit tests for texport's modules: tp_export (levels,
 * byte orders, the sidecar), tp_engine (sizes, nearest sizes, fitting),
 * tp_splat (groups files, largest-remainder weights, the box window) and
 * tp_normalmap (levels, a plane's normal). Values by hand. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tp_engine.h"
#include "tp_export.h"
#include "tp_normalmap.h"
#include "tp_splat.h"

/* Levels: floor((v - lo) 65535 / (hi - lo) + 0.5), clamped; NaN 0. */
START_TEST(levels)
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
START_TEST(levels_round_trip)
{
	double lo = -12.25, hi = 1803, step = (hi - lo) / 65535;

	for (int i = 0; i <= 100000; i++) {
		double v = lo + (hi - lo) * i / 100000.0;
		double back = lo + tp_export_q16(v, lo, hi) * step;

		ck_assert(fabs(back - v) <= step / 2 * (1 + 1e-9));
	}
}
END_TEST

START_TEST(byte_orders)
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

START_TEST(range)
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

START_TEST(sidecar_json)
{
	tp_export_info in = { .width = 65, .height = 33, .cellsize = 2,
	    .cellsize_m = 2, .origin_x = 10, .origin_y = 20, .crs = "EPSG:32633",
	    .units = "m", .format = "r16", .engine = "unity", .lo = 0,
	    .hi = 100, .flip = 1, .nhint = 1, .hint_name = { "terrain_height" },
	    .hint = { 100 } };
	char *t = tp_export_json(&in);

	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_nonnull(strstr(t, "\"width\": 65"));
	ck_assert_ptr_nonnull(strstr(t, "\"crs\": \"EPSG:32633\""));
	ck_assert_ptr_nonnull(strstr(t, "\"byte_order\": \"little-endian\""));
	ck_assert_ptr_nonnull(strstr(t, "\"first_row\": \"south\""));
	ck_assert_ptr_nonnull(strstr(t, "\"terrain_height\": 100.0"));
	ck_assert_int_eq(t[strlen(t) - 1], '\n');
	free(t);
}
END_TEST

START_TEST(engine_sides)
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

START_TEST(engine_fit)
{
	int64_t w, h;
	tp_err e;

	ck_assert_int_eq(tp_engine_fit(TP_ENGINE_UNITY, 513, 513, TP_FIT_CHECK,
	    &w, &h, &e), 0);
	ck_assert(w == 513 && h == 513);
	ck_assert_int_eq(tp_engine_fit(TP_ENGINE_UNITY, 600, 400, TP_FIT_CHECK,
	    &w, &h, &e), -1);
	ck_assert_str_eq(e.msg, "unity wants a square of 2^n+1 samples (33 .. "
	    "4097): 600x400 does not fit; nearest: 513 or 1025 (or --pad, "
	    "--crop)");
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
}
END_TEST

START_TEST(engine_hints)
{
	const char *name[8];
	double v[8];
	int n;

	/* Unreal: 1009 samples of 2 m, 0 .. 1024 m: scale 200 cm, Z scale
	 * 1024 x 100 / 512 = 200, actor at 512 m */
	n = tp_engine_hints(TP_ENGINE_UNREAL, 1009, 1009, 2, 0, 1024, name, v);
	ck_assert_int_eq(n, 4);
	ck_assert_str_eq(name[2], "scale_z");
	ck_assert(v[0] == 200 && v[2] == 200 && v[3] == 51200);
	n = tp_engine_hints(TP_ENGINE_UNITY, 513, 257, 4, 10, 110, name, v);
	ck_assert(n == 4 && v[0] == 2048 && v[1] == 1024 && v[2] == 100 &&
	    v[3] == 10);
	ck_assert(tp_engine_flip(TP_ENGINE_UNITY));
	ck_assert(!tp_engine_flip(TP_ENGINE_UNREAL));
}
END_TEST

/* Largest remainder: 255 x (1, 1, 1) / 3 = 85 each; 255 x (1, 2) / 3
 * = 85, 170; 255 x (1, 1, 1, 4) / 7 = 36.43, 36.43, 36.43, 145.71: floors
 * 36 36 36 145 = 253, the two units to the remainders 5 (slot 3: 5/7 is
 * the largest) then slot 0 (3/7, the lowest of the tied). */
START_TEST(weights)
{
	uint8_t w[4];

	tp_splat_weights((const uint32_t[]){ 1, 1, 1 }, 3, 3, w);
	ck_assert(w[0] == 85 && w[1] == 85 && w[2] == 85);
	tp_splat_weights((const uint32_t[]){ 1, 2 }, 2, 3, w);
	ck_assert(w[0] == 85 && w[1] == 170);
	tp_splat_weights((const uint32_t[]){ 1, 1, 1, 4 }, 4, 7, w);
	ck_assert_int_eq(w[0], 37);
	ck_assert_int_eq(w[1], 36);
	ck_assert_int_eq(w[2], 36);
	ck_assert_int_eq(w[3], 146);
	tp_splat_weights((const uint32_t[]){ 0, 9, 0 }, 3, 9, w);
	ck_assert(w[0] == 0 && w[1] == 255 && w[2] == 0);
}
END_TEST

/* A table of two classes and a groups file for them. */
static void
two_classes(tp_palette *p, tp_splat_groups *g, const char *text)
{
	tp_err e;

	ck_assert_int_eq(tp_palette_parse(p, "1 meadow #00ff00 sea\n"
	    "2 \"dry lake\" #ffff00 sea\n", 46, &e), 0);
	ck_assert_msg(tp_splat_parse(g, text, strlen(text), "G", &e) == 0,
	    "%s", e.msg);
	ck_assert_msg(tp_splat_bind(g, p, "G", &e) == 0, "%s", e.msg);
}

START_TEST(groups)
{
	tp_splat_groups *g = malloc(sizeof *g);
	tp_palette *p = malloc(sizeof *p);
	tp_err e;

	two_classes(p, g, "# comment\n  \n\"dry lake\" 1\r\n* 0");
	ck_assert_int_eq(g->nslots, 2);
	ck_assert(g->by_code[1] == 0 && g->by_code[2] == 1 &&
	    g->by_code[3] == -1);
	ck_assert_int_eq(tp_splat_parse(g, "a 1\n", 4, "G", &e), -1);
	ck_assert_str_eq(e.msg, "G: slot 0 has no biome, yet slot 1 has");
	ck_assert_int_eq(tp_splat_parse(g, "a -1\n", 5, "G", &e), -1);
	ck_assert_str_eq(e.msg, "G:1: slot '-1' is not a whole number 0 .. 15");
	ck_assert_int_eq(tp_splat_parse(g, "a 0 b\n", 6, "G", &e), -1);
	ck_assert_str_eq(e.msg, "G:1: want BIOME SLOT");
	ck_assert_int_eq(tp_splat_parse(g, "a\0 0\n", 5, "G", &e), -1);
	ck_assert_str_eq(e.msg, "G:1: a NUL byte: not a text file");
	{
		/* a name longer than a table's, a long line, too many lines */
		static char big[1025 * 8 + 1];
		size_t n;

		memset(big, 'a', 48);
		memcpy(big + 48, " 0\n", 3);
		ck_assert_int_eq(tp_splat_parse(g, big, 51, "G", &e), -1);
		ck_assert_str_eq(e.msg, "G:1: biome name 'aaaaaaaaaaaaaaaaaaaaaaaa"
		    "aaaaaaaaaaaaaaaaaaaaaaaa' is not one a table can hold");
		memset(big, 'a', 1100);
		ck_assert_int_eq(tp_splat_parse(g, big, 1100, "G", &e), -1);
		ck_assert_str_eq(e.msg, "G:1: line longer than 1023 bytes");
		for (n = 0; n < 1025; n++)
			snprintf(big + 8 * n, 9, "b%04zu 0\n", n);
		ck_assert_int_eq(tp_splat_parse(g, big, 8 * 1025, "G", &e), -1);
		ck_assert_str_eq(e.msg, "G:1025: more than 1024 lines of biomes");
	}
	ck_assert_int_eq(tp_splat_parse(g, "meadow 0\n", 9, "G", &e), 0);
	ck_assert_int_eq(tp_splat_bind(g, p, "G", &e), -1);
	ck_assert_str_eq(e.msg, "G: biome 'dry lake' has no slot and there "
	    "is no '*' line");
	free(g);
	free(p);
}
END_TEST

/* A 4 x 3 grid, slot 1 in column 3 only, blend 1: cell (0, 0) sees a 2 x 2
 * window of slot 0 (255, 0); cell (2, 0) a 2 x 3 window with two cells of
 * slot 1: 255 x 4 / 6 = 170, 255 x 2 / 6 = 85; cell (2, 1) a 3 x 3 window
 * with 3 of 9: 170, 85; cell (3, 1) 2 x 3 with 3 of 6: 127.5 each, floors
 * 127 127 and the last unit to slot 0 (tie, lower slot). */
START_TEST(window)
{
	tp_splat_groups *g = malloc(sizeof *g);
	tp_palette *p = malloc(sizeof *p);
	const float row[4] = { 1, 1, 1, 2 };
	uint8_t out[3][16];
	int taken = 0;
	tp_splat s;
	tp_err e;

	two_classes(p, g, "meadow 0\n\"dry lake\" 1\n");
	ck_assert_int_eq(tp_splat_init(&s, g, 4, 3, 1, &e), 0);
	for (int y = 0; y < 3; y++) {
		ck_assert(!tp_splat_ready(&s));
		ck_assert_int_eq(tp_splat_push(&s, row, &e), 0);
		while (tp_splat_ready(&s))
			tp_splat_take(&s, out[taken++]);
	}
	ck_assert_int_eq(taken, 3);
	ck_assert(out[0][0] == 255 && out[0][1] == 0);
	ck_assert(out[0][8] == 170 && out[0][9] == 85);
	ck_assert(out[1][8] == 170 && out[1][9] == 85);
	ck_assert(out[1][12] == 128 && out[1][13] == 127);
	ck_assert(out[1][14] == 0 && out[1][15] == 0);
	tp_splat_free(&s);
	/* a code the table lacks */
	ck_assert_int_eq(tp_splat_init(&s, g, 4, 3, 0, &e), 0);
	ck_assert_int_eq(tp_splat_push(&s, (const float[]){ 1, 2, 7, 1 }, &e),
	    -1);
	ck_assert_str_eq(e.msg, "row 0, column 2: biome code 7 is not in the "
	    "table");
	tp_splat_free(&s);
	free(g);
	free(p);
}
END_TEST

/* A plane rising 1 m a metre east: n = (-1, 0, 1) / sqrt 2, levels
 * floor((1 - 0.7071) 127.5 + 0.5) = 37, 128, floor(1.7071 x 127.5 + 0.5)
 * = 218; DirectX flips nothing here. NaN cells are flat. */
START_TEST(normals)
{
	const float up[4] = { 0, 1, 2, 3 }, mid[4] = { 0, 1, NAN, 3 };
	const float down[4] = { 0, 1, 2, 3 };
	tp_normal_opts o = { .zscale = 1 };
	uint8_t rgb[12];

	ck_assert_uint_eq(tp_normal_level(0), 128);
	ck_assert_uint_eq(tp_normal_level(1), 255);
	ck_assert_uint_eq(tp_normal_level(-1), 0);
	tp_normal_row(&o, up, up, down, 4, 1, 1, rgb);
	for (int x = 0; x < 4; x++)
		ck_assert(rgb[3 * x] == 37 && rgb[3 * x + 1] == 128 &&
		    rgb[3 * x + 2] == 218);
	tp_normal_row(&o, up, mid, down, 4, 1, 1, rgb);
	ck_assert(rgb[6] == 128 && rgb[7] == 128 && rgb[8] == 255);
	/* rising 1 m a metre north (rows south are lower), 2 m cells, zscale
	 * 4: dz/dy = 2: n = (0, -2, 1) / sqrt 5: G floor(0.1056 x 127.5 +
	 * 0.5) = 13, B floor(1.4472 x 127.5 + 0.5) = 185; DirectX G 242 */
	{
		const float n[2] = { 1, 1 }, m[2] = { 0, 0 }, s[2] = { -1, -1 };

		o.zscale = 4;
		tp_normal_row(&o, n, m, s, 2, 2, 2, rgb);
		ck_assert(rgb[0] == 128 && rgb[1] == 13 && rgb[2] == 185);
		o.y_down = 1;
		tp_normal_row(&o, n, m, s, 2, 2, 2, rgb);
		ck_assert(rgb[1] == 242);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("export");
	TCase *ex = tcase_create("export"), *en = tcase_create("engine");
	TCase *sp = tcase_create("splat"), *nm = tcase_create("normal");
	SRunner *r;
	int failed;

	tcase_add_test(ex, levels);
	tcase_add_test(ex, levels_round_trip);
	tcase_add_test(ex, byte_orders);
	tcase_add_test(ex, range);
	tcase_add_test(ex, sidecar_json);
	tcase_add_test(en, engine_sides);
	tcase_add_test(en, engine_fit);
	tcase_add_test(en, engine_hints);
	tcase_add_test(sp, weights);
	tcase_add_test(sp, groups);
	tcase_add_test(sp, window);
	tcase_add_test(nm, normals);
	suite_add_tcase(s, ex);
	suite_add_tcase(s, en);
	suite_add_tcase(s, sp);
	suite_add_tcase(s, nm);
	r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed == 0 ? 0 : 1;
}
