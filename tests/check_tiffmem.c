/* check_tiffmem.c - unit tests of tp_tiffmem: float TIFFs written into a
 * growing buffer and read back from it, sample for sample, with libtiff;
 * a read-only buffer refuses writes; bytes that are no TIFF open as
 * nothing. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/tp_tiffmem.h"
#include "io/tp_tifftags.h"
#include "tp_test.h"

/* A w x h one-band float TIFF of v(x, y) = y * w + x + 0.25 into m. */
static void
write_floats(tp_tiffmem *m, uint32_t w, uint32_t h, uint16_t comp)
{
	tp_tifftags_log log;
	TIFFOpenOptions *opt = tp_tifftags_options(&log, 0);
	TIFF *t;
	float *row = malloc(w * sizeof *row);

	ck_assert(opt != NULL && row != NULL);
	t = tp_tiffmem_open(m, "mem.tif", "w", opt);
	ck_assert_msg(t != NULL, "%s", tp_tifftags_why(&log, "no TIFF"));
	ck_assert_int_eq(m->readonly, 0);
	TIFFSetField(t, TIFFTAG_IMAGEWIDTH, w);
	TIFFSetField(t, TIFFTAG_IMAGELENGTH, h);
	TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, 1);
	TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, 32);
	TIFFSetField(t, TIFFTAG_SAMPLEFORMAT, SAMPLEFORMAT_IEEEFP);
	TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
	TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
	TIFFSetField(t, TIFFTAG_COMPRESSION, comp);
	TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, 7);
	for (uint32_t y = 0; y < h; y++) {
		for (uint32_t x = 0; x < w; x++)
			row[x] = (float)(y * w + x) + 0.25f;
		ck_assert_int_eq(TIFFWriteScanline(t, row, y, 0), 1);
	}
	TIFFClose(t);
	TIFFOpenOptionsFree(opt);
	free(row);
	ck_assert_uint_gt(m->len, 0);
	ck_assert_uint_le(m->len, m->cap);
}

/* Read m's TIFF back: its size and every sample. */
static void
read_floats(tp_tiffmem *m, uint32_t w, uint32_t h)
{
	tp_tifftags_log log;
	TIFFOpenOptions *opt = tp_tifftags_options(&log, 0);
	uint32_t tw = 0, th = 0;
	float *row = malloc(w * sizeof *row);
	TIFF *t;

	ck_assert(opt != NULL && row != NULL);
	t = tp_tiffmem_open(m, "mem.tif", "r", opt);
	ck_assert_msg(t != NULL, "%s", tp_tifftags_why(&log, "no TIFF"));
	ck_assert_int_eq(m->readonly, 1);
	TIFFGetField(t, TIFFTAG_IMAGEWIDTH, &tw);
	TIFFGetField(t, TIFFTAG_IMAGELENGTH, &th);
	ck_assert_uint_eq(tw, w);
	ck_assert_uint_eq(th, h);
	for (uint32_t y = 0; y < h; y++) {
		ck_assert_int_eq(TIFFReadScanline(t, row, y, 0), 1);
		for (uint32_t x = 0; x < w; x++)
			ck_assert_float_eq(row[x], (float)(y * w + x) + 0.25f);
	}
	ck_assert_int_eq(log.nerr, 0);
	TIFFClose(t);
	TIFFOpenOptionsFree(opt);
	free(row);
}

/* A 5 x 3 grid fits the first 64 KiB. */
START_TEST(test_small_round_trip)
{
	tp_tiffmem m = { 0 };

	write_floats(&m, 5, 3, COMPRESSION_NONE);
	ck_assert_uint_eq(m.cap, 1 << 16);
	read_floats(&m, 5, 3);
	free(m.p);
}
END_TEST

/* 300 x 200 floats (240000 bytes) grow the buffer by doubling to 256
 * KiB; compressed, libtiff seeks back to rewrite its directory. */
START_TEST(test_growing_round_trip)
{
	tp_tiffmem m = { 0 };

	write_floats(&m, 300, 200, COMPRESSION_NONE);
	ck_assert_uint_ge(m.len, 300 * 200 * 4);
	ck_assert_uint_eq(m.cap, 1 << 18);
	read_floats(&m, 300, 200);
	free(m.p);
	memset(&m, 0, sizeof m);
	write_floats(&m, 300, 200, COMPRESSION_ADOBE_DEFLATE);
	read_floats(&m, 300, 200);
	free(m.p);
}
END_TEST

/* Opened for reading, the caller's bytes are never written. */
START_TEST(test_readonly)
{
	tp_tiffmem m = { 0 };
	unsigned char *copy;
	size_t n;

	write_floats(&m, 4, 4, COMPRESSION_NONE);
	n = (size_t)m.len;
	copy = malloc(n);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, m.p, n);
	read_floats(&m, 4, 4);
	ck_assert_uint_eq(m.len, n);
	ck_assert(memcmp(copy, m.p, n) == 0);
	free(copy);
	free(m.p);
}
END_TEST

/* Bytes that are not a TIFF: no handle, and the log says why. */
START_TEST(test_not_tiff)
{
	unsigned char junk[64];
	tp_tiffmem m = { .p = junk, .len = sizeof junk };
	tp_tifftags_log log;
	TIFFOpenOptions *opt = tp_tifftags_options(&log, 0);

	ck_assert_ptr_nonnull(opt);
	memset(junk, 'x', sizeof junk);
	ck_assert_ptr_null(tp_tiffmem_open(&m, "junk", "r", opt));
	ck_assert_int_ge(log.nerr, 1);
	ck_assert_str_ne(tp_tifftags_why(&log, "fallback"), "fallback");
	m.len = 0;
	ck_assert_ptr_null(tp_tiffmem_open(&m, "empty", "r", opt));
	TIFFOpenOptionsFree(opt);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("tiffmem");
	TCase *core = tcase_create("core");
	TCase *errors = tcase_create("errors");

	tcase_add_test(core, test_small_round_trip);
	tcase_add_test(core, test_growing_round_trip);
	tcase_add_test(core, test_readonly);
	tcase_add_test(errors, test_not_tiff);
	suite_add_tcase(s, core);
	suite_add_tcase(s, errors);
	return tp_test_run(s);
}
