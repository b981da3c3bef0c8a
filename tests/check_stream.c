/* check_stream.c - unit tests of the stream module (header, rows, grids). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp_num.h"
#include "tp_stream.h"

/* A FILE over a copy of buf (fmemopen keeps the pointer, so copy). */
static FILE *
memfile(const void *buf, size_t len, char **keep)
{
	*keep = malloc(len + 1);
	ck_assert_ptr_nonnull(*keep);
	memcpy(*keep, buf, len);
	return fmemopen(*keep, len ? len : 1, len ? "r" : "r");
}

static const char *good =
    "TERRAPIPE 1\nWIDTH 3\nHEIGHT 2\nBANDS height moisture\nCELLSIZE 30\n"
    "ORIGIN 500000 4649776\nCRS EPSG:32633\nFOO bar baz\n"
    "HISTORY tnoise --size 3x2\nHISTORY tisland\nENDHDR\n";

START_TEST(test_parse_all_keys)
{
	tp_header h;
	tp_err e;
	size_t used;

	ck_assert_int_eq(tp_header_parse(&h, good, strlen(good), &used, &e), 0);
	ck_assert_uint_eq(used, strlen(good));
	ck_assert_int_eq(h.width, 3);
	ck_assert_int_eq(h.height, 2);
	ck_assert_int_eq(h.nbands, 2);
	ck_assert_str_eq(h.band[0], "height");
	ck_assert_str_eq(h.band[1], "moisture");
	ck_assert_double_eq(h.cellsize, 30);
	ck_assert_double_eq(h.origin_x, 500000);
	ck_assert_double_eq(h.origin_y, 4649776);
	ck_assert_str_eq(h.crs, "EPSG:32633");
	ck_assert_int_eq(tp_header_epsg(&h), 32633);
	ck_assert_uint_eq(h.nextra, 1);
	ck_assert_str_eq(h.extra[0], "FOO bar baz");
	ck_assert_uint_eq(h.nhistory, 2);
	ck_assert_str_eq(h.history[1], "tisland");
	ck_assert_int_eq(tp_header_band(&h, "moisture"), 1);
	ck_assert_int_eq(tp_header_band(&h, "flow"), -1);
	tp_header_free(&h);
}
END_TEST

START_TEST(test_defaults)
{
	const char *s = "TERRAPIPE 1\nWIDTH 4\nHEIGHT 5\nBANDS height\nENDHDR\n";
	tp_header h;
	tp_err e;

	ck_assert_int_eq(tp_header_parse(&h, s, strlen(s), NULL, &e), 0);
	ck_assert_double_eq(h.cellsize, 1);
	ck_assert_double_eq(h.origin_x, 0);
	ck_assert_double_eq(h.origin_y, 5);	/* HEIGHT * CELLSIZE */
	ck_assert_str_eq(h.crs, "");
	ck_assert_int_eq(tp_header_epsg(&h), 0);
	tp_header_free(&h);
	s = "TERRAPIPE 1\nWIDTH 4\nHEIGHT 5\nCELLSIZE 2.5\nBANDS height\nENDHDR\n";
	ck_assert_int_eq(tp_header_parse(&h, s, strlen(s), NULL, &e), 0);
	ck_assert_double_eq(h.origin_y, 12.5);
	tp_header_free(&h);
}
END_TEST

/* Write a header, read it back: every field and line survives. */
START_TEST(test_header_round_trip)
{
	tp_header h, g;
	tp_err e;
	char *buf = NULL;
	size_t len = 0, used;
	FILE *f;

	ck_assert_int_eq(tp_header_parse(&h, good, strlen(good), NULL, &e), 0);
	h.cellsize = 0.1;
	h.origin_x = -84.41375;
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(tp_header_write(&h, f, &e), 0);
	fclose(f);
	ck_assert_int_eq(tp_header_parse(&g, buf, len, &used, &e), 0);
	ck_assert_uint_eq(used, len);
	ck_assert_double_eq(g.cellsize, 0.1);		/* exact, not %g-rounded */
	ck_assert_double_eq(g.origin_x, -84.41375);
	ck_assert_str_eq(g.extra[0], "FOO bar baz");
	ck_assert_str_eq(g.history[0], "tnoise --size 3x2");
	ck_assert_int_eq(g.nbands, 2);
	ck_assert_ptr_nonnull(strstr(buf, "CELLSIZE 0.1\n"));
	tp_header_free(&h);
	tp_header_free(&g);
	free(buf);
}
END_TEST

/* One line a key: the first one replaced in place, later ones dropped,
 * a new key appended; keys the reader would not take back refused. */
START_TEST(test_set_extra)
{
	static const char *const bad[][2] = {
		{ "WIDTH", "4" }, { "HISTORY", "x" }, { "sealevel", "1" },
		{ "SEA LEVEL", "1" }, { "", "1" }, { "SEALEVEL", "1\n2" },
	};
	tp_header h, g;
	tp_err e;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_int_eq(tp_header_init(&h, 2, 2, &e), 0);
	ck_assert_int_eq(tp_header_add_extra(&h, "FOO 1", &e), 0);
	ck_assert_int_eq(tp_header_add_extra(&h, "SEALEVEL 0.1", &e), 0);
	ck_assert_int_eq(tp_header_add_extra(&h, "SEALEVELS 3", &e), 0);
	ck_assert_int_eq(tp_header_add_extra(&h, "SEALEVEL", &e), 0);
	ck_assert_int_eq(tp_header_set_extra(&h, "SEALEVEL", "0.25", &e), 0);
	ck_assert_int_eq(tp_header_set_extra(&h, "NEW_KEY2", "a b", &e), 0);
	ck_assert_int_eq(tp_header_set_extra(&h, "BARE", "", &e), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_int_eq(tp_header_set_extra(&h, bad[i][0], bad[i][1],
		    &e), -1);
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(tp_header_write(&h, f, &e), 0);
	fclose(f);
	ck_assert_int_eq(tp_header_parse(&g, buf, len, NULL, &e), 0);
	ck_assert_uint_eq(g.nextra, 5);
	ck_assert_str_eq(g.extra[0], "FOO 1");
	ck_assert_str_eq(g.extra[1], "SEALEVEL 0.25");
	ck_assert_str_eq(g.extra[2], "SEALEVELS 3");
	ck_assert_str_eq(g.extra[3], "NEW_KEY2 a b");
	ck_assert_str_eq(g.extra[4], "BARE");
	tp_header_free(&h);
	tp_header_free(&g);
	free(buf);
}
END_TEST

START_TEST(test_body_round_trip)
{
	tp_header h;
	tp_writer w;
	tp_reader r;
	tp_err e;
	char *buf = NULL, *keep;
	size_t len = 0;
	float row[6], back[6];
	FILE *f;
	int i;

	ck_assert_int_eq(tp_header_init(&h, 3, 2, &e), 0);
	ck_assert_int_eq(tp_header_add_band(&h, "moisture", &e), 1);
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(tp_writer_open(&w, f, &h, &e), 0);
	for (i = 0; i < 6; i++)
		row[i] = (float)i - 2.5f;
	row[4] = NAN;
	row[1] = -0.0f;
	ck_assert_int_eq(tp_writer_row(&w, row, &e), 0);
	ck_assert_int_eq(tp_writer_row(&w, row, &e), 0);
	ck_assert_int_eq(tp_writer_finish(&w, &e), 0);
	tp_writer_free(&w);
	fclose(f);
	/* little-endian on disk: -2.5f is 0xc0200000 */
	ck_assert_int_eq((unsigned char)buf[len - 24 + 3], 0xc0);
	ck_assert_int_eq((unsigned char)buf[len - 24 + 2], 0x20);
	f = memfile(buf, len, &keep);
	ck_assert_int_eq(tp_reader_open(&r, f, &e), 0);
	ck_assert_int_eq(tp_reader_row(&r, back, &e), 0);
	ck_assert_int_eq(tp_reader_row(&r, back, &e), 0);
	ck_assert_int_eq(tp_reader_finish(&r, &e), 0);
	ck_assert_float_eq(back[0], -2.5f);
	ck_assert(isnan(back[4]));
	ck_assert(back[1] == 0 && signbit(back[1]));	/* -0 keeps its sign */
	ck_assert_float_eq(tp_row_band(back, &r.h, 1)[0], 0.5f);
	tp_reader_free(&r);
	tp_header_free(&h);
	fclose(f);
	free(keep);
	free(buf);
}
END_TEST

START_TEST(test_bands)
{
	tp_header h;
	tp_err e;

	ck_assert_int_eq(tp_header_init(&h, 2, 2, &e), 0);
	ck_assert_int_eq(tp_header_add_band(&h, "flow", &e), 1);
	ck_assert_int_eq(tp_header_add_band(&h, "dir", &e), 2);
	ck_assert_int_eq(tp_header_add_band(&h, "flow", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "already"));
	ck_assert_int_eq(tp_header_add_band(&h, "Bad", &e), -1);
	ck_assert_int_eq(tp_header_add_band(&h, "", &e), -1);
	tp_header_drop_band(&h, 1);
	ck_assert_int_eq(h.nbands, 2);
	ck_assert_str_eq(h.band[1], "dir");
	ck_assert_int_eq(tp_band_name_ok("a_b9"), 1);
	ck_assert_int_eq(tp_band_name_ok("0123456789012345678901234567890"), 1);
	ck_assert_int_eq(tp_band_name_ok("01234567890123456789012345678901"), 0);
	tp_header_free(&h);
}
END_TEST

START_TEST(test_history_quoting)
{
	char *argv[] = { "/usr/bin/tnoise", "--seed", "7", "a b", "it's", "x\ny" };
	tp_header h;
	tp_err e;

	ck_assert_int_eq(tp_header_init(&h, 1, 1, &e), 0);
	ck_assert_int_eq(tp_header_add_history(&h, 6, argv, &e), 0);
	ck_assert_str_eq(h.history[0], "tnoise --seed 7 'a b' 'it'\\''s' 'x?y'");
	tp_header_free(&h);
}
END_TEST

/* A table of malformed inputs, each with the words its message must hold. */
static const struct bad {
	const char *in;
	size_t len;		/* 0: strlen */
	const char *msg;
} bads[] = {
	{ "", 0, "empty input" },
	{ "TERRAPIPE 2\nWIDTH 1\n", 0, "not a terrapipe stream" },
	{ "\x89PNG\r\n\x1a\n\0\0\0", 12, "not a terrapipe stream" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS height\n", 0, "no ENDHDR" },
	{ "TERRAPIPE 1\nWIDTH 0\nHEIGHT 1\nBANDS height\nENDHDR\n", 0, "WIDTH '0'" },
	{ "TERRAPIPE 1\nWIDTH -5\nHEIGHT 1\nBANDS height\nENDHDR\n", 0, "WIDTH '-5'" },
	{ "TERRAPIPE 1\nWIDTH 12x\nHEIGHT 1\nBANDS height\nENDHDR\n", 0, "WIDTH '12x'" },
	{ "TERRAPIPE 1\nWIDTH 99999999999999999999\nHEIGHT 1\nBANDS h\nENDHDR\n", 0, "WIDTH" },
	{ "TERRAPIPE 1\nWIDTH 1073741824\nHEIGHT 1073741824\nBANDS "
	  "a b c d e f g h i j k l m n o p q r s t u v w x y z a0 a1 a2 a3 a4 "
	  "a5 a6 a7 a8 a9\nENDHDR\n", 0, "too large" },
	{ "TERRAPIPE 1\nHEIGHT 1\nBANDS height\nENDHDR\n", 0, "no WIDTH" },
	{ "TERRAPIPE 1\nWIDTH 1\nBANDS height\nENDHDR\n", 0, "no HEIGHT" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nENDHDR\n", 0, "no BANDS" },
	{ "TERRAPIPE 1\nWIDTH 1\nWIDTH 2\nHEIGHT 1\nBANDS h\nENDHDR\n", 0, "duplicate key WIDTH" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS Height\nENDHDR\n", 0, "bad band name 'Height'" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS a a\nENDHDR\n", 0, "already" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS a  b\nENDHDR\n", 0, "empty band name" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS h\nCELLSIZE 0\nENDHDR\n", 0, "CELLSIZE '0'" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS h\nCELLSIZE nan\nENDHDR\n", 0, "CELLSIZE 'nan'" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS h\nORIGIN 5\nENDHDR\n", 0, "ORIGIN wants two" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS h\nORIGIN 1 inf\nENDHDR\n", 0, "ORIGIN wants two finite" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS h\nwidth 1\nENDHDR\n", 0, "KEY in capitals" },
	{ "TERRAPIPE 1\r\nWIDTH 1\r\n", 0, "not a terrapipe stream" },
	{ "TERRAPIPE 1\nWIDTH 1\r\nHEIGHT 1\nBANDS h\nENDHDR\n", 0, "carriage return" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS h\nCRS\nENDHDR\n", 0, "CRS has no value" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS h\nFO-O 1\nENDHDR\n", 0, "bad key" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS h\nX\0Y 1\nENDHDR\n", 47, "NUL byte" },
};

START_TEST(test_malformed)
{
	const struct bad *b = &bads[_i];
	size_t len = b->len ? b->len : strlen(b->in);
	tp_header h;
	tp_err e;
	char *keep;
	FILE *f;

	ck_assert_int_eq(tp_header_parse(&h, b->in, len, NULL, &e), -1);
	ck_assert_msg(strstr(e.msg, b->msg) != NULL, "case %d: '%s' lacks '%s'",
	    _i, e.msg, b->msg);
	/* The FILE path gives the same verdict. */
	f = memfile(b->in, len, &keep);
	if (len == 0)
		fgetc(f);	/* fmemopen needs a byte; make it look empty */
	ck_assert_int_eq(tp_header_read(&h, f, NULL, &e), -1);
	ck_assert_msg(strstr(e.msg, b->msg) != NULL, "case %d (FILE): '%s' lacks '%s'",
	    _i, e.msg, b->msg);
	fclose(f);
	free(keep);
}
END_TEST

/* A 3x2 two-band stream cut at several body offsets, or with bytes added. */
static void
body_case(size_t cut, size_t extra, const char *want)
{
	const char *hdr = "TERRAPIPE 1\nWIDTH 3\nHEIGHT 2\nBANDS a b\nENDHDR\n";
	size_t hl = strlen(hdr), len = hl + cut + extra;
	char *buf = calloc(1, hl + 48 + extra), *keep;
	float rows[12];
	int64_t got;
	tp_reader r;
	tp_err e;
	FILE *f;
	int rc;

	memcpy(buf, hdr, hl);
	f = memfile(buf, len, &keep);
	ck_assert_int_eq(tp_reader_open(&r, f, &e), 0);
	rc = tp_reader_rows(&r, rows, 2, &got, &e);
	if (rc == 0)
		rc = tp_reader_finish(&r, &e);
	ck_assert_int_eq(rc, -1);
	ck_assert_msg(strstr(e.msg, want) != NULL, "cut %zu: '%s' lacks '%s'",
	    cut, e.msg, want);
	tp_reader_free(&r);
	fclose(f);
	free(keep);
	free(buf);
}

START_TEST(test_truncated_body)
{
	body_case(0, 0, "byte offset 46, in row 0 of 2");
	body_case(5, 0, "byte offset 51, in row 0 of 2");
	body_case(24, 0, "byte offset 70, in row 1 of 2");
	body_case(47, 0, "byte offset 93, in row 1 of 2");
	body_case(48, 1, "trailing data after the last row, at byte offset 94");
	body_case(48, 9, "trailing data");
}
END_TEST

START_TEST(test_grid_and_sizes)
{
	const char *s = "TERRAPIPE 1\nWIDTH 2\nHEIGHT 2\nBANDS h\nENDHDR\n";
	char buf[128], *keep;
	float v[4] = { 1, 2, 3, 4 };
	tp_grid g;
	tp_err e;
	size_t n;
	FILE *f;

	memcpy(buf, s, strlen(s));
	memcpy(buf + strlen(s), v, sizeof(v));
	f = memfile(buf, strlen(s) + sizeof(v), &keep);
	ck_assert_int_eq(tp_grid_read(&g, f, &e), 0);
	ck_assert_float_eq(tp_grid_band(&g, 0)[1 * tp_grid_stride(&g) + 1], 4);
	tp_grid_free(&g);
	fclose(f);
	free(keep);
	ck_assert_int_eq(tp_mul_size(SIZE_MAX / 2, 3, &n, "x", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "overflows"));
	ck_assert_int_eq(tp_check_mem(UINT64_C(1) << 60, "the grid", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "the grid needs"));
}
END_TEST

START_TEST(test_numbers)
{
	double d, v[4];
	int64_t i;
	tp_err e;
	char b[64];

	ck_assert_int_eq(tp_parse_double("0.35", 0, 1, &d, &e), 0);
	ck_assert_double_eq(d, 0.35);
	ck_assert_int_eq(tp_parse_double("1.5", 0, 1, &d, &e), -1);
	ck_assert_int_eq(tp_parse_double("nan", -1, 1, &d, &e), -1);
	ck_assert_int_eq(tp_parse_double("3x", 0, 9, &d, &e), -1);
	ck_assert_int_eq(tp_parse_double("", 0, 9, &d, &e), -1);
	ck_assert_int_eq(tp_parse_int64("42", 0, 100, &i, &e), 0);
	ck_assert_int_eq(i, 42);
	ck_assert_int_eq(tp_parse_int64("4.2", 0, 100, &i, &e), -1);
	ck_assert_int_eq(tp_parse_list("0,0.5,1", 0, 1, v, 4, &e), 3);
	ck_assert_double_eq(v[1], 0.5);
	ck_assert_int_eq(tp_parse_list("0,,1", 0, 1, v, 4, &e), -1);
	ck_assert_int_eq(tp_parse_list("1,2,3,4,5", 0, 9, v, 4, &e), -1);
	tp_format_double(b, sizeof(b), 0.1);
	ck_assert_str_eq(b, "0.1");
	tp_format_double(b, sizeof(b), 4649776);
	ck_assert_str_eq(b, "4649776");
	tp_format_double(b, sizeof(b), 4650000);
	ck_assert_str_eq(b, "4650000");
	tp_format_double(b, sizeof(b), -0.0);
	ck_assert(signbit(strtod(b, NULL)));	/* "-0": the same value, not +0 */
	tp_format_double(b, sizeof(b), 1.0 / 3);
	ck_assert_double_eq(strtod(b, NULL), 1.0 / 3);
}
END_TEST

static Suite *
stream_suite(void)
{
	Suite *s = suite_create("stream");
	TCase *core = tcase_create("core"), *lim = tcase_create("limits"),
	    *err = tcase_create("errors");

	tcase_add_test(core, test_parse_all_keys);
	tcase_add_test(core, test_defaults);
	tcase_add_test(core, test_header_round_trip);
	tcase_add_test(core, test_set_extra);
	tcase_add_test(core, test_body_round_trip);
	tcase_add_test(core, test_bands);
	tcase_add_test(core, test_history_quoting);
	tcase_add_test(lim, test_grid_and_sizes);
	tcase_add_test(lim, test_numbers);
	tcase_add_loop_test(err, test_malformed, 0, sizeof(bads) / sizeof(bads[0]));
	tcase_add_test(err, test_truncated_body);
	suite_add_tcase(s, core);
	suite_add_tcase(s, lim);
	suite_add_tcase(s, err);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(stream_suite());
	int nf;

	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
