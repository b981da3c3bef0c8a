/* check_export.c - unit tests for texport's modules: tp_export (levels,
 * byte orders, the sidecar), tp_engine (sizes, nearest sizes, fitting),
 * tp_splat (groups files, largest-remainder weights, the box window) and
 * tp_normalmap (levels, a plane's normal) and tp_export_rows (the range
 * from a file and from a pipe, rows fitted and encoded, normal batches,
 * splat picture names). Values by hand. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/tp_engine.h"
#include "export/tp_export.h"
#include "export/tp_export_rows.h"
#include "render/tp_normalmap.h"
#include "export/tp_splat.h"
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

START_TEST(test_engine_hints)
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
START_TEST(test_weights)
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

START_TEST(test_groups)
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
START_TEST(test_window)
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
START_TEST(test_normals)
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

/* Fitting a row: cut to the width, or its last sample repeated. 0..2 on
 * 0..65535 levels: 0, floor(32767.5 + 0.5) = 32768, 65535. */
START_TEST(test_encode_fit)
{
	const float v[3] = { 0, 1, 2 }, nanrow[2] = { 1, NAN };
	uint16_t q[5];
	unsigned char b[8];

	ck_assert_uint_eq(tp_export_encode_fit(TP_EXPORT_PNG16, v, 3, 5, 0, 2,
	    q), 0);
	ck_assert(q[0] == 0 && q[1] == 32768 && q[2] == 65535 &&
	    q[3] == 65535 && q[4] == 65535);
	memset(q, 0xee, sizeof q);
	tp_export_encode_fit(TP_EXPORT_PNG16, v, 3, 2, 0, 2, q);
	ck_assert(q[0] == 0 && q[1] == 32768 && q[2] == 0xeeee);
	/* the NaN padded twice counts once; big-endian PGM */
	ck_assert_uint_eq(tp_export_encode_fit(TP_EXPORT_PGM, nanrow, 2, 4, 0,
	    2, b), 1);
	ck_assert_mem_eq(b, "\x80\x00\x00\x00\x00\x00\x00\x00", 8);
}
END_TEST

/* Band "height" of a 3 x 4 stream with a band "a" of 100s before it:
 *	 1    2    3
 *	 4  NaN    6
 *	-1    0  inf
 *	 7    8    9
 * its range -1 .. 9 with one NaN (inf is left out). */
static const float band_h[12] = { 1, 2, 3, 4, NAN, 6, -1, 0, INFINITY, 7, 8,
    9 };

static size_t
small_stream(char **buf)
{
	tp_header h;
	tp_writer wr;
	tp_err e;
	size_t len;
	FILE *f = open_memstream(buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(tp_header_init(&h, 3, 4, &e), 0);
	strcpy(h.band[0], "a");
	ck_assert_int_eq(tp_header_add_band(&h, "height", &e), 1);
	ck_assert_int_eq(tp_writer_open(&wr, f, &h, &e), 0);
	for (int y = 0; y < 4; y++) {
		float row[6] = { 100, 100, 100 };

		memcpy(row + 3, band_h + 3 * y, 3 * sizeof *row);
		ck_assert_int_eq(tp_writer_row(&wr, row, &e), 0);
	}
	ck_assert_int_eq(tp_writer_finish(&wr, &e), 0);
	tp_writer_free(&wr);
	tp_header_free(&h);
	ck_assert_int_eq(fclose(f), 0);
	return len;
}

/* The stream as a seekable file (tmpfile) at its start, or NULL. */
static FILE *
stream_file(size_t cut)
{
	char *buf;
	size_t len = small_stream(&buf);
	FILE *f = tmpfile();

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(buf, 1, len - cut, f), len - cut);
	rewind(f);
	free(buf);
	return f;
}

static int64_t seen[8], nseen;

static void
count_progress(void *pctx, int64_t done, int64_t total)
{
	(void)pctx;
	ck_assert_int_eq(total, 4);
	if (nseen < 8)
		seen[nseen++] = done;
}

/* The band's rows read back after the range: those of band_h. */
static void
rows_back(tp_export_src *s)
{
	float got[12];
	tp_err e;

	ck_assert_int_eq(tp_export_src_rows(s, got, 4, &e), 0);
	for (int i = 0; i < 12; i++)
		ck_assert(memcmp(&got[i], &band_h[i], sizeof *got) == 0);
}

/* From a file: a pass of one-row batches (progress 1, 2, 3, 4), then the
 * reader back at row 0; from a pipe: the band held. */
START_TEST(test_src_range)
{
	tp_export_loop l = { .progress = count_progress };
	tp_export_range rg;
	tp_export_src s;
	tp_reader r;
	tp_err e;
	double lo, hi;

	for (int pipe = 0; pipe < 2; pipe++) {
		FILE *f = stream_file(0);

		ck_assert_int_eq(tp_reader_open(&r, f, &e), 0);
		ck_assert_int_eq(tp_export_src_init(&s, &r, 1, &e), 0);
		s.batch = 1;
		nseen = 0;
		ck_assert_msg(tp_export_src_range(&s, pipe ? -1 : 0, &rg, &l,
		    &e) == 0, "%s", e.msg);
		tp_export_range_get(&rg, &lo, &hi);
		ck_assert(lo == -1 && hi == 9 && rg.nan == 1);
		ck_assert_int_eq(nseen, pipe ? 0 : 4);
		for (int i = 0; i < nseen; i++)
			ck_assert_int_eq(seen[i], i + 1);
		ck_assert(pipe ? s.plane != NULL : s.plane == NULL);
		ck_assert_int_eq(r.row, pipe ? 4 : 0);
		rows_back(&s);
		tp_export_src_free(&s);
		tp_reader_free(&r);
		fclose(f);
	}
}
END_TEST

/* A stream 4 bytes short: the pass and the hold both fail as truncated. */
START_TEST(test_src_range_truncated)
{
	tp_export_loop l = { 0 };
	tp_export_range rg;
	tp_export_src s;
	tp_reader r;
	tp_err e;

	for (int pipe = 0; pipe < 2; pipe++) {
		FILE *f = stream_file(4);

		ck_assert_int_eq(tp_reader_open(&r, f, &e), 0);
		ck_assert_int_eq(tp_export_src_init(&s, &r, 1, &e), 0);
		ck_assert_int_eq(tp_export_src_range(&s, pipe ? -1 : 0, &rg, &l,
		    &e), -1);
		ck_assert_msg(strstr(e.msg, "truncated") != NULL, "%s", e.msg);
		tp_export_src_free(&s);
		tp_reader_free(&r);
		fclose(f);
	}
}
END_TEST

/* The file's bytes at path (n of them expected), then the file removed. */
static void
file_is(const char *path, const void *want, size_t n)
{
	unsigned char got[64];
	FILE *f = fopen(path, "rb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fread(got, 1, sizeof got, f), n);
	fclose(f);
	ck_assert_mem_eq(got, want, n);
	unlink(path);
}

/* band_h as r16 on 0 .. 65535 (a level is the height), padded to 4 x 5
 * and cropped to 2 x 2, streamed and held, one row a batch on 2 threads:
 *	1 2 3 3 | 4 0 6 6 | 0 0 65535 65535 | 7 8 9 9 | 7 8 9 9
 * one NaN encoded either way. */
START_TEST(test_heights)
{
	static const uint16_t pad[20] = { 1, 2, 3, 3, 4, 0, 6, 6, 0, 0, 65535,
	    65535, 7, 8, 9, 9, 7, 8, 9, 9 }, crop[4] = { 1, 2, 4, 0 };
	char dir[] = "/tmp/check_export.XXXXXX", path[64];
	tp_export_loop l = { .threads = 2 };
	tp_export_quant q = { .format = TP_EXPORT_R16, .lo = 0,
	    .hi = 65535 };
	tp_export_writer *w;
	tp_export_range rg;
	tp_export_src s;
	tp_header h;
	tp_reader r;
	tp_err e;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/h.r16", dir);
	ck_assert_int_eq(tp_header_init(&h, 1, 1, &e), 0);
	for (int k = 0; k < 4; k++) {
		FILE *f = stream_file(0);
		int held = k & 1, cut = k >> 1;
		unsigned char want[40];

		q.width = cut ? 2 : 4;
		q.height = cut ? 2 : 5;
		for (int i = 0; i < q.width * q.height; i++) {
			uint16_t v = cut ? crop[i] : pad[i];

			want[2 * i] = v & 0xff;		/* little-endian */
			want[2 * i + 1] = v >> 8;
		}
		ck_assert_int_eq(tp_reader_open(&r, f, &e), 0);
		ck_assert_int_eq(tp_export_src_init(&s, &r, 1, &e), 0);
		s.batch = 1;
		if (held)
			ck_assert_int_eq(tp_export_src_range(&s, -1, &rg, &l,
			    &e), 0);
		ck_assert_int_eq(tp_export_create(&w, path, q.format, q.width,
		    q.height, 0, "test", &h, &e), 0);
		ck_assert_msg(tp_export_heights(&s, w, &q, &l, &e) == 1, "%s",
		    e.msg);
		ck_assert_int_eq(tp_export_close(w, &e), 0);
		file_is(path, want, (size_t)(q.width * q.height * 2));
		tp_export_src_free(&s);
		tp_reader_free(&r);
		fclose(f);
	}
	tp_header_free(&h);
	rmdir(dir);
}
END_TEST

/* Normal batches of one row and its halo on 2 threads give the rows
 * tp_normal_row gives on the band whole: the halo is the right rows. A
 * plane rising 1 a cell east (cell size 1) has the normal (-1, 0, 1) /
 * sqrt 2 at every inner cell: floor(0.2929 x 127.5 + 0.5) = 37, 128,
 * floor(1.7071 x 127.5 + 0.5) = 218. */
START_TEST(test_normal_batches)
{
	char dir[] = "/tmp/check_export.XXXXXX", path[64];
	tp_normal_opts no = { .zscale = 1 };
	tp_geo_grid geo = { .cellsize = 1, .north = 4 };
	tp_export_loop l = { .threads = 2 };
	tp_png_writer *png;
	tp_png_grey img;
	tp_export_src s;
	tp_reader r;
	tp_err e;
	uint8_t want[4 * 3 * 3];
	FILE *f = stream_file(0), *pf;
	float plane[12];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/n.png", dir);
	ck_assert_int_eq(tp_reader_open(&r, f, &e), 0);
	ck_assert_int_eq(tp_export_src_init(&s, &r, 1, &e), 0);
	s.batch = 1;
	ck_assert_int_eq(tp_png_create(&png, path, 3, 4, 3, "test", &r.h, &e),
	    0);
	ck_assert_msg(tp_export_normals(&s, png, &no, &geo, &l, &e) == 0, "%s",
	    e.msg);
	ck_assert_int_eq(tp_png_close(png, &e), 0);
	memcpy(plane, band_h, sizeof plane);
	for (int y = 0; y < 4; y++)
		tp_normal_row(&no, y ? plane + 3 * (y - 1) : NULL, plane + 3 * y,
		    y < 3 ? plane + 3 * (y + 1) : NULL, 3, 1, 1, want + 9 * y);
	ck_assert_ptr_nonnull(pf = fopen(path, "rb"));
	ck_assert_int_eq(tp_png_read_rgb(&img, pf, UINT64_MAX, 0, &e), 0);
	fclose(pf);
	ck_assert(img.width == 3 && img.height == 4);
	ck_assert_mem_eq(img.pix, want, sizeof want);
	free(img.pix);
	for (int i = 0; i < 12; i++)
		plane[i] = (float)(i % 3);
	tp_normal_row(&no, plane, plane + 3, plane + 6, 3, 1, 1, want);
	ck_assert(want[3] == 37 && want[4] == 128 && want[5] == 218);
	unlink(path);
	rmdir(dir);
	tp_export_src_free(&s);
	tp_reader_free(&r);
	fclose(f);
}
END_TEST

/* The sidecar's metres a cell: CELLSIZE when projected; on EPSG:4326 a
 * 1/1200 degree cell on the equator spans 1/1200 of WGS84's 110574.27 m
 * a degree north-south there (a (1 - e^2) pi / 180), 92.145 m. */
START_TEST(test_cell_metres)
{
	tp_header h;
	tp_err e;

	ck_assert_int_eq(tp_header_init(&h, 4, 1, &e), 0);
	h.cellsize = 30;
	ck_assert(tp_export_cell_metres(&h) == 30);
	strcpy(h.crs, "EPSG:4326");
	h.cellsize = 1.0 / 1200;
	h.origin_y = h.cellsize / 2;	/* row 0's centre on the equator */
	ck_assert_double_eq_tol(tp_export_cell_metres(&h), 110574.27 / 1200,
	    0.001);
	tp_header_free(&h);
}
END_TEST

/* Splat pictures: OUT, then _k before the last part's extension. */
START_TEST(test_pic_names)
{
	static const char *const cases[][3] = {
		{ "a/b.png", "a/b.png", "a/b_2.png" },
		{ "x.d/map", "x.d/map", "x.d/map_2" },
		{ ".hidden", ".hidden", ".hidden_2" },
		{ "m.tar.png", "m.tar.png", "m.tar_2.png" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		for (int k = 0; k < 2; k++) {
			char *n = tp_export_pic_name(cases[i][0], 2 * k);

			ck_assert_str_eq(n, cases[i][1 + k]);
			free(n);
		}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("export");
	TCase *ex = tcase_create("export"), *en = tcase_create("engine");
	TCase *sp = tcase_create("splat"), *nm = tcase_create("normal");
	TCase *rw = tcase_create("rows");

	tcase_add_test(ex, test_levels);
	tcase_add_test(ex, test_levels_round_trip);
	tcase_add_test(ex, test_byte_orders);
	tcase_add_test(ex, test_range);
	tcase_add_test(ex, test_sidecar_json);
	tcase_add_test(en, test_engine_sides);
	tcase_add_test(en, test_engine_fit);
	tcase_add_test(en, test_engine_hints);
	tcase_add_test(sp, test_weights);
	tcase_add_test(sp, test_groups);
	tcase_add_test(sp, test_window);
	tcase_add_test(nm, test_normals);
	tcase_add_test(rw, test_encode_fit);
	tcase_add_test(rw, test_src_range);
	tcase_add_test(rw, test_src_range_truncated);
	tcase_add_test(rw, test_heights);
	tcase_add_test(rw, test_normal_batches);
	tcase_add_test(rw, test_pic_names);
	tcase_add_test(ex, test_cell_metres);
	suite_add_tcase(s, ex);
	suite_add_tcase(s, en);
	suite_add_tcase(s, sp);
	suite_add_tcase(s, nm);
	suite_add_tcase(s, rw);
	return tp_test_run(s);
}
