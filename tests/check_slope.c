/* check_slope.c - unit tests of tp_slope: planes by hand (slope, aspect,
 * curvature, hillshade grey), the spacing rules (scale, zscale, degrees),
 * NaN, and a fractal's rows against a cell-by-cell reference in double
 * built from tp_grad's formulas, the same bytes at every vector level. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/tp_simd.h"
#include "geo/tp_geo.h"
#include "geo/tp_grad.h"
#include "geo/tp_slope.h"
#include "tp_test.h"

enum { W = 5, H = 4 };

/* All five outputs of every row of the w x h grid z. */
typedef struct outs {
	float	slope[33 * 33], aspect[33 * 33], profc[33 * 33];
	float	planc[33 * 33], shade[33 * 33];
} outs;

static void
run(const tp_slope *s, const float *z, int64_t w, int64_t h, outs *o)
{
	for (int64_t y = 0; y < h; y++) {
		tp_slope_out row = { o->slope + y * w, o->aspect + y * w,
			o->profc + y * w, o->planc + y * w, o->shade + y * w };

		tp_slope_row(s, y, y > 0 ? z + (y - 1) * w : NULL, z + y * w,
		    y + 1 < h ? z + (y + 1) * w : NULL, w, &row);
	}
}

static int
corner(int64_t x, int64_t y, int64_t w, int64_t h)
{
	return (x == 0 || x == w - 1) && (y == 0 || y == h - 1);
}

static tp_slope
projected(double cellsize)
{
	tp_geo_grid g = { .cellsize = cellsize, .north = 0, .geographic = 0 };
	tp_slope s;

	tp_slope_init(&s, &g);
	return s;
}

/* Planes by hand: z = east x + north (H - 1 - y) + base metres on cells
 * of cellsize, times zscale; the slope and aspect in degrees (to tol),
 * the curvatures (to ctol; NAN: not checked), the grey with the sun at
 * 315/45 (exact), for each gradient from Horn to last_alg; every cell but
 * the corners unless corners is set. */
static const struct plane {
	double	cellsize, zscale, east, north, base;
	int	last_alg, corners;
	float	slope, aspect, curv, shade;
	double	tol, ctol;
} planes[] = {
	/* z = x metres on cells 2 m wide, rising east at 1 in 2... times
	 * zscale 2: dz/dx = 1, slope 45 degrees, facing west (270), no
	 * curvature; the grey with the sun at 315/45 is 1 + 254 (s + s^2) /
	 * sqrt 2 (s = sqrt 2 / 2), 1 + 254 x 0.853553 = 217.80: 218. */
	{ 2, 2, 1, 0, 0, TP_SLOPE_HORN, 0, 45, 270, 0, 218, 1e-4, 1e-7 },
	/* Rising north 3 per 1 m cell: dz/dy = 3, slope atan 3 = 71.565051
	 * degrees, facing south (180); the grey: c = (s - s 3 s) / sqrt 10
	 * < 0, so 1. Zevenbergen-Thorne gives the same gradient on a
	 * plane. */
	{ 1, 1, 0, 3, 0, TP_SLOPE_ZT, 0, 71.565051f, 180, NAN, 1, 1e-4, 0 },
	/* Flat: slope 0, aspect -1 (no direction), the grey of c = sin 45:
	 * 1 + 254 x 0.707107 = 180.61: 181; the corners too, exactly. */
	{ 10, 1, 0, 0, 123.5, TP_SLOPE_HORN, 1, 0, -1, 0, 181, 0, 0 },
};

/* got is want to tol, or exactly when tol is 0 (a tolerance is strict). */
static void
assert_near(float got, float want, double tol)
{
	if (tol == 0)
		ck_assert_float_eq(got, want);
	else
		ck_assert_float_eq_tol(got, want, tol);
}

START_TEST(test_planes)
{
	const struct plane *p = &planes[_i];
	float z[W * H];
	tp_slope s = projected(p->cellsize);
	outs *o = malloc(sizeof *o);

	ck_assert_ptr_nonnull(o);
	for (int k = 0; k < W * H; k++)
		z[k] = (float)(p->east * (k % W) + p->north * (H - 1 - k / W) +
		    p->base);
	s.zscale = p->zscale;
	for (int alg = TP_SLOPE_HORN; alg <= p->last_alg; alg++) {
		s.alg = alg;
		run(&s, z, W, H, o);
		for (int k = 0; k < W * H; k++) {
			if (!p->corners && corner(k % W, k / W, W, H))
				continue;
			assert_near(o->slope[k], p->slope, p->tol);
			assert_near(o->aspect[k], p->aspect, p->tol);
			if (!isnan(p->curv)) {
				assert_near(o->profc[k], p->curv, p->ctol);
				assert_near(o->planc[k], p->curv, p->ctol);
			}
			ck_assert_float_eq(o->shade[k], p->shade);
		}
	}
	free(o);
}
END_TEST

/* Spacing: scale wins (cell size x scale both ways); without it the
 * grid's own, metres per degree of latitude on a geographic grid. */
START_TEST(test_spacing)
{
	tp_geo_grid g = { .cellsize = 1.0 / 3600, .north = 60.5,
		.geographic = 1 };
	tp_slope s;
	double ew, ns, gew, gns;

	tp_slope_init(&s, &g);
	ck_assert_int_eq(s.alg, TP_SLOPE_HORN);
	ck_assert(s.zscale == 1 && isnan(s.scale));
	for (int64_t y = 0; y < 3600; y += 599) {
		tp_slope_spacing(&s, y, &ew, &ns);
		tp_geo_spacing(&g, y, &gew, &gns);
		ck_assert(ew == gew && ns == gns);
	}
	/* row 1800's centre is at 60.5 - 1800.5 / 3600 = 59.99986 degrees:
	 * W = sqrt(1 - e2 sin^2 lat) = 0.9974865, an arc second spans
	 * a cos(lat) / W pi / 180 / 3600 = 15.50007 m east-west and
	 * a (1 - e2) / W^3 pi / 180 / 3600 = 30.94786 m north-south */
	tp_slope_spacing(&s, 1800, &ew, &ns);
	ck_assert_double_eq_tol(ew, 15.50007, 1e-5);
	ck_assert_double_eq_tol(ns, 30.94786, 1e-5);
	s.scale = 111120;
	tp_slope_spacing(&s, 1800, &ew, &ns);
	ck_assert_double_eq_tol(ew, 111120.0 / 3600, 1e-9);
	ck_assert(ew == ns);
}
END_TEST

/* A NaN cell is NaN in every output; a NaN neighbour counts as the
 * centre's height, so beside it a plane looks flatter. */
START_TEST(test_nan)
{
	float z[W * H];
	tp_slope s = projected(1);
	outs *o = malloc(sizeof *o);
	double win[9], dx, dy;

	ck_assert_ptr_nonnull(o);
	for (int k = 0; k < W * H; k++)
		z[k] = (float)(k % W);
	z[1 * W + 2] = NAN;
	run(&s, z, W, H, o);
	ck_assert(isnan(o->slope[W + 2]) && isnan(o->aspect[W + 2]) &&
	    isnan(o->profc[W + 2]) && isnan(o->planc[W + 2]) &&
	    isnan(o->shade[W + 2]));
	/* cell (3, 2): its north-west neighbour is the NaN, read as 3, so
	 * dz/dx = ((4 + 8 + 4) - (3 + 4 + 2)) / 8 = 7/8 and dz/dy = ((3 + 6
	 * + 4) - (2 + 6 + 4)) / 8 = 1/8 */
	tp_grad_window(z + W, z + 2 * W, z + 3 * W, W, 3, win);
	ck_assert_double_eq(win[0], 3);
	tp_grad_horn(win, 1.0 / 8, 1.0 / 8, &dx, &dy);
	ck_assert_double_eq(dx, 7.0 / 8);
	ck_assert_double_eq(dy, 1.0 / 8);
	ck_assert_float_eq_tol(o->slope[2 * W + 3],
	    atan(sqrt(dx * dx + dy * dy)) * 180 / M_PI, 1e-4);
	free(o);
}
END_TEST

/* A fractal of 33 x 33 cells against tp_grad's formulas in double, cell
 * by cell; aspect only where the ground is steep enough to have one
 * that float can tell. Both gradients, zscale and a scale. */
START_TEST(test_reference)
{
	enum { n = 33 };
	float z[n * n];
	uint64_t seed = 42 + (uint64_t)_i;
	tp_slope s = projected(25);
	outs *o = malloc(sizeof *o);

	ck_assert_ptr_nonnull(o);
	tp_test_fractal(z, n, &seed, 0.6f);
	for (int k = 0; k < n * n; k++)
		z[k] *= 300;
	s.alg = _i % 2 ? TP_SLOPE_ZT : TP_SLOPE_HORN;
	s.zscale = _i / 2 ? 0.3048 : 1;
	s.scale = _i / 2 ? 2 : NAN;
	run(&s, z, n, n, o);
	for (int64_t y = 0; y < n; y++)
		for (int64_t x = 0; x < n; x++) {
			double win[9], ew, ns, dx, dy, pro, pla, k;
			size_t c = (size_t)(y * n + x);

			tp_slope_spacing(&s, y, &ew, &ns);
			tp_grad_window(y ? z + (y - 1) * n : NULL, z + y * n,
			    y + 1 < n ? z + (y + 1) * n : NULL, n, x, win);
			k = s.alg == TP_SLOPE_ZT ? 2 : 8;
			if (s.alg == TP_SLOPE_ZT)
				tp_grad_zt(win, s.zscale / (k * ew),
				    s.zscale / (k * ns), &dx, &dy);
			else
				tp_grad_horn(win, s.zscale / (k * ew),
				    s.zscale / (k * ns), &dx, &dy);
			ck_assert_float_eq_tol(o->slope[c],
			    atan(hypot(dx, dy)) * 180 / M_PI, 2e-4);
			if (hypot(dx, dy) > 1e-3)
				ck_assert_float_eq_tol(o->aspect[c],
				    tp_grad_aspect(dx, dy), 0.05);
			ck_assert_float_eq_tol(o->shade[c],
			    tp_grad_shade(&s.sun, dx, dy), 1);
			tp_grad_curvature(win, ew, ns, s.zscale, &pro, &pla);
			ck_assert_float_eq_tol(o->profc[c], pro,
			    1e-4 * fabs(pro) + 1e-7);
			ck_assert_float_eq_tol(o->planc[c], pla,
			    1e-4 * fabs(pla) + 1e-7);
		}
	free(o);
}
END_TEST

/* Every vector level this processor runs gives the scalar bytes. */
START_TEST(test_simd_levels)
{
	enum { n = 33 };
	float z[n * n];
	uint64_t seed = 7;
	tp_slope s = projected(30);
	outs *want = malloc(sizeof *want), *got = malloc(sizeof *got);

	ck_assert(want != NULL && got != NULL);
	tp_test_fractal(z, n, &seed, 0.65f);
	z[5 * n + 9] = NAN;
	s.simd = TP_SIMD_SCALAR;
	run(&s, z, n, n, want);
	for (int l = TP_SIMD_SSE2; l <= (int)tp_simd_probe(); l++) {
		memset(got, 0xa5, sizeof *got);
		s.simd = l;
		run(&s, z, n, n, got);
		ck_assert(memcmp(got->slope, want->slope, n * n * 4) == 0);
		ck_assert(memcmp(got->aspect, want->aspect, n * n * 4) == 0);
		ck_assert(memcmp(got->profc, want->profc, n * n * 4) == 0);
		ck_assert(memcmp(got->planc, want->planc, n * n * 4) == 0);
		ck_assert(memcmp(got->shade, want->shade, n * n * 4) == 0);
	}
	free(want);
	free(got);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("slope");
	TCase *core = tcase_create("core");
	TCase *limits = tcase_create("limits");

	tcase_add_loop_test(core, test_planes, 0,
	    (int)(sizeof planes / sizeof planes[0]));
	tcase_add_test(core, test_spacing);
	tcase_add_loop_test(core, test_reference, 0, 4);
	tcase_add_test(core, test_simd_levels);
	tcase_add_test(limits, test_nan);
	suite_add_tcase(s, core);
	suite_add_tcase(s, limits);
	return tp_test_run(s);
}
