/* tp_test.h - shared generators of the Check suites (tests/check_*.c).
 *
 * Included by test programs only, each built alone, so everything here is
 * static. The generators are deterministic: a test that fails reproduces
 * with the same seed on every machine.
 *
 *   tp_test_rnd(&s)        xorshift64 step: the next 64-bit value of state s
 *   tp_test_urand(&s)      a float uniform in [-0.5, 0.5), 24 bits of s
 *   tp_test_fractal(...)   midpoint-displacement terrain on a square lattice
 *   tp_test_header(...)    a one-band header with a cell size and an origin
 */
#ifndef TP_TEST_H
#define TP_TEST_H

#include <check.h>
#include <stdint.h>

#include "stream/tp_stream.h"

/* Next value of the xorshift64 state *s (never 0 when seeded non-zero). */
static inline uint64_t
tp_test_rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A float uniform in [-0.5, 0.5): the top 24 bits of the next value. */
static inline float
tp_test_urand(uint64_t *s)
{
	return (float)((tp_test_rnd(s) >> 40) / 16777216.0) - 0.5f;
}

/* Diamond-square midpoint displacement into the n x n grid g (n = 2^k + 1):
 * corners 0, each level's offsets scaled by rough (0.5..0.7 looks like
 * terrain, with pits and flats for the hydrology tests). */
static inline void
tp_test_fractal(float *g, int n, uint64_t *s, float rough)
{
	int step, half, x, y;
	float amp = 1;

	for (y = 0; y < n; y++)
		for (x = 0; x < n; x++)
			g[y * n + x] = 0;
	for (step = n - 1; step > 1; step /= 2, amp *= rough) {
		half = step / 2;
		for (y = half; y < n; y += step)
			for (x = half; x < n; x += step)
				g[y * n + x] = (g[(y - half) * n + x - half] +
				    g[(y - half) * n + x + half] +
				    g[(y + half) * n + x - half] +
				    g[(y + half) * n + x + half]) / 4 +
				    amp * tp_test_urand(s);
		for (y = 0; y < n; y += half)
			for (x = (y / half) % 2 ? 0 : half; x < n; x += step) {
				float sum = 0;
				int c = 0;
				if (x >= half) { sum += g[y * n + x - half]; c++; }
				if (x + half < n) { sum += g[y * n + x + half]; c++; }
				if (y >= half) { sum += g[(y - half) * n + x]; c++; }
				if (y + half < n) { sum += g[(y + half) * n + x]; c++; }
				g[y * n + x] = sum / (float)c + amp * tp_test_urand(s);
			}
	}
}

/* What a progress callback (tp_progress_fn) was told: the calls, the last
 * report, and whether done ever went down or past the total, or the total
 * changed. */
typedef struct tp_test_told {
	int	calls, bad;
	int64_t	done, total;
} tp_test_told;

/* A tp_progress_fn recording into the tp_test_told at ctx. */
static inline void
tp_test_tell(void *ctx, int64_t done, int64_t total)
{
	tp_test_told *t = ctx;

	t->bad |= done < t->done || done > total ||
	    (t->calls > 0 && total != t->total);
	t->calls++;
	t->done = done;
	t->total = total;
}

/* A w x hh header, one band "height", cell size cs, north-west corner
 * (x0, y0); fails the test when tp_header_init refuses the size. */
static inline tp_header
tp_test_header(int64_t w, int64_t hh, double cs, double x0, double y0)
{
	tp_header h;
	tp_err e;

	ck_assert_int_eq(tp_header_init(&h, w, hh, &e), 0);
	h.cellsize = cs;
	h.origin_x = x0;
	h.origin_y = y0;
	return h;
}

/* Run suite s with Check's normal output; the exit status for main. */
static inline int
tp_test_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}

#endif
