/* check_filltile.c - unit tests of tp_filltile: tiled filling equals the
 * whole-grid tp_fill_pf_sea byte for byte. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_fill.h"
#include "hydro/tiled/tp_filltile.h"
#include "hydro/tiled/tp_filltile_grid.h"
#include "tp_test.h"

static const tp_fill_opts NEXT = { TP_FILL_NEXT, 0 };

static const tp_fill_opts FLAT = { TP_FILL_FLAT, 0 };

static const tp_fill_opts EPS = { TP_FILL_EPSILON, 1e-4f };

/* Fill a copy of z (w x h) whole and tiled (tw x th, threads), compare. */
static void
same_as_whole(const float *z, int w, int h, int tw, int th,
    const tp_fill_opts *o, double sea, int threads)
{
	size_t n = (size_t)w * (size_t)h;
	float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
	tp_filltile_tiling g;
	int64_t rounds;
	tp_err e;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	memcpy(a, z, n * sizeof *a);
	memcpy(b, z, n * sizeof *b);
	ck_assert_int_eq(tp_fill_pf_sea(a, w, h, (size_t)w, o, sea, NULL, &e), 0);
	ck_assert_int_eq(tp_filltile_init(&g, w, h, tw, th, o, sea, &e), 0);
	ck_assert_int_eq(tp_filltile_grid(b, (size_t)w, &g, threads, &rounds,
	    NULL, NULL, &e), 0);
	if (memcmp(a, b, n * sizeof *a) != 0) {
		size_t i;

		for (i = 0; i < n && memcmp(a + i, b + i, sizeof *a) == 0; i++)
			;
		ck_abort_msg("%dx%d by %dx%d rule %d: cell %zu (%zu,%zu) "
		    "whole %.9g tiled %.9g", w, h, tw, th, (int)o->rule, i,
		    i % (size_t)w, i / (size_t)w, a[i], b[i]);
	}
	free(a);
	free(b);
}

/* A 9x3 strip of nested pits whose outlet is the west end: the lake
 * crosses every tile of width 2, and levels climb one float per cell. */
START_TEST(test_nested_pits)
{
	float z[27];
	int x;

	for (x = 0; x < 27; x++)
		z[x] = 10;
	memcpy(z + 9, (float[]){ 3, 2, 5, 1, 4, 0, 6, 1, 10 }, 9 * sizeof *z);
	for (x = 1; x <= 9; x++) {
		same_as_whole(z, 9, 3, x, 1, &NEXT, -INFINITY, 1);
		same_as_whole(z, 9, 3, x, 2, &FLAT, -INFINITY, 2);
		same_as_whole(z, 9, 3, x, 3, &EPS, -INFINITY, 1);
	}
}
END_TEST

/* Fractals (pits, flats, lakes across tiles) at many tile sizes and
 * shapes, every rule, with NaN holes and a sea. */
START_TEST(test_fractals)
{
	static const int sizes[][2] = { { 1, 1 }, { 2, 3 }, { 5, 5 },
	    { 16, 16 }, { 17, 9 }, { 64, 64 }, { 65, 1 }, { 7, 65 } };
	const int n = 65;
	float *z = malloc((size_t)(n * n) * sizeof *z);
	uint64_t s = 0x9e3779b97f4a7c15u + (uint64_t)_i;
	size_t k;
	int i;

	ck_assert_ptr_nonnull(z);
	tp_test_fractal(z, n, &s, 0.6f);
	if (_i % 2 == 1)	/* NaN holes */
		for (i = 0; i < 40; i++)
			z[tp_test_rnd(&s) % (uint64_t)(n * n)] = NAN;
	for (k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		same_as_whole(z, n, n, sizes[k][0], sizes[k][1], &NEXT,
		    -INFINITY, 1 + (int)(k % 2));
		same_as_whole(z, n, n, sizes[k][0], sizes[k][1], &FLAT,
		    -INFINITY, 2);
		same_as_whole(z, n, n, sizes[k][0], sizes[k][1], &EPS,
		    -INFINITY, 1);
		same_as_whole(z, n, n, sizes[k][0], sizes[k][1], &NEXT,
		    -0.1, 2);
	}
	free(z);
}
END_TEST

/* A long winding valley: a serpentine of low cells through walls, whose
 * only outlet is at its far end, crossing every tile many times. */
START_TEST(test_winding_valley)
{
	const int w = 61, h = 61;
	float *z = malloc((size_t)(w * h) * sizeof *z);
	uint64_t s = 7;
	int x, y;

	ck_assert_ptr_nonnull(z);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			int wall = (y % 4 == 0) && !(((y / 4) % 2 == 0) ?
			    x == w - 2 : x == 1);

			z[y * w + x] = wall ? 100 : 1 + 0.01f *
			    tp_test_urand(&s);
		}
	for (x = 0; x < w; x++)		/* border walls, one outlet */
		z[x] = z[(h - 1) * w + x] = 100;
	for (y = 0; y < h; y++)
		z[y * w] = z[y * w + w - 1] = 100;
	z[(h - 2) * w] = 0;
	same_as_whole(z, w, h, 8, 8, &NEXT, -INFINITY, 2);
	same_as_whole(z, w, h, 13, 5, &NEXT, -INFINITY, 1);
	same_as_whole(z, w, h, 4, 61, &EPS, -INFINITY, 2);
	same_as_whole(z, w, h, 8, 8, &FLAT, -INFINITY, 2);
	free(z);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("filltile");
	TCase *core = tcase_create("core");

	tcase_set_timeout(core, 60);
	tcase_add_test(core, test_nested_pits);
	tcase_add_loop_test(core, test_fractals, 0, 4);
	tcase_add_test(core, test_winding_valley);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
