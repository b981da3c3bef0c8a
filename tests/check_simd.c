/* check_simd.c - every kernel gives the same bytes at every vector level
 * this processor runs, scalar included, and the probe honours TP_SIMD. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "erode/tp_erode.h"
#include "gen/tp_island.h"
#include "gen/tp_noise.h"
#include "gen/tp_ridge.h"
#include "gen/tp_shape.h"
#include "core/tp_simd.h"
#include "gen/tp_terrace.h"
#include "tp_test.h"

#define N	1031	/* samples per row: not a multiple of 4 or 8 */
#define ROWS	5

/* Runs a kernel at level l on the inputs in ctx, writing n floats. */
typedef void (*kernel_fn)(void *ctx, tp_simd_level l, float *out, size_t n);

/* Heights in [-0.5, 1.5] with the awkward values in the first cells. */
static void
heights(float *h, size_t n, uint32_t s)
{
	static const float odd[] = { NAN, INFINITY, -INFINITY, -0.0f, 0.0f,
		1.0f, 0.5f, 1e30f, -1e30f, 1e-45f, 3e9f, 0.125f };

	for (size_t i = 0; i < n; i++) {
		s = s * 1664525u + 1013904223u;
		h[i] = (float)((s >> 8) / 16777216.0 * 2.0 - 0.5);
	}
	memcpy(h, odd, sizeof(odd));
}

/* The kernel's bytes at every level above scalar equal its scalar bytes. */
static void
same_at_levels(kernel_fn f, void *ctx, size_t n, const char *what, int v)
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

/* The point stages: one row, tshape's or tterrace's (in place). */
typedef struct pointrun {
	int	terrace;
	tp_shape sh;
	tp_terrace te;
} pointrun;

static void
run_point(void *ctx, tp_simd_level l, float *out, size_t n)
{
	pointrun *p = ctx;

	heights(out, n, 11);
	p->sh.simd = p->te.simd = l;
	if (p->terrace)
		tp_terrace_row(&p->te, out, out, n);
	else
		tp_shape_row(&p->sh, out, out, n);
}

/* Presets (small lookups), 9 even knots and 7 uneven ones (large and
 * point lookups), with and without a stretch and a pow. */
START_TEST(test_shape)
{
	static const double y9[] = { 0, .05, .1, .3, .35, .6, .8, .95, 1 };
	static const double x7[] = { 0, .1, .15, .5, .6, .9, 1 };
	tp_curve c;
	pointrun p = { .terrace = 0 };
	tp_err e;
	int kind = _i % 7;

	if (kind < 5)
		ck_assert_int_eq(tp_curve_preset_init(&c, (tp_curve_preset)kind,
		    &e), 0);
	else if (kind == 5)
		ck_assert_int_eq(tp_curve_knots(&c, y9, 9, &e), 0);
	else
		ck_assert_int_eq(tp_curve_points(&c, x7, y9, 7, &e), 0);
	tp_shape_init(&p.sh, &c);
	if (_i / 7 % 2)
		ck_assert_int_eq(tp_shape_stretch(&p.sh, -0.2, 1.3, &e), 0);
	if (_i / 14)
		p.sh.k = 2.5;
	same_at_levels(run_point, &p, N, "shape", _i);
}
END_TEST

/* Sloped risers, riser 0 and naive, few and many steps. */
START_TEST(test_terrace)
{
	static const int steps[] = { 1, 8, 1000 };
	static const double risers[] = { 0.35, 0.0, 1.0 };
	pointrun p = { .terrace = 1 };
	tp_err e;

	ck_assert_int_eq(tp_terrace_init(&p.te, steps[_i % 3],
	    risers[_i / 3 % 3], _i / 9, &e), 0);
	same_at_levels(run_point, &p, N, "terrace", _i);
}
END_TEST

/* The grid stages that place samples by their world position. */
typedef struct gridrun {
	tp_header h;
	int	ridge;		/* 1: tridge's rows, 0: tisland's */
	tp_island is;
	tp_ridge rg;
} gridrun;

static void
run_grid(void *ctx, tp_simd_level l, float *out, size_t n)
{
	gridrun *g = ctx;
	float in[N];

	heights(in, N, 13);
	g->is.simd = g->rg.simd = l;
	for (int64_t r = 0; r < ROWS; r++)
		if (g->ridge)
			tp_ridge_row(&g->rg, &g->h, r * 5, in, out + r * N);
		else
			tp_island_row(&g->is, &g->h, r * 7, in, out + r * N);
}

static void
grid_init(gridrun *g, int ridge)
{
	tp_err e;

	g->ridge = ridge;
	ck_assert_int_eq(tp_header_init(&g->h, N, 40, &e), 0);
	g->h.cellsize = 2.5;
	g->h.origin_x = -1000.25;
	g->h.origin_y = 60.0;
}

/* The three shapes, without and with a warped coast. */
START_TEST(test_island)
{
	gridrun g;
	tp_err e;

	grid_init(&g, 0);
	tp_island_defaults(&g.is);
	tp_island_extent(&g.is, &g.h);
	g.is.shape = (tp_island_shape)(_i % 3);
	g.is.mix = 0.8;
	if (_i >= 3)
		ck_assert_int_eq(tp_island_warp(&g.is, 0.3, 2.0, 5, &e), 0);
	ck_assert_int_eq(tp_island_columns(&g.is, &g.h, &e), 0);
	same_at_levels(run_grid, &g, (size_t)N * ROWS, "island", _i);
	tp_island_free(&g.is);
	tp_header_free(&g.h);
}
END_TEST

/* Each kind of noise, one and several octaves, masked and naive. */
START_TEST(test_ridge)
{
	gridrun g;
	tp_err e;

	grid_init(&g, 1);
	tp_ridge_defaults(&g.rg);
	g.rg.noise.kind = (tp_noise_kind)(_i % 3);
	g.rg.noise.octaves = _i / 3 % 2 ? 1 : 5;
	g.rg.noise.frequency = 1.0 / 40.0;
	g.rg.naive = _i / 6;
	ck_assert_int_eq(tp_ridge_init(&g.rg, &e), 0);
	same_at_levels(run_grid, &g, (size_t)N * ROWS, "ridge", _i);
	tp_header_free(&g.h);
}
END_TEST

static void
run_fbm(void *ctx, tp_simd_level l, float *out, size_t n)
{
	/* near the origin, far out and past the coordinate clamp */
	static const double x0s[ROWS] = { -1234.5, 0.0, -7e6, 3.3e8, -1e12 };
	static const double cs[ROWS] = { 3.0, 1.0, 30.0, 0.1, 1e3 };
	tp_fbm *p = ctx;

	p->simd = l;
	for (int r = 0; r < ROWS; r++)
		tp_fbm_row(p, x0s[r], -17, cs[r], 77.25 - x0s[r] / 3,
		    out + (size_t)r * N, N);
}

/* Every kind and fade, without and with a domain warp. */
START_TEST(test_noise)
{
	tp_fbm p;

	tp_fbm_defaults(&p);
	p.kind = (tp_noise_kind)(_i % 3);
	p.fade = (tp_fade)(_i / 3 % 3);
	p.octaves = 4;
	p.frequency = 1.0 / 50.0;
	if (_i / 9)
		p.warp = 30.0;
	same_at_levels(run_fbm, &p, (size_t)N * ROWS, "noise", _i);
}
END_TEST

typedef struct eroderun {
	tp_erode_opts o;
	int64_t w, h;
} eroderun;

static void
run_erode(void *ctx, tp_simd_level l, float *z, size_t n)
{
	eroderun *r = ctx;
	tp_erode_stats st;
	tp_err e;

	for (int64_t y = 0; y < r->h; y++)
		for (int64_t x = 0; x < r->w; x++)
			z[y * r->w + x] = (float)(0.5 + 0.3 * sin(x * 0.13) *
			    cos(y * 0.09) + 0.1 * sin((x + 2 * y) * 0.31));
	r->o.simd = l;
	ck_assert_int_eq(tp_erode(z, r->w, r->h, (size_t)r->w, &r->o, &st, &e),
	    0);
}

/* A small erosion run (most brushes land inside the grid, where the
 * vector loop works) for brush rows of 8 and of 12 cells. */
START_TEST(test_erode)
{
	eroderun r = { .w = 96, .h = 80 };

	tp_erode_defaults(&r.o);
	r.o.droplets = 3000;
	r.o.seed = 9;
	r.o.radius = _i ? 5 : 3;
	r.o.threads = 1;
	same_at_levels(run_erode, &r, (size_t)(r.w * r.h), "erode", _i);
}
END_TEST

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

	tcase_add_loop_test(core, test_shape, 0, 28);
	tcase_add_loop_test(core, test_terrace, 0, 18);
	tcase_add_loop_test(core, test_island, 0, 6);
	tcase_add_loop_test(core, test_ridge, 0, 12);
	tcase_add_loop_test(core, test_noise, 0, 18);
	tcase_add_loop_test(core, test_erode, 0, 2);
	tcase_add_test(core, test_probe_cap);
	tcase_set_timeout(core, 60);
	suite_add_tcase(s, core);
	return s;
}

int
main(void)
{
	return tp_test_run(simd_suite());
}
