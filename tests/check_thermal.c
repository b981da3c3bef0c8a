/* check_thermal.c - unit tests of tp_thermal: talus relaxation of a
 * spike by hand, the same bytes on any number of threads. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "erode/tp_thermal.h"
#include "tp_test.h"
#include "tp_test_hills.h"

START_TEST(test_thermal_spike)
{
	/* One spike of 1 on 0, talus 0.1: each edge neighbour gets
	 * 0.0625*(1 - 0.1) = 0.05625, each corner 0.0625*(1 - 0.1*sqrt 2)
	 * = 0.0536612; the spike keeps 1 - 4*0.05625 - 4*0.0536612. */
	float z[9] = { 0, 0, 0, 0, 1, 0, 0, 0, 0 };
	tp_err e;

	ck_assert_int_eq(tp_thermal(z, 3, 3, 3, 1, 0.1, -INFINITY, 1, &e), 0);
	ck_assert_float_eq_tol(z[4], 0.5603553f, 1e-6);
	ck_assert_float_eq_tol(z[1], 0.05625f, 1e-7);
	ck_assert_float_eq_tol(z[3], 0.05625f, 1e-7);
	ck_assert_float_eq_tol(z[0], 0.0536612f, 1e-7);
	ck_assert_float_eq_tol(z[8], 0.0536612f, 1e-7);
	ck_assert_double_eq_tol(sum(z, 9), 1.0, 1e-6);
}
END_TEST

START_TEST(test_thermal_threads)
{
	const int64_t w = 200, h = 150;
	float *a = hills(w, h), *b = hills(w, h);
	double before;
	tp_err e;

	a[500] = b[500] = NAN;
	a[500] = 0;
	before = sum(a, (size_t)(w * h));
	a[500] = NAN;
	ck_assert_int_eq(tp_thermal(a, w, h, (size_t)w, 5, 0.002, -INFINITY, 1, &e), 0);
	ck_assert_int_eq(tp_thermal(b, w, h, (size_t)w, 5, 0.002, -INFINITY, 2, &e), 0);
	ck_assert_mem_eq(a, b, (size_t)(w * h) * sizeof *a);
	ck_assert(isnan(a[500]));
	a[500] = 0;
	ck_assert_double_eq_tol(sum(a, (size_t)(w * h)), before, 1e-3);
	free(a);
	free(b);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("thermal");
	TCase *core = tcase_create("core");

	tcase_set_timeout(core, 60);
	tcase_add_test(core, test_thermal_spike);
	tcase_add_test(core, test_thermal_threads);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
