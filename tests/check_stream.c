/* check_stream.c - unit tests of the stream module (header, rows, grids). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tp_num.h"
#include "stream/tp_stream.h"
#include "tp_test.h"

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

/* SEALEVEL: absent, a number (read from the first such line, not from
 * SEALEVELS), or refused when it is not one. */
START_TEST(test_sealevel)
{
	tp_header h;
	tp_err e;
	double v = 7;

	ck_assert_int_eq(tp_header_init(&h, 2, 2, &e), 0);
	ck_assert_int_eq(tp_header_add_extra(&h, "SEALEVELS 3", &e), 0);
	ck_assert_int_eq(tp_header_sealevel(&h, &v, &e), 0);
	ck_assert(v == 7);
	ck_assert_int_eq(tp_header_add_extra(&h, "SEALEVEL -0.25", &e), 0);
	ck_assert_int_eq(tp_header_add_extra(&h, "SEALEVEL 9", &e), 0);
	ck_assert_int_eq(tp_header_sealevel(&h, &v, &e), 1);
	ck_assert(v == -0.25);
	ck_assert_int_eq(tp_header_set_extra(&h, "SEALEVEL", "low", &e), 0);
	ck_assert_int_eq(tp_header_sealevel(&h, &v, &e), -1);
	ck_assert_str_eq(e.msg, "SEALEVEL: 'low' is not a number");
	ck_assert_int_eq(tp_header_set_extra(&h, "SEALEVEL", "nan", &e), 0);
	ck_assert_int_eq(tp_header_sealevel(&h, &v, &e), -1);
	tp_header_free(&h);
}
END_TEST

/* The writer: one SEALEVEL line, shortest round trip, replaced in place
 * (the first one kept, later ones dropped); not finite: refused. */
START_TEST(test_set_sealevel)
{
	static const double levels[] = { 0.3, -12.5, 1e-7, 0.1 + 0.2, 250 };
	tp_header h;
	tp_err e;
	double v;
	size_t i;

	ck_assert_int_eq(tp_header_init(&h, 2, 2, &e), 0);
	ck_assert_int_eq(tp_header_add_extra(&h, "FOO bar", &e), 0);
	ck_assert_int_eq(tp_header_add_extra(&h, "SEALEVEL 1", &e), 0);
	ck_assert_int_eq(tp_header_add_extra(&h, "SEALEVEL 2", &e), 0);
	for (i = 0; i < sizeof levels / sizeof levels[0]; i++) {
		ck_assert_int_eq(tp_header_set_sealevel(&h, levels[i], &e), 0);
		ck_assert_int_eq(tp_header_sealevel(&h, &v, &e), 1);
		ck_assert(v == levels[i]);
	}
	ck_assert_uint_eq(h.nextra, 2);
	ck_assert_str_eq(h.extra[0], "FOO bar");
	ck_assert_str_eq(h.extra[1], "SEALEVEL 250");
	ck_assert_int_eq(tp_header_set_sealevel(&h, 0.3, &e), 0);
	ck_assert_str_eq(h.extra[1], "SEALEVEL 0.3");
	ck_assert_int_eq(tp_header_set_sealevel(&h, NAN, &e), -1);
	ck_assert_int_eq(tp_header_set_sealevel(&h, INFINITY, &e), -1);
	ck_assert_str_eq(h.extra[1], "SEALEVEL 0.3");
	tp_header_free(&h);
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
	{ "\x89PNG\r\n\x1a\n\0\0\0", 12, "this is a PNG: use timport FILE" },
	{ "II*\0\x08\0\0\0\x0f\0\0\x01", 12, "this is a GeoTIFF: use timport FILE" },
	{ "MM\0*\0\0\0\x08\0\x0f\x01\0", 12, "this is a GeoTIFF: use timport FILE" },
	{ "P5\n4 4\n255\n", 0, "this is a PGM: use timport FILE" },
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
	{ "TERRAPIPE 1\r\nWIDTH 1\r\n", 0, "CRLF line endings (convert" },
	{ "TERRAPIPE 1\r\nWIDTH 1\r\nHEIGHT 1\r\nBANDS h\r\nENDHDR\r\n", 0,
	  "dos2unix" },
	{ "TERRAPIPE 1\nWIDTH 1\r\nHEIGHT 1\nBANDS h\nENDHDR\n", 0, "carriage return" },
	{ "TERRAPIPE 1\nWIDTH 1\r\nHEIGHT 1\nBANDS h\nENDHDR\n", 0, "dos2unix" },
	/* One number rule (tp_num): no '+', no spaces, no hex, no inf. */
	{ "TERRAPIPE 1\nWIDTH +4\nHEIGHT 1\nBANDS h\nENDHDR\n", 0, "WIDTH '+4'" },
	{ "TERRAPIPE 1\nWIDTH 4 \nHEIGHT 1\nBANDS h\nENDHDR\n", 0, "WIDTH '4 '" },
	{ "TERRAPIPE 1\nWIDTH  4\nHEIGHT 1\nBANDS h\nENDHDR\n", 0, "WIDTH ' 4'" },
	{ "TERRAPIPE 1\nWIDTH 0x10\nHEIGHT 1\nBANDS h\nENDHDR\n", 0, "WIDTH '0x10'" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS h\nORIGIN 0  5\nENDHDR\n", 0,
	  "ORIGIN wants two finite" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS h\nORIGIN +1 5\nENDHDR\n", 0,
	  "ORIGIN wants two finite" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS h\nCELLSIZE 0x1p3\nENDHDR\n", 0,
	  "CELLSIZE '0x1p3'" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS h\nCELLSIZE infinity\nENDHDR\n", 0,
	  "CELLSIZE 'infinity'" },
	/* A finite extent: every corner a finite coordinate. */
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 2\nBANDS h\nCELLSIZE 1e308\nENDHDR\n", 0,
	  "CELLSIZE x HEIGHT is not a finite extent" },
	{ "TERRAPIPE 1\nWIDTH 2\nHEIGHT 1\nBANDS h\nCELLSIZE 1e308\nENDHDR\n", 0,
	  "CELLSIZE x WIDTH" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS h\nCELLSIZE 1e308\n"
	  "ORIGIN 1e308 0\nENDHDR\n", 0, "ORIGIN + WIDTH x CELLSIZE is not finite" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS h\nCELLSIZE 1e308\n"
	  "ORIGIN 0 -1e308\nENDHDR\n", 0, "ORIGIN + HEIGHT x CELLSIZE" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS h\nCRS EPSG:1\x1b[2J\nENDHDR\n", 0,
	  "CRS has a control character" },
	{ "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS h\nCRS EPSG:1\tx\nENDHDR\n", 0,
	  "CRS has a control character (byte 7)" },
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
	/* The first row is read with the header: a stream without it fails
	 * there, before a stage allocates for the size it declares. */
	rc = tp_reader_open(&r, f, &e);
	ck_assert_int_eq(rc, cut < 24 ? -1 : 0);
	if (rc == 0)
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
	ck_assert_int_eq(tp_num_mul_size(SIZE_MAX / 2, 3, &n, "x", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "overflows"));
	ck_assert_int_eq(tp_num_check_mem(UINT64_C(1) << 60, "the grid", &e),
	    -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "the grid needs"));
}
END_TEST

/* A header declaring a huge grid whose body is missing or short is refused
 * as truncated, at once and without memory in proportion to the size: the
 * first row is read ahead in pieces, a whole grid grows as rows arrive. */
START_TEST(test_declared_size_needs_input)
{
	static const char *const hdr[] = {
		"TERRAPIPE 1\nWIDTH 1073741824\nHEIGHT 1\nBANDS height\nENDHDR\n",
		"TERRAPIPE 1\nWIDTH 1073741824\nHEIGHT 1073741824\nBANDS a\nENDHDR\n",
		"TERRAPIPE 1\nWIDTH 4\nHEIGHT 1073741824\nBANDS height\nENDHDR\n",
	};
	static const char *const want[] = {
		"in row 0 of 1 (4294967296 body bytes short)",
		"in row 0 of 1073741824",
		"in row 1 of 1073741824 (17179869168 body bytes short)",
	};
	char buf[256], *keep;
	tp_reader r;
	tp_grid g;
	tp_err e;
	size_t i, n;
	FILE *f;

	for (i = 0; i < 3; i++) {
		n = strlen(hdr[i]);
		memcpy(buf, hdr[i], n);
		memset(buf + n, 0, 16);		/* one row of the third */
		f = memfile(buf, n + 16 * (i == 2), &keep);
		ck_assert_int_eq(tp_grid_read(&g, f, &e), -1);
		ck_assert_msg(strstr(e.msg, want[i]) != NULL, "%zu: %s", i, e.msg);
		fclose(f);
		free(keep);
		f = memfile(buf, n + 16 * (i == 2), &keep);
		if (tp_reader_open(&r, f, &e) == 0) {
			ck_assert_uint_eq(i, 2);
			tp_reader_skip_rest(&r, &e);
		}
		ck_assert_msg(strstr(e.msg, want[i]) != NULL, "%zu: %s", i, e.msg);
		tp_reader_free(&r);
		fclose(f);
		free(keep);
	}
}
END_TEST

/* Rows handed out across the first row read ahead and the rest. */
START_TEST(test_rows_after_read_ahead)
{
	const char *hdr = "TERRAPIPE 1\nWIDTH 2\nHEIGHT 3\nBANDS h\nENDHDR\n";
	float v[6] = { 1, 2, 3, 4, 5, 6 }, back[6];
	char buf[128], *keep;
	size_t n = strlen(hdr);
	int64_t got;
	tp_reader r;
	tp_err e;
	FILE *f;

	memcpy(buf, hdr, n);
	memcpy(buf + n, v, sizeof(v));
	f = memfile(buf, n + sizeof(v), &keep);
	ck_assert_int_eq(tp_reader_open(&r, f, &e), 0);
	ck_assert_int_eq(tp_reader_rows(&r, back, 2, &got, &e), 0);
	ck_assert_int_eq(got, 2);
	ck_assert_float_eq(back[3], 4);
	ck_assert_int_eq(tp_reader_row(&r, back, &e), 0);
	ck_assert_float_eq(back[1], 6);
	ck_assert_int_eq(tp_reader_finish(&r, &e), 0);
	ck_assert_uint_eq(r.offset, n + sizeof(v));
	tp_reader_free(&r);
	fclose(f);
	free(keep);
}
END_TEST

/* A header of TP_HEADER_LINES lines reads; one line more is refused, as
 * are 8 million one-letter lines (costly before the cap). */
START_TEST(test_header_lines_cap)
{
	const char *head = "TERRAPIPE 1\nWIDTH 1\nHEIGHT 1\nBANDS h\n";
	size_t hl = strlen(head), nfill, i, len;
	char *buf = malloc(hl + 2 * (size_t)8000000 + 8), *keep;
	tp_header h;
	tp_err e;
	FILE *f;
	int extra;

	ck_assert_ptr_nonnull(buf);
	for (extra = 0; extra <= 1; extra++) {
		nfill = TP_HEADER_LINES - 5 + (size_t)extra;
		memcpy(buf, head, hl);
		for (i = 0; i < nfill; i++)
			memcpy(buf + hl + 2 * i, "A\n", 2);
		len = hl + 2 * nfill;
		memcpy(buf + len, "ENDHDR\n", 7);
		len += 7;
		ck_assert_int_eq(tp_header_parse(&h, buf, len, NULL, &e),
		    extra ? -1 : 0);
		if (!extra) {
			ck_assert_uint_eq(h.nextra, nfill);
			/* grown by doubling, not one slot a line */
			ck_assert_uint_ge(h.cextra, h.nextra);
			ck_assert_uint_le(h.cextra, 2 * h.nextra);
			tp_header_free(&h);
		} else
			ck_assert_ptr_nonnull(strstr(e.msg, "more than 65536 lines"));
	}
	for (i = 0; i < 8000000; i++)
		memcpy(buf + hl + 2 * i, "A\n", 2);
	memcpy(buf + hl + 2 * i, "ENDHDR\n", 7);
	f = memfile(buf, hl + 2 * i + 7, &keep);
	ck_assert_int_eq(tp_header_read(&h, f, NULL, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "more than 65536 lines"));
	fclose(f);
	free(keep);
	free(buf);
}
END_TEST

/* What the writer would write, unchecked: the reader's verdict on it is
 * the standard the writer's check is held to. */
static void
raw_write(const tp_header *h, FILE *f)
{
	char a[64], b[64];
	size_t i;
	int k;

	fprintf(f, "%s\nWIDTH %lld\nHEIGHT %lld\nBANDS", TP_MAGIC,
	    (long long)h->width, (long long)h->height);
	for (k = 0; k < h->nbands; k++)
		fprintf(f, " %s", h->band[k]);
	tp_num_format_double(a, sizeof(a), h->cellsize);
	fprintf(f, "\nCELLSIZE %s\n", a);
	tp_num_format_double(a, sizeof(a), h->origin_x);
	tp_num_format_double(b, sizeof(b), h->origin_y);
	fprintf(f, "ORIGIN %s %s\n", a, b);
	if (h->crs[0] != '\0')
		fprintf(f, "CRS %s\n", h->crs);
	for (i = 0; i < h->nextra; i++)
		fprintf(f, "%s\n", h->extra[i]);
	for (i = 0; i < h->nhistory; i++)
		fprintf(f, "HISTORY %s\n", h->history[i]);
	fputs("ENDHDR\n", f);
}

static int
header_eq(const tp_header *a, const tp_header *b)
{
	size_t i;
	int k;

	if (a->width != b->width || a->height != b->height ||
	    a->nbands != b->nbands || a->cellsize != b->cellsize ||
	    a->origin_x != b->origin_x || a->origin_y != b->origin_y ||
	    strcmp(a->crs, b->crs) != 0 || a->nextra != b->nextra ||
	    a->nhistory != b->nhistory)
		return 0;
	for (k = 0; k < a->nbands; k++)
		if (strcmp(a->band[k], b->band[k]) != 0)
			return 0;
	for (i = 0; i < a->nextra; i++)
		if (strcmp(a->extra[i], b->extra[i]) != 0)
			return 0;
	for (i = 0; i < a->nhistory; i++)
		if (strcmp(a->history[i], b->history[i]) != 0)
			return 0;
	return 1;
}

/* Writer and reader agree on h: the writer accepts it exactly when its
 * bytes read back (through a FILE, all limits) equal to h, and then writes
 * those bytes. Returns the writer's verdict. */
static int
agree(const tp_header *h, const char *what)
{
	char *wb = NULL, *rb = NULL, *keep;
	size_t wl = 0, rl = 0;
	tp_header g;
	tp_err e, er;
	FILE *f;
	int wok, rok;

	f = open_memstream(&wb, &wl);
	wok = tp_header_write(h, f, &e) == 0;
	fclose(f);
	f = open_memstream(&rb, &rl);
	raw_write(h, f);
	fclose(f);
	f = memfile(rb, rl, &keep);
	rok = tp_header_read(&g, f, NULL, &er) == 0;
	if (rok) {
		rok = header_eq(h, &g);
		tp_header_free(&g);
	}
	fclose(f);
	free(keep);
	ck_assert_msg(wok == rok, "%s: writer %s (%s), reader %s (%s)", what,
	    wok ? "accepts" : "refuses", wok ? "" : e.msg,
	    rok ? "reads back equal" : "does not", rok ? "" : er.msg);
	if (wok)
		ck_assert(wl == rl && memcmp(wb, rb, wl) == 0);
	else
		ck_assert_uint_eq(wl, 0);	/* nothing written */
	free(wb);
	free(rb);
	return wok;
}

/* A random string of n bytes: mostly printable; with bad set, also line
 * breaks, control characters, DEL and bytes over 0x7f. */
static char *
rnd_text(uint64_t *s, size_t n, int bad)
{
	static const char odd[] = "\r\n\t\x01\x1b\x7f\x80\xff ";
	char *t = malloc(n + 1);
	size_t i;

	ck_assert_ptr_nonnull(t);
	for (i = 0; i < n; i++) {
		uint64_t r = tp_test_rnd(s);
		t[i] = bad && r % 13 == 0 ? odd[(r >> 8) % (sizeof(odd) - 1)] :
		    (char)(0x20 + (r >> 16) % 95);
	}
	t[n] = '\0';
	return t;
}

static size_t
rnd_len(uint64_t *s)
{
	switch (tp_test_rnd(s) % 6) {
	case 0: return 0;
	case 1: return tp_test_rnd(s) % 4;
	case 2: return TP_LINE_MAX - 12 + tp_test_rnd(s) % 8;	/* the line limit */
	default: return tp_test_rnd(s) % 60;
	}
}

/* A random valid header: sizes, bands, cell size and origin over many
 * magnitudes, a printable CRS, extra lines and HISTORY. */
static void
rnd_header(tp_header *h, uint64_t *s)
{
	static const char *const keys[] = { "FOO", "SEALEVEL", "A_1", "Z9",
	    "ENDHDRX", "CRSX", "WIDTHS" };
	size_t i, n;
	tp_err e;
	char *t;

	ck_assert_int_eq(tp_header_init(h, 1 + (int64_t)(tp_test_rnd(s) % 5000),
	    1 + (int64_t)(tp_test_rnd(s) % 5000), &e), 0);
	for (i = tp_test_rnd(s) % 4; i > 0; i--) {
		char name[8];
		snprintf(name, sizeof(name), "b%u", (unsigned)(tp_test_rnd(s) % 50));
		tp_header_add_band(h, name, &e);	/* a duplicate: skipped */
	}
	h->cellsize = ldexp((double)(tp_test_rnd(s) % 100000 + 1) / 7,
	    (int)(tp_test_rnd(s) % 80) - 40);
	h->origin_x = ldexp((double)(int64_t)tp_test_rnd(s), -(int)(tp_test_rnd(s) % 60));
	h->origin_y = tp_test_rnd(s) % 3 ? (double)(int64_t)(tp_test_rnd(s) % 10000000) :
	    -1.0 / 3;
	t = rnd_text(s, tp_test_rnd(s) % 40, 0);
	strcpy(h->crs, t);
	free(t);
	for (n = tp_test_rnd(s) % 4; n > 0; n--) {
		char *line;
		t = rnd_text(s, tp_test_rnd(s) % 30, 0);
		line = malloc(strlen(t) + 16);
		sprintf(line, "%s%s%s", keys[tp_test_rnd(s) % 7],
		    *t != '\0' ? " " : "", t);
		ck_assert_int_eq(tp_header_add_extra(h, line, &e), 0);
		free(line);
		free(t);
	}
	for (n = tp_test_rnd(s) % 4; n > 0; n--) {
		t = rnd_text(s, rnd_len(s) % (TP_LINE_MAX - 9), 0);
		ck_assert_int_eq(tp_header_push_history(h, t, &e), 0);
		free(t);
	}
}

/* Property: random valid headers read back equal; random bad values in
 * each line are refused by the writer exactly when the reader would refuse
 * them (or read back something else). */
START_TEST(test_writer_reader_agree)
{
	uint64_t s = 0x9e3779b97f4a7c15u;
	int i, accepted = 0, refused = 0;

	for (i = 0; i < 400; i++) {
		tp_header h;
		char *t, *line;
		size_t n;

		rnd_header(&h, &s);
		ck_assert(agree(&h, "valid"));
		n = rnd_len(&s);
		t = rnd_text(&s, n, 1);
		switch (tp_test_rnd(&s) % 5) {
		case 0:
			tp_header_push_history(&h, t, NULL);
			break;
		case 1:
			if (n < TP_CRS_MAX)
				strcpy(h.crs, t);
			break;
		case 2:
			line = malloc(n + 8);
			sprintf(line, "X%s%s", tp_test_rnd(&s) % 2 ? " " : "", t);
			/* extra lines as a program copying metadata would */
			h.extra = realloc(h.extra, (h.nextra + 1) * sizeof(char *));
			ck_assert_ptr_nonnull(h.extra);
			h.extra[h.nextra++] = line;
			h.cextra = 0;
			break;
		case 3:
			h.cellsize = ldexp(1, (int)(tp_test_rnd(&s) % 2100) - 1074);
			h.origin_x = tp_test_rnd(&s) % 2 ? -h.origin_x : 1e308;
			break;
		default:
			snprintf(h.band[tp_test_rnd(&s) % (unsigned)h.nbands],
			    TP_NAME_MAX, "%.31s", t);
			break;
		}
		if (agree(&h, "mutated"))
			accepted++;
		else
			refused++;
		free(t);
		tp_header_free(&h);
	}
	/* both verdicts were exercised */
	ck_assert_int_gt(accepted, 20);
	ck_assert_int_gt(refused, 20);
}
END_TEST

/* The limits to the byte: a HISTORY line of TP_LINE_MAX - 1 bytes and a
 * header of TP_HEADER_MAX bytes are written and read; one byte more of
 * either is refused by both. */
START_TEST(test_writer_limits)
{
	tp_header h;
	tp_err e;
	char *t = malloc(TP_LINE_MAX + 1), *big;
	size_t fixed, n, i, fill = 60000;

	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(tp_header_init(&h, 2, 2, &e), 0);
	memset(t, 'h', TP_LINE_MAX);
	t[TP_LINE_MAX - 1 - strlen("HISTORY ")] = '\0';
	ck_assert_int_eq(tp_header_push_history(&h, t, &e), 0);
	ck_assert(agree(&h, "longest HISTORY"));
	t[TP_LINE_MAX - 1 - strlen("HISTORY ")] = 'h';
	t[TP_LINE_MAX - strlen("HISTORY ")] = '\0';
	free(h.history[0]);
	h.history[0] = strdup(t);
	ck_assert(!agree(&h, "HISTORY a byte too long"));
	ck_assert_ptr_nonnull(strstr((tp_header_check(&h, &e), e.msg), "HISTORY"));
	tp_header_free(&h);
	/* A header of exactly TP_HEADER_MAX bytes, then one more. */
	ck_assert_int_eq(tp_header_init(&h, 2, 2, &e), 0);
	fixed = strlen("TERRAPIPE 1\nWIDTH 2\nHEIGHT 2\nBANDS height\nCELLSIZE 1\n"
	    "ORIGIN 0 2\nENDHDR\n");
	n = TP_HEADER_MAX - fixed;
	for (i = 0; n > 0; i++) {
		size_t line = n - strlen("HISTORY \n") > fill + 100 ? fill :
		    n - strlen("HISTORY \n");
		memset(t, 'a' + (char)(i % 26), line);
		t[line] = '\0';
		ck_assert_int_eq(tp_header_push_history(&h, t, &e), 0);
		n -= line + strlen("HISTORY \n");
	}
	ck_assert(agree(&h, "header of TP_HEADER_MAX bytes"));
	big = h.history[h.nhistory - 1];
	n = strlen(big);
	h.history[h.nhistory - 1] = malloc(n + 2);
	memcpy(h.history[h.nhistory - 1], big, n);
	strcpy(h.history[h.nhistory - 1] + n, "z");
	free(big);
	ck_assert(!agree(&h, "header a byte over TP_HEADER_MAX"));
	ck_assert_int_eq(tp_header_check(&h, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "over 16777216 bytes"));
	tp_header_free(&h);
	free(t);
}
END_TEST

/* Each refusal names the key. */
START_TEST(test_writer_names_key)
{
	static const struct { int what; const char *val, *msg; } cases[] = {
		{ 0, "tnoise\r", "HISTORY 'tnoise' has a line break at byte 7" },
		{ 0, "a\nFOO b", "HISTORY" },
		{ 1, "EPSG:1\r", "CRS has a control character (byte 7)" },
		{ 2, "FOO a\rb", "extra header line FOO has a line break at byte 6" },
		{ 2, "ENDHDR", "would not keep" },
		{ 2, "CRS x", "would not keep" },
		{ 2, "HISTORY x", "would not keep" },
		{ 2, "foo x", "KEY in capitals" },
		{ 3, "", "CELLSIZE x WIDTH is not a finite extent" },
		{ 4, "", "ORIGIN + WIDTH x CELLSIZE is not finite" },
	};
	size_t i;
	tp_header h;
	tp_err e;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_int_eq(tp_header_init(&h, 2, 2, &e), 0);
		switch (cases[i].what) {
		case 0:
			tp_header_push_history(&h, cases[i].val, &e);
			break;
		case 1:
			strcpy(h.crs, cases[i].val);
			break;
		case 2:
			h.extra = malloc(sizeof(char *));
			h.extra[0] = strdup(cases[i].val);
			h.nextra = 1;
			break;
		case 3:
			h.cellsize = 1e308;
			break;
		default:
			h.origin_x = 1.7e308;
			h.cellsize = 1e307;
			h.origin_y = 1e6;
		}
		ck_assert_int_eq(tp_header_check(&h, &e), -1);
		ck_assert_msg(strstr(e.msg, cases[i].msg) != NULL, "%zu: '%s'",
		    i, e.msg);
		ck_assert(!agree(&h, cases[i].val));
		tp_header_free(&h);
	}
}
END_TEST

/* Row y of a band made at write time: 100 y + x. */
static void
made_row(void *ctx, int64_t y, float *out)
{
	int64_t x, w = *(const int64_t *)ctx;

	for (x = 0; x < w; x++)
		out[x] = (float)(100 * y + x);
}

/* Grid g's rows with the band made_row makes put at index at, into held. */
static void
hold_band(const tp_grid *g, int at, tp_grid *held)
{
	static const char *const names[] = { "height", "flow" };
	int64_t w = g->h.width, y;
	tp_header h;
	tp_err e;
	int b, k;

	ck_assert_int_eq(tp_header_init(&h, w, g->h.height, &e), 0);
	for (b = 0, k = 0; b < 3; b++)
		snprintf(h.band[b], TP_NAME_MAX, "%s", b == at ? "dir" :
		    names[k++]);
	h.nbands = 3;
	ck_assert_int_eq(tp_grid_alloc(held, &h, &e), 0);
	tp_header_free(&h);
	for (y = 0; y < g->h.height; y++) {
		float *row = held->data + (size_t)y * tp_grid_stride(held);

		for (b = 0, k = 0; b < 3; b++)
			if (b == at)
				made_row(&w, y, row + b * w);
			else
				memcpy(row + b * w, tp_grid_band(g, k++) +
				    (size_t)y * tp_grid_stride(g),
				    (size_t)w * sizeof *row);
	}
}

/* tp_grid_write_with at each index writes what a grid holding the band
 * there writes; a bad index or a band already there is refused. */
START_TEST(test_grid_write_with)
{
	int64_t w = 5, y;
	char *wb, *hb;
	size_t wl, hl, x;
	tp_grid g, held;
	tp_header h;
	tp_err e;
	FILE *f;
	int at;

	ck_assert_int_eq(tp_header_init(&h, w, 3, &e), 0);
	ck_assert_int_ge(tp_header_add_band(&h, "flow", &e), 0);
	ck_assert_int_eq(tp_grid_alloc(&g, &h, &e), 0);
	tp_header_free(&h);
	for (y = 0; y < 3; y++)
		for (x = 0; x < 2 * (size_t)w; x++)
			g.data[(size_t)y * tp_grid_stride(&g) + x] =
			    (float)(y * 1000 + (int64_t)x);
	for (at = 0; at <= 2; at++) {
		hold_band(&g, at, &held);
		f = open_memstream(&wb, &wl);
		ck_assert_int_eq(tp_grid_write_with(&g, f, "dir", at, made_row,
		    &w, &e), 0);
		fclose(f);
		f = open_memstream(&hb, &hl);
		ck_assert_int_eq(tp_grid_write(&held, f, &e), 0);
		fclose(f);
		ck_assert_msg(wl == hl && memcmp(wb, hb, wl) == 0,
		    "band at %d", at);
		free(wb);
		free(hb);
		tp_grid_free(&held);
	}
	ck_assert_int_eq(tp_grid_write_with(&g, stdout, "dir", 3, made_row,
	    &w, &e), -1);
	ck_assert_int_eq(tp_grid_write_with(&g, stdout, "flow", 1, made_row,
	    &w, &e), -1);
	tp_grid_free(&g);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("stream");
	TCase *core = tcase_create("core");
	TCase *lim = tcase_create("limits");
	TCase *err = tcase_create("errors");

	tcase_add_test(core, test_parse_all_keys);
	tcase_add_test(core, test_defaults);
	tcase_add_test(core, test_header_round_trip);
	tcase_add_test(core, test_set_extra);
	tcase_add_test(core, test_sealevel);
	tcase_add_test(core, test_set_sealevel);
	tcase_add_test(core, test_body_round_trip);
	tcase_add_test(core, test_bands);
	tcase_add_test(core, test_history_quoting);
	tcase_add_test(core, test_rows_after_read_ahead);
	tcase_add_test(core, test_grid_write_with);
	tcase_add_test(lim, test_grid_and_sizes);
	tcase_add_test(lim, test_declared_size_needs_input);
	tcase_add_test(lim, test_header_lines_cap);
	tcase_add_test(lim, test_writer_reader_agree);
	tcase_add_test(lim, test_writer_limits);
	tcase_add_loop_test(err, test_malformed, 0, sizeof(bads) / sizeof(bads[0]));
	tcase_add_test(err, test_truncated_body);
	tcase_add_test(err, test_writer_names_key);
	suite_add_tcase(s, core);
	suite_add_tcase(s, lim);
	suite_add_tcase(s, err);
	return tp_test_run(s);
}
