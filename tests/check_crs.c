/*
 * check_crs.c - unit tests of tp_crs: EPSG codes PROJ knows, and not.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "geo/tp_crs.h"
#include "tp_test.h"

START_TEST(test_check)
{
	tp_err e;

	ck_assert_int_eq(tp_crs_check(32633, &e), 0);	/* UTM 33 N */
	ck_assert_int_eq(tp_crs_check(4326, &e), 0);
	ck_assert_int_eq(tp_crs_check(99999, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "EPSG:99999"));
}
END_TEST

START_TEST(test_wkt)
{
	char *wkt, *name;
	tp_err e;

	ck_assert_int_eq(tp_crs_wkt(32633, &wkt, &name, &e), 0);
	ck_assert_str_eq(name, "WGS 84 / UTM zone 33N");
	ck_assert_ptr_nonnull(strstr(wkt, "PROJCS"));
	free(wkt);
	free(name);
}
END_TEST

static Suite *
crs_suite(void)
{
	Suite *s = suite_create("crs");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_check);
	tcase_add_test(tc, test_wkt);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tp_test_run(crs_suite());
}
