/* check_geotiff_write.c - unit tests of tp_geotiff_write: the sample types
 * by name and by band, clamping to a type's range (counted), errors while
 * writing. Files go to a scratch directory per test. */
#include <check.h>
#include <geotiff.h>
#include <geovalues.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xtiffio.h>

#include "io/tp_geotiff.h"
#include "io/tp_geotiff_write.h"
#include "tp_test.h"
#include "tp_test_geogrid.h"
#include "tp_test_scratch.h"

START_TEST(test_write_errors)
{
	tp_geotiff_write_opts o = { .compress = TP_GT_DEFLATE };
	char bad[200];
	tp_grid g;
	tp_geotiff_writer *w;
	tp_err e;

	make_grid(&g, 10, 10, "height", "ESRI:102003");
	ck_assert_int_eq(tp_geotiff_write_grid(path, &g, 0, &o, &e), -1);
	ck_assert_msg(strstr(e.msg, "ESRI:102003") != NULL, "%s", e.msg);
	strcpy(g.h.crs, "EPSG:99999");
	ck_assert_int_eq(tp_geotiff_write_grid(path, &g, 0, &o, &e), -1);
	ck_assert_msg(strstr(e.msg, "EPSG:99999") != NULL, "%s", e.msg);
	strcpy(g.h.crs, "EPSG:32633");
	ck_assert_int_eq(tp_geotiff_write_open(&w, path, &g.h, 0, &o, &e), 0);
	ck_assert_int_eq(tp_geotiff_write_rows(w, g.data, 4, &e), 0);
	ck_assert_int_eq(tp_geotiff_write_close(w, &e), -1);	/* 6 rows missing */
	ck_assert_msg(strstr(e.msg, "4 of 10 rows") != NULL, "%s", e.msg);
	ck_assert_int_eq(count_files(), 0);
	snprintf(bad, sizeof(bad), "%s/no/such/dir.tif", dir);
	ck_assert_int_eq(tp_geotiff_write_grid(bad, &g, 0, &o, &e), -1);
	ck_assert_int_eq(count_files(), 0);
	o.compress = 9;
	ck_assert_int_eq(tp_geotiff_write_grid(path, &g, 0, &o, &e), -1);
	tp_grid_free(&g);
}
END_TEST

/* Rounding half away from zero, clamping counted, and the type names. */
START_TEST(test_clamp_count)
{
	tp_geotiff_write_opts o = { .type = TP_GT_BYTE };
	static const float v[] = { 2.5f, -2.5f, 254.4f, 254.6f, 1e30f, NAN };
	static const float want[] = { 3, 0, 254, 254, 254, NAN };
	tp_header h = tp_test_header(6, 1, 1, 0, 1);
	tp_grid r;
	tp_geotiff_writer *w;
	tp_err e;
	int i;

	ck_assert_int_eq(tp_geotiff_write_open(&w, path, &h, 0, &o, &e), 0);
	ck_assert_int_eq(tp_geotiff_write_rows(w, v, 1, &e), 0);
	ck_assert_uint_eq(tp_geotiff_write_clamped(w), 3);
	ck_assert_int_eq(tp_geotiff_write_close(w, &e), 0);
	ck_assert_int_eq(tp_geotiff_read(&r, path, NULL, &e), 0);
	for (i = 0; i < 6; i++)
		if (isnan(want[i]))
			ck_assert(isnan(r.data[i]));
		else
			ck_assert_float_eq(r.data[i], want[i]);
	tp_grid_free(&r);
	tp_header_free(&h);
	ck_assert_int_eq(tp_geotiff_write_type_parse("Int16"), TP_GT_INT16);
	ck_assert_int_eq(tp_geotiff_write_type_parse("Float64"), -1);
	ck_assert_int_eq(tp_geotiff_write_default_type("dir"), TP_GT_BYTE);
	ck_assert_int_eq(tp_geotiff_write_default_type("basin"), TP_GT_INT32);
	ck_assert_int_eq(tp_geotiff_write_default_type("flow"), TP_GT_FLOAT32);
}
END_TEST

/* Types by name both ways; "auto" for none of them. */
START_TEST(test_type_names)
{
	static const char *const names[] = { "Float32", "Int16", "UInt16",
		"Int32", "Byte" };

	for (int t = TP_GT_FLOAT32; t <= TP_GT_BYTE; t++) {
		ck_assert_str_eq(tp_geotiff_write_type_name(t), names[t - 1]);
		ck_assert_int_eq(tp_geotiff_write_type_parse(names[t - 1]), t);
	}
	ck_assert_str_eq(tp_geotiff_write_type_name(TP_GT_AUTO), "auto");
	ck_assert_str_eq(tp_geotiff_write_type_name(99), "auto");
	ck_assert_int_eq(tp_geotiff_write_type_parse("byte"), -1);	/* case matters */
	ck_assert_int_eq(tp_geotiff_write_type_parse(""), -1);
}
END_TEST

/* Code bands are whole numbers below 255 (bytes), basins excepted. */
START_TEST(test_band_types)
{
	static const char *const codes[] = { "biome", "dir", "river", "order",
		"basin" };
	static const char *const plain[] = { "height", "flow", "slope",
		"rivers", "" };

	for (int i = 0; i < 5; i++) {
		ck_assert_int_eq(tp_geotiff_write_code_band(codes[i]), 1);
		ck_assert_int_eq(tp_geotiff_write_code_band(plain[i]), 0);
		ck_assert_int_eq(tp_geotiff_write_default_type(plain[i]),
		    TP_GT_FLOAT32);
	}
	ck_assert_int_eq(tp_geotiff_write_default_type("biome"), TP_GT_BYTE);
	ck_assert_int_eq(tp_geotiff_write_default_type("order"), TP_GT_BYTE);
	ck_assert_int_eq(tp_geotiff_write_default_type("basin"), TP_GT_INT32);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("geotiff_write");
	TCase *names = tcase_create("names");
	TCase *core = tcase_create("core");
	TCase *err = tcase_create("errors");

	tcase_add_checked_fixture(core, setup, teardown);
	tcase_set_timeout(core, 60);
	tcase_add_test(core, test_clamp_count);
	tcase_add_checked_fixture(err, setup, teardown);
	tcase_add_test(err, test_write_errors);
	tcase_add_test(names, test_type_names);
	tcase_add_test(names, test_band_types);
	suite_add_tcase(s, names);
	suite_add_tcase(s, core);
	suite_add_tcase(s, err);
	return tp_test_run(s);
}
