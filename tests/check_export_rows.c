/* check_export_rows.c - unit tests of tp_export_rows: the range from a
 * file and from a pipe, rows fitted and encoded, normal batches, splat
 * picture names. Values by hand. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/tp_export_rows.h"
#include "tp_test.h"

/* Fitting a row: cut to the width, or its last sample repeated. 0..2 on
 * 0..65535 levels: 0, floor(32767.5 + 0.5) = 32768, 65535. */
START_TEST(test_encode_fit)
{
	const float v[3] = { 0, 1, 2 }, nanrow[2] = { 1, NAN };
	uint16_t q[5];
	unsigned char b[8];

	ck_assert_uint_eq(tp_export_rows_encode_fit(TP_EXPORT_PNG16, v, 3, 5, 0,
	    2, q), 0);
	ck_assert(q[0] == 0 && q[1] == 32768 && q[2] == 65535 &&
	    q[3] == 65535 && q[4] == 65535);
	memset(q, 0xee, sizeof q);
	tp_export_rows_encode_fit(TP_EXPORT_PNG16, v, 3, 2, 0, 2, q);
	ck_assert(q[0] == 0 && q[1] == 32768 && q[2] == 0xeeee);
	/* the NaN padded twice counts once; big-endian PGM */
	ck_assert_uint_eq(tp_export_rows_encode_fit(TP_EXPORT_PGM, nanrow, 2, 4,
	    0, 2, b), 1);
	ck_assert_mem_eq(b, "\x80\x00\x00\x00\x00\x00\x00\x00", 8);
}
END_TEST

/* Band "height" of a 3 x 4 stream with a band "a" of 100s before it:
 *	 1    2    3
 *	 4  NaN    6
 *	-1    0    9
 *	 7    8    9
 * its range -1 .. 9 with one NaN. */
static const float band_h[12] = { 1, 2, 3, 4, NAN, 6, -1, 0, 9, 7, 8, 9 };

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
rows_back(tp_export_rows_src *s)
{
	float got[12];
	tp_err e;

	ck_assert_int_eq(tp_export_rows_src_rows(s, got, 4, &e), 0);
	for (int i = 0; i < 12; i++)
		ck_assert(memcmp(&got[i], &band_h[i], sizeof *got) == 0);
}

/* From a file: a pass of one-row batches (progress 1, 2, 3, 4), then the
 * reader back at row 0; from a pipe: the band held. */
START_TEST(test_src_range)
{
	tp_export_rows_loop l = { .progress = count_progress };
	tp_export_range rg;
	tp_export_rows_src s;
	tp_reader r;
	tp_err e;
	double lo, hi;

	for (int pipe = 0; pipe < 2; pipe++) {
		FILE *f = stream_file(0);

		ck_assert_int_eq(tp_reader_open(&r, f, &e), 0);
		ck_assert_int_eq(tp_export_rows_src_init(&s, &r, 1, &e), 0);
		s.batch = 1;
		nseen = 0;
		ck_assert_msg(tp_export_rows_src_range(&s, pipe ? -1 : 0, &rg,
		    &l, &e) == 0, "%s", e.msg);
		tp_export_range_get(&rg, &lo, &hi);
		ck_assert(lo == -1 && hi == 9 && rg.nan == 1);
		ck_assert_int_eq(nseen, pipe ? 0 : 4);
		for (int i = 0; i < nseen; i++)
			ck_assert_int_eq(seen[i], i + 1);
		ck_assert(pipe ? s.plane != NULL : s.plane == NULL);
		ck_assert_int_eq(r.row, pipe ? 4 : 0);
		rows_back(&s);
		tp_export_rows_src_free(&s);
		tp_reader_free(&r);
		fclose(f);
	}
}
END_TEST

/* A stream 4 bytes short: the pass and the hold both fail as truncated. */
START_TEST(test_src_range_truncated)
{
	tp_export_rows_loop l = { 0 };
	tp_export_range rg;
	tp_export_rows_src s;
	tp_reader r;
	tp_err e;

	for (int pipe = 0; pipe < 2; pipe++) {
		FILE *f = stream_file(4);

		ck_assert_int_eq(tp_reader_open(&r, f, &e), 0);
		ck_assert_int_eq(tp_export_rows_src_init(&s, &r, 1, &e), 0);
		ck_assert_int_eq(tp_export_rows_src_range(&s, pipe ? -1 : 0,
		    &rg, &l, &e), -1);
		ck_assert_msg(strstr(e.msg, "truncated") != NULL, "%s", e.msg);
		tp_export_rows_src_free(&s);
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
 *	1 2 3 3 | 4 0 6 6 | 0 0 9 9 | 7 8 9 9 | 7 8 9 9
 * one NaN encoded either way. */
START_TEST(test_heights)
{
	static const uint16_t pad[20] = { 1, 2, 3, 3, 4, 0, 6, 6, 0, 0, 9, 9,
	    7, 8, 9, 9, 7, 8, 9, 9 }, crop[4] = { 1, 2, 4, 0 };
	char dir[] = "/tmp/check_export.XXXXXX", path[64];
	tp_export_rows_loop l = { .threads = 2 };
	tp_export_rows_quant q = { .format = TP_EXPORT_R16, .lo = 0,
	    .hi = 65535 };
	tp_export_writer *w;
	tp_export_range rg;
	tp_export_rows_src s;
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
		ck_assert_int_eq(tp_export_rows_src_init(&s, &r, 1, &e), 0);
		s.batch = 1;
		if (held)
			ck_assert_int_eq(tp_export_rows_src_range(&s, -1, &rg,
			    &l, &e), 0);
		ck_assert_int_eq(tp_export_create(&w, path, q.format, q.width,
		    q.height, 0, "test", &h, &e), 0);
		ck_assert_msg(tp_export_rows_heights(&s, w, &q, &l, &e) == 1,
		    "%s", e.msg);
		ck_assert_int_eq(tp_export_close(w, &e), 0);
		file_is(path, want, (size_t)(q.width * q.height * 2));
		tp_export_rows_src_free(&s);
		tp_reader_free(&r);
		fclose(f);
	}
	tp_header_free(&h);
	rmdir(dir);
}
END_TEST

/* Normal batches of one row and its halo on 2 threads give the rows
 * tp_normalmap_row gives on the band whole: the halo is the right rows. A
 * plane rising 1 a cell east (cell size 1) has the normal (-1, 0, 1) /
 * sqrt 2 at every inner cell: floor(0.2929 x 127.5 + 0.5) = 37, 128,
 * floor(1.7071 x 127.5 + 0.5) = 218. */
START_TEST(test_normal_batches)
{
	char dir[] = "/tmp/check_export.XXXXXX", path[64];
	tp_normalmap_opts no = { .zscale = 1 };
	tp_geo_grid geo = { .cellsize = 1, .north = 4 };
	tp_export_rows_loop l = { .threads = 2 };
	tp_png_writer *png;
	tp_png_grey img;
	tp_export_rows_src s;
	tp_reader r;
	tp_err e;
	uint8_t want[4 * 3 * 3];
	FILE *f = stream_file(0), *pf;
	float plane[12];
	double steep, most = 0, g;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/n.png", dir);
	ck_assert_int_eq(tp_reader_open(&r, f, &e), 0);
	ck_assert_int_eq(tp_export_rows_src_init(&s, &r, 1, &e), 0);
	s.batch = 1;
	ck_assert_int_eq(tp_png_create(&png, path, 3, 4, 3, "test", &r.h, &e),
	    0);
	ck_assert_msg(tp_export_rows_normals(&s, &(tp_export_rows_sink){
	    tp_export_rows_png_row, png }, &no, &geo, &l, &steep, &e) == 0,
	    "%s", e.msg);
	ck_assert_int_eq(tp_png_close(png, &e), 0);
	memcpy(plane, band_h, sizeof plane);
	for (int y = 0; y < 4; y++) {
		g = tp_normalmap_row(&no, y ? plane + 3 * (y - 1) : NULL,
		    plane + 3 * y, y < 3 ? plane + 3 * (y + 1) : NULL, 3, 1, 1,
		    want + 9 * y);
		most = g > most ? g : most;
	}
	ck_assert(steep == most && steep > 0);	/* the steepest of any row */
	ck_assert_ptr_nonnull(pf = fopen(path, "rb"));
	ck_assert_int_eq(tp_png_read_rgb(&img, pf, UINT64_MAX, 0, &e), 0);
	fclose(pf);
	ck_assert(img.width == 3 && img.height == 4);
	ck_assert_mem_eq(img.pix, want, sizeof want);
	free(img.pix);
	for (int i = 0; i < 12; i++)
		plane[i] = (float)(i % 3);
	/* gradient 1 (45 degrees) at the inner cell and the edges */
	ck_assert(tp_normalmap_row(&no, plane, plane + 3, plane + 6, 3, 1, 1,
	    want) == 1);
	ck_assert(want[3] == 37 && want[4] == 128 && want[5] == 218);
	unlink(path);
	rmdir(dir);
	tp_export_rows_src_free(&s);
	tp_reader_free(&r);
	fclose(f);
}
END_TEST

/* A splat row's slot: slot 6 is picture 1's B channel. */
START_TEST(test_slot)
{
	uint8_t px[3 * 4 * 2], grey[3];

	for (int i = 0; i < (int)sizeof px; i++)
		px[i] = (uint8_t)i;
	tp_export_rows_slot(px, 3, 6, grey);
	ck_assert(grey[0] == 14 && grey[1] == 18 && grey[2] == 22);
	tp_export_rows_slot(px, 3, 0, grey);
	ck_assert(grey[0] == 0 && grey[1] == 4 && grey[2] == 8);
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
			char *n = tp_export_rows_pic_name(cases[i][0], 2 * k, NULL);

			ck_assert_str_eq(n, cases[i][1 + k]);
			free(n);
		}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("export_rows");
	TCase *rw = tcase_create("rows");

	tcase_add_test(rw, test_encode_fit);
	tcase_add_test(rw, test_src_range);
	tcase_add_test(rw, test_src_range_truncated);
	tcase_add_test(rw, test_heights);
	tcase_add_test(rw, test_normal_batches);
	tcase_add_test(rw, test_slot);
	tcase_add_test(rw, test_pic_names);
	suite_add_tcase(s, rw);
	return tp_test_run(s);
}
