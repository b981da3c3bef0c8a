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
 *   tp_test_world, tp_test_world_header(), tp_test_world_rows()
 *                              a kernel of rows placed in the world
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

/* A kernel that places samples by their world position (tisland's and
 * tridge's rows): row(k, h, y, in, out) for rows 0, step, 2 step, ... of
 * h, a TP_TEST_SIMD_N x 40 grid of cells of 2.5 with its north-west
 * corner at (-1000.25, 60); simd points at the kernel's level. */
typedef struct tp_test_world {
	tp_header	h;
	const void	*k;
	void		(*row)(const void *k, const tp_header *h, int64_t y,
			    const float *in, float *out);
	tp_simd_level	*simd;
	int64_t		step;
} tp_test_world;

/* w's grid placed in the world as above; free it with tp_header_free. */
static inline void
tp_test_world_header(tp_test_world *w)
{
	tp_err e;

	ck_assert_int_eq(tp_header_init(&w->h, TP_TEST_SIMD_N, 40, &e), 0);
	w->h.cellsize = 2.5;
	w->h.origin_x = -1000.25;
	w->h.origin_y = 60.0;
}

/* A tp_test_kernel: the world kernel ctx at level l, on the test heights,
 * TP_TEST_SIMD_ROWS rows. */
static inline void
tp_test_world_rows(void *ctx, tp_simd_level l, float *out, size_t n)
{
	tp_test_world *w = ctx;
	float in[TP_TEST_SIMD_N];

	tp_test_simd_heights(in, TP_TEST_SIMD_N, 13);
	*w->simd = l;
	for (int64_t r = 0; r < TP_TEST_SIMD_ROWS; r++)
		w->row(w->k, &w->h, r * w->step, in, out + r *
		    TP_TEST_SIMD_N);
}

#endif
