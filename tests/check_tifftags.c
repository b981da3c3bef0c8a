/* check_tifftags.c - unit tests of tp_tifftags: the GDAL and GeoTIFF tags
 * that libtiff knows once registered (written and read back by name),
 * libtiff's errors kept per handle (the first one, prefixed by its
 * module), the fallback message, the narrowing of doubles to floats. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <geotiff.h>
#include <geokeys.h>
#include <geovalues.h>

#include "io/tp_tiffmem.h"
#include "io/tp_tifftags.h"
#include "tp_test.h"

/* Beyond float's range is infinite, not undefined; the rest rounds. */
START_TEST(test_narrow)
{
	ck_assert(tp_tifftags_narrow(1e300) == INFINITY);
	ck_assert(tp_tifftags_narrow(-1e300) == -INFINITY);
	ck_assert(tp_tifftags_narrow(FLT_MAX) == FLT_MAX);
	ck_assert(tp_tifftags_narrow(-FLT_MAX) == -FLT_MAX);
	ck_assert(tp_tifftags_narrow(0.1) == 0.1f);
	ck_assert(tp_tifftags_narrow(-0.0) == 0 &&
	    signbit(tp_tifftags_narrow(-0.0)));
	ck_assert(isnan(tp_tifftags_narrow(NAN)));
	ck_assert(tp_tifftags_narrow(INFINITY) == INFINITY);
}
END_TEST

/* A 2 x 2 byte TIFF in memory with the GDAL tags and one GeoKey. */
static void
write_tagged(tp_tiffmem *m)
{
	tp_tifftags_log log;
	TIFFOpenOptions *opt = tp_tifftags_options(&log, 0);
	unsigned char row[2] = { 1, 2 };
	TIFF *t;
	GTIF *gt;

	ck_assert_ptr_nonnull(opt);
	t = tp_tiffmem_open(m, "tags.tif", "w", opt);
	ck_assert_ptr_nonnull(t);
	TIFFSetField(t, TIFFTAG_IMAGEWIDTH, 2);
	TIFFSetField(t, TIFFTAG_IMAGELENGTH, 2);
	TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, 1);
	TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, 8);
	TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
	/* unknown to libtiff until registered: each set would fail */
	ck_assert_int_eq(TIFFSetField(t, TIFFTAG_GDAL_NODATA, "-9999"), 1);
	ck_assert_int_eq(TIFFSetField(t, TIFFTAG_GDAL_METADATA,
	    "<GDALMetadata></GDALMetadata>"), 1);
	gt = tp_tifftags_gtif_new(t, &log);
	ck_assert_ptr_nonnull(gt);
	ck_assert_int_eq(GTIFKeySet(gt, GTModelTypeGeoKey, TYPE_SHORT, 1,
	    ModelTypeProjected), 1);
	ck_assert_int_eq(GTIFKeySet(gt, ProjectedCSTypeGeoKey, TYPE_SHORT, 1,
	    32633), 1);
	ck_assert_int_eq(GTIFWriteKeys(gt), 1);
	GTIFFree(gt);
	for (uint32_t y = 0; y < 2; y++)
		ck_assert_int_eq(TIFFWriteScanline(t, row, y, 0), 1);
	TIFFClose(t);
	TIFFOpenOptionsFree(opt);
	ck_assert_int_eq(log.nerr, 0);
}

START_TEST(test_tags_round_trip)
{
	tp_tiffmem m = { 0 };
	tp_tifftags_log log;
	TIFFOpenOptions *opt;
	const char *s = NULL;
	unsigned short model = 0, pcs = 0;
	TIFF *t;
	GTIF *gt;

	write_tagged(&m);
	opt = tp_tifftags_options(&log, 0);
	ck_assert_ptr_nonnull(opt);
	t = tp_tiffmem_open(&m, "tags.tif", "r", opt);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(TIFFGetField(t, TIFFTAG_GDAL_NODATA, &s), 1);
	ck_assert_str_eq(s, "-9999");
	ck_assert_int_eq(TIFFGetField(t, TIFFTAG_GDAL_METADATA, &s), 1);
	ck_assert_str_eq(s, "<GDALMetadata></GDALMetadata>");
	ck_assert_str_eq(TIFFFieldName(TIFFFieldWithTag(t,
	    TIFFTAG_GDAL_NODATA)), "GDALNoDataValue");
	gt = tp_tifftags_gtif_new(t, &log);
	ck_assert_ptr_nonnull(gt);
	ck_assert_int_eq(GTIFKeyGetSHORT(gt, GTModelTypeGeoKey, &model, 0, 1),
	    1);
	ck_assert_int_eq(model, ModelTypeProjected);
	ck_assert_int_eq(GTIFKeyGetSHORT(gt, ProjectedCSTypeGeoKey, &pcs, 0,
	    1), 1);
	ck_assert_int_eq(pcs, 32633);
	GTIFFree(gt);
	TIFFClose(t);
	TIFFOpenOptionsFree(opt);
	ck_assert_int_eq(log.nerr, 0);
	free(m.p);
}
END_TEST

/* The first error is kept with its module; later ones only counted.
 * Without an error the caller's fallback is the message. */
START_TEST(test_log)
{
	unsigned char junk[16] = "II*\0garbage....";
	tp_tiffmem m = { .p = junk, .len = sizeof junk };
	tp_tifftags_log log;
	TIFFOpenOptions *opt = tp_tifftags_options(&log, 0);
	char first[sizeof log.msg];

	ck_assert_ptr_nonnull(opt);
	ck_assert_int_eq(log.nerr, 0);
	ck_assert_str_eq(tp_tifftags_why(&log, "cannot read x.tif"),
	    "cannot read x.tif");
	ck_assert_ptr_null(tp_tiffmem_open(&m, "junk.tif", "r", opt));
	ck_assert_int_ge(log.nerr, 1);
	/* "module: message" */
	ck_assert_ptr_nonnull(strstr(log.msg, ": "));
	ck_assert_ptr_eq(tp_tifftags_why(&log, "x"), log.msg);
	strcpy(first, log.msg);
	ck_assert_ptr_null(tp_tiffmem_open(&m, "junk.tif", "r", opt));
	ck_assert_int_ge(log.nerr, 2);
	ck_assert_str_eq(log.msg, first);
	TIFFOpenOptionsFree(opt);
	/* a new log starts empty */
	opt = tp_tifftags_options(&log, 1 << 20);
	ck_assert_ptr_nonnull(opt);
	ck_assert_int_eq(log.nerr, 0);
	ck_assert_str_eq(log.msg, "");
	TIFFOpenOptionsFree(opt);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("tifftags");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_narrow);
	tcase_add_test(core, test_tags_round_trip);
	tcase_add_test(core, test_log);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
