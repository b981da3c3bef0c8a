/* check_simd.c - unit tests of tp_simd: the probe honours TP_SIMD (a cap,
 * never a raise, nonsense ignored) and the levels' names. Each kernel's
 * same bytes at every level are checked in its module's suite
 * (test_simd_levels, through tp_test_simd.h). */
#include <check.h>
#include <stdlib.h>

#include "core/tp_simd.h"
#include "tp_test.h"

/* TP_SIMD caps the probe; it never raises it, and nonsense is ignored. */
START_TEST(test_probe_cap)
{
	tp_simd_level hw;

	unsetenv("TP_SIMD");
	hw = tp_simd_probe();
	setenv("TP_SIMD", "scalar", 1);
	ck_assert_int_eq(tp_simd_probe(), TP_SIMD_SCALAR);
	setenv("TP_SIMD", "sse2", 1);
	ck_assert_int_eq(tp_simd_probe(), hw < TP_SIMD_SSE2 ? hw : TP_SIMD_SSE2);
	setenv("TP_SIMD", "avx2", 1);
	ck_assert_int_eq(tp_simd_probe(), hw);
	setenv("TP_SIMD", "avx512", 1);
	ck_assert_int_eq(tp_simd_probe(), hw);
	unsetenv("TP_SIMD");
	ck_assert_str_eq(tp_simd_name(TP_SIMD_SSE2), "sse2");
}
END_TEST

static Suite *
simd_suite(void)
{
	Suite *s = suite_create("simd");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_probe_cap);
	suite_add_tcase(s, core);
	return s;
}

int
main(void)
{
	return tp_test_run(simd_suite());
}
