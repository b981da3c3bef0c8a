/* tp_test_hills.h - the smooth hilly terrain the erosion suites erode
 * (check_erode, check_thermal, and through tp_test_erode_batch.h
 * check_cl and check_erode_batch), and its sum for mass balances.
 *
 *   hills(w, h)    a malloc'd w x h grid of sines in about [0, 1]
 *   sum(z, n)      the double sum of n floats
 *
 * Included by test programs only, each built alone, so everything here is
 * static, as in tp_test.h. */
#ifndef TP_TEST_HILLS_H
#define TP_TEST_HILLS_H

#include <check.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static inline float *
hills(int64_t w, int64_t h)
{
	float *z = malloc((size_t)(w * h) * sizeof *z);
	int64_t x, y;

	ck_assert_ptr_nonnull(z);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++)
			z[y * w + x] = (float)(0.5 + 0.2 * sin(x * 0.11) *
			    cos(y * 0.07) + 0.1 * sin((x + 2 * y) * 0.23) +
			    0.05 * cos((3 * x - y) * 0.41));
	return z;
}

static inline double
sum(const float *z, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += z[i];
	return s;
}

#endif
