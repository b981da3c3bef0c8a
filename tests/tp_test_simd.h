/* tp_test_simd.h - the check that a kernel gives the same bytes at every
 * vector level this processor runs, scalar included (the suites of the
 * modules with SIMD rows: shape, terrace, island, ridge, noise, erode).
 *
 * Included by test programs only, each built alone, so everything here is
 * static, as in tp_test.h.
 *
 *   TP_TEST_SIMD_N, _ROWS      samples a row (not a multiple of 4 or 8),
 *                              rows of a grid kernel
 *   tp_test_simd_heights(...)  heights with the awkward values first
 *   tp_test_same_at_levels(...) run a kernel at each level, compare bytes
 */
#ifndef TP_TEST_SIMD_H
#define TP_TEST_SIMD_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/tp_simd.h"
#include "tp_test.h"

#define TP_TEST_SIMD_N		1031
#define TP_TEST_SIMD_ROWS	5

/* Runs a kernel at level l on the inputs in ctx, writing n floats. */
typedef void (*tp_test_kernel)(void *ctx, tp_simd_level l, float *out,
    size_t n);

/* Heights in [-0.5, 1.5] with the awkward values in the first cells. */
static inline void
tp_test_simd_heights(float *h, size_t n, uint32_t s)
{
	static const float odd[] = { NAN, INFINITY, -INFINITY, -0.0f, 0.0f,
		1.0f, 0.5f, 1e30f, -1e30f, 1e-45f, 3e9f, 0.125f };

	for (size_t i = 0; i < n; i++) {
		s = s * 1664525u + 1013904223u;
		h[i] = (float)((s >> 8) / 16777216.0 * 2.0 - 0.5);
	}
	memcpy(h, odd, sizeof(odd));
}

/* The kernel's bytes at every level above scalar equal its scalar bytes;
 * what and v name the case in a failure. */
static inline void
tp_test_same_at_levels(tp_test_kernel f, void *ctx, size_t n,
    const char *what, int v)
{
	float *want = malloc(n * sizeof(*want)), *got = malloc(n * sizeof(*got));

	ck_assert_ptr_nonnull(want);
	ck_assert_ptr_nonnull(got);
	f(ctx, TP_SIMD_SCALAR, want, n);
	for (int l = TP_SIMD_SSE2; l <= (int)tp_simd_probe(); l++) {
		memset(got, 0xa5, n * sizeof(*got));
		f(ctx, (tp_simd_level)l, got, n);
		for (size_t i = 0; i < n; i++)
			ck_assert_msg(memcmp(&got[i], &want[i], 4) == 0,
			    "%s case %d: %s sample %zu is %.9g, scalar %.9g",
			    what, v, tp_simd_name((tp_simd_level)l), i,
			    got[i], want[i]);
	}
	free(want);
	free(got);
}

#endif
