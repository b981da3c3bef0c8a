/* check_import.c - unit tests of tp_import: raw and PGM heights, reading
 * whole files and devices, sniffing the format, checking a CRS. Files
 * go to a scratch directory per test. */
#include <check.h>
#include <geotiff.h>
#include <geovalues.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xtiffio.h>

#include "io/tp_import.h"
#include "tp_test.h"
#include "tp_test_scratch.h"

/* --- the importers --- */

static FILE *
bytes_file(const void *b, size_t n)
{
	FILE *f = fopen(path, "w+b");

	fwrite(b, 1, n, f);
	rewind(f);
	return f;
}

START_TEST(test_raw)
{
	float v[6] = { 1, 2, 3, 4, 5, NAN };
	tp_grid g;
	tp_err e;
	FILE *f = bytes_file(v, sizeof(v));

	ck_assert_int_eq(tp_import_raw(&g, f, 3, 2, &e), 0);
	ck_assert_float_eq(g.data[4], 5);
	ck_assert(isnan(g.data[5]));
	ck_assert_double_eq(g.h.origin_y, 2);
	tp_grid_free(&g);
	rewind(f);			/* longer: the first 2x2, and 1 */
	ck_assert_int_eq(tp_import_raw(&g, f, 2, 2, &e), 1);
	ck_assert_float_eq(g.data[3], 4);
	tp_grid_free(&g);
	rewind(f);			/* shorter: refused, naming sizes */
	ck_assert_int_eq(tp_import_raw(&g, f, 4, 2, &e), -1);
	ck_assert_msg(strstr(e.msg, "needs 32 bytes, the input has 24") != NULL,
	    "%s", e.msg);
	fclose(f);
}
END_TEST

/* A device that never ends gives exactly the raster; one that is empty
 * is short (devices seek but have no size). */
START_TEST(test_raw_devices)
{
	tp_grid g;
	tp_err e;
	FILE *f;
	int i;

	ck_assert_ptr_nonnull(f = fopen("/dev/zero", "rb"));
	ck_assert_msg(tp_import_raw(&g, f, 4, 4, &e) == 1, "%s", e.msg);
	ck_assert_int_eq(g.h.width * g.h.height, 16);
	for (i = 0; i < 16; i++)
		ck_assert_float_eq(g.data[i], 0);
	tp_grid_free(&g);
	fclose(f);
	ck_assert_ptr_nonnull(f = fopen("/dev/null", "rb"));
	ck_assert_int_eq(tp_import_raw(&g, f, 4, 4, &e), -1);
	ck_assert_msg(strstr(e.msg, "needs 64 bytes, the input has 0") != NULL,
	    "%s", e.msg);
	fclose(f);
}
END_TEST

/* Input that is not a file is held whole, after the bytes already read,
 * up to a cap. */
START_TEST(test_slurp)
{
	char text[100];
	unsigned char *b;
	size_t n;
	tp_err e;
	FILE *f;

	memset(text, 'a', sizeof(text));
	f = fmemopen(text, sizeof(text), "rb");
	ck_assert_int_eq(tp_import_slurp(f, (const unsigned char *)"xy", 2,
	    102, &b, &n, &e), 0);
	ck_assert_int_eq(n, 102);
	ck_assert(b[0] == 'x' && b[1] == 'y' && b[2] == 'a' && b[101] == 'a');
	free(b);
	rewind(f);
	ck_assert_int_eq(tp_import_slurp(f, (const unsigned char *)"xy", 2,
	    101, &b, &n, &e), -1);
	ck_assert_ptr_null(b);
	ck_assert_msg(strstr(e.msg, "more than 101 bytes") != NULL, "%s", e.msg);
	fclose(f);
	ck_assert_ptr_nonnull(f = fopen("/dev/zero", "rb"));
	ck_assert_int_eq(tp_import_slurp(f, NULL, 0, 3 << 20, &b, &n, &e), -1);
	fclose(f);
}
END_TEST

/* Only what the stream's CRS line can hold. */
START_TEST(test_check_crs)
{
	char long_crs[TP_CRS_MAX + 1];
	tp_err e;

	memset(long_crs, 'a', TP_CRS_MAX);
	long_crs[TP_CRS_MAX] = '\0';
	ck_assert_int_eq(tp_import_check_crs("EPSG:32633", &e), 0);
	ck_assert_int_eq(tp_import_check_crs("+proj=utm +zone=33", &e), 0);
	ck_assert_int_eq(tp_import_check_crs("EPSG:1\r", &e), -1);
	ck_assert_int_eq(tp_import_check_crs("EPSG:\t1", &e), -1);
	ck_assert_int_eq(tp_import_check_crs("EPSG:1\xc3\xa9", &e), -1);
	ck_assert_int_eq(tp_import_check_crs(" EPSG:1", &e), -1);
	ck_assert_int_eq(tp_import_check_crs("", &e), -1);
	ck_assert_int_eq(tp_import_check_crs(long_crs, &e), -1);
	long_crs[TP_CRS_MAX - 1] = '\0';
	ck_assert_int_eq(tp_import_check_crs(long_crs, &e), 0);
}
END_TEST

START_TEST(test_pgm)
{
	static const unsigned char p16[] = "P5\n# made by hand\n3 1\n65535\n"
	    "\x00\x00\x80\x00\xff\xff";
	static const unsigned char p8[] = "P5 2 1 200 \x00\xc8";
	tp_grid g;
	tp_err e;
	FILE *f;

	ck_assert_int_eq(tp_import_sniff(p16, 8), TP_FMT_PGM);
	f = bytes_file(p16, sizeof(p16) - 1);
	ck_assert_msg(tp_import_pgm(&g, f, &e) == 0, "%s", e.msg);
	fclose(f);
	ck_assert_float_eq(g.data[0], 0);
	ck_assert_float_eq_tol(g.data[1], 32768.0 / 65535, 1e-7);
	ck_assert_float_eq(g.data[2], 1);
	tp_import_zrange(&g, -10, 90);
	ck_assert_float_eq(g.data[2], 90);
	tp_grid_free(&g);
	f = bytes_file(p8, sizeof(p8) - 1);
	ck_assert_int_eq(tp_import_pgm(&g, f, &e), 0);
	fclose(f);
	ck_assert_float_eq(g.data[1], 1);
	tp_grid_free(&g);
	f = bytes_file(p16, sizeof(p16) - 2);	/* one byte short */
	ck_assert_int_eq(tp_import_pgm(&g, f, &e), -1);
	ck_assert_msg(strstr(e.msg, "truncated") != NULL, "%s", e.msg);
	fclose(f);
	f = bytes_file("P5 3 0 255\n", 11);
	ck_assert_int_eq(tp_import_pgm(&g, f, &e), -1);
	fclose(f);
	f = bytes_file("P5 44 62557535 65535\n\xff\xff", 23);	/* 5.5 GB */
	ck_assert_int_eq(tp_import_pgm(&g, f, &e), -1);
	ck_assert_msg(strstr(e.msg, "needs 5505063080 bytes") != NULL, "%s",
	    e.msg);
	fclose(f);
}
END_TEST

START_TEST(test_sniff)
{
	ck_assert_int_eq(tp_import_sniff((const unsigned char *)"II*\0", 4),
	    TP_FMT_TIFF);
	ck_assert_int_eq(tp_import_sniff((const unsigned char *)"MM\0+", 4),
	    TP_FMT_TIFF);
	ck_assert_int_eq(tp_import_sniff((const unsigned char *)
	    "\x89PNG\r\n\x1a\n", 8), TP_FMT_PNG);
	ck_assert_int_eq(tp_import_sniff((const unsigned char *)"P6 ", 3),
	    TP_FMT_UNKNOWN);
	ck_assert_int_eq(tp_import_sniff((const unsigned char *)"II", 2),
	    TP_FMT_UNKNOWN);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("import");
	TCase *core = tcase_create("core");
	TCase *err = tcase_create("errors");

	tcase_add_checked_fixture(core, setup, teardown);
	tcase_set_timeout(core, 60);
	tcase_add_test(core, test_raw);
	tcase_add_test(core, test_raw_devices);
	tcase_add_test(core, test_slurp);
	tcase_add_test(core, test_pgm);
	tcase_add_test(core, test_sniff);
	tcase_add_checked_fixture(err, setup, teardown);
	tcase_add_test(err, test_check_crs);
	suite_add_tcase(s, core);
	suite_add_tcase(s, err);
	return tp_test_run(s);
}
