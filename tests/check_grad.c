/* check_grad.c - unit tests for lib/tp_grad: Horn's window and gradient,
 * that every edge rule keeps a plane's exact slope, and Zevenbergen-Thorne,
 * slope, aspect, hillshade and curvature by hand; a plane's slope over any
 * cell spacing and zscale, and at a geographic row's spacing. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geo/tp_geo.h"
#include "geo/tp_grad.h"
#include "tp_test.h"

enum { W = 4, H = 3 };

/* z = 3 x - 2 y (y counted north to south, so rising 2 per cell north). */
static void
plane(float g[H][W])
{
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			g[y][x] = (float)(3 * x - 2 * y);
}

/* Interior and edge cells of a plane see gradient (3, 2) per cell (fx =
 * fy = 1/8 undo the Horn weights' sum of 8); the corners, as gdaldem's,
 * half the east-west part. */
START_TEST(test_plane_everywhere)
{
	float g[H][W];
	double z[9], dx, dy;

	plane(g);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			tp_grad_window(y > 0 ? g[y - 1] : NULL, g[y],
			    y < H - 1 ? g[y + 1] : NULL, W, x, z);
			tp_grad_horn(z, 1.0 / 8, 1.0 / 8, &dx, &dy);
			ck_assert_double_eq(dx, (x == 0 || x == W - 1) &&
			    (y == 0 || y == H - 1) ? 1.5 : 3);
			ck_assert_double_eq(dy, 2);
		}
}
END_TEST

/* The window's layout: north row first, west to east, the cell in z[4]. */
START_TEST(test_window_layout)
{
	float g[H][W];
	double z[9];

	plane(g);
	tp_grad_window(g[0], g[1], g[2], W, 1, z);
	ck_assert_double_eq(z[0], 0);
	ck_assert_double_eq(z[4], 1);
	ck_assert_double_eq(z[8], 2);
	ck_assert_double_eq(z[2], 6);
	ck_assert_double_eq(z[6], -4);
}
END_TEST

/* A NaN neighbour counts as the centre; one row high is flat north-south. */
START_TEST(test_holes_and_one_row)
{
	float g[H][W], row[3] = { 1, 4, 9 };
	double z[9], dx, dy;

	plane(g);
	g[0][1] = NAN;
	tp_grad_window(g[0], g[1], g[2], W, 1, z);
	ck_assert_double_eq(z[1], z[4]);
	tp_grad_window(NULL, row, NULL, 3, 1, z);
	tp_grad_horn(z, 1.0 / 8, 1.0 / 8, &dx, &dy);
	ck_assert_double_eq(dx, 4);	/* (9 - 1) / 2, on all three rows */
	ck_assert_double_eq(dy, 0);
}
END_TEST

/* Zevenbergen-Thorne on the plane: the edge neighbours alone, (3, 2). */
START_TEST(test_zt_plane)
{
	float g[H][W];
	double z[9], dx, dy;

	plane(g);
	tp_grad_window(g[0], g[1], g[2], W, 1, z);
	tp_grad_zt(z, 1.0 / 2, 1.0 / 2, &dx, &dy);
	ck_assert_double_eq(dx, 3);
	ck_assert_double_eq(dy, 2);
}
END_TEST

/* Slope atan |g| in degrees; aspect the downhill azimuth: ground rising
 * east faces west (270), rising north faces south (180), north is 0 and
 * never 360, flat is -1. */
START_TEST(test_slope_aspect)
{
	ck_assert_double_eq_tol(tp_grad_slope(0.3, 0.4), 26.565051177077990, 1e-12);
	ck_assert_double_eq_tol(tp_grad_slope(1, 0), 45, 1e-12);
	ck_assert_double_eq(tp_grad_slope(0, 0), 0);
	ck_assert_float_eq(tp_grad_aspect(1, 0), 270);
	ck_assert_float_eq(tp_grad_aspect(0, 1), 180);
	ck_assert_float_eq(tp_grad_aspect(-1, 0), 90);
	ck_assert_float_eq(tp_grad_aspect(0, -1), 0);
	ck_assert_float_eq(tp_grad_aspect(1, 1), 225);
	ck_assert_float_eq_tol(tp_grad_aspect(0.3, 0.4), 216.869898f, 1e-4);
	ck_assert_float_eq(tp_grad_aspect(0, 0), -1);
	ck_assert_float_eq(tp_grad_aspect(0, -1e-300), 0);
}
END_TEST

/* gdaldem's grey: flat under a sun at 45 degrees is 1 + 254 sin 45 =
 * 180.6 -> 181; the plane (0.3, 0.4) from 315 is 150 (tslope(1) works it
 * out); facing away from the sun is 1. */
START_TEST(test_shade)
{
	tp_grad_sun s;

	tp_grad_sun_init(&s, 315, 45);
	ck_assert_double_eq(tp_grad_shade(&s, 0, 0), 181);
	ck_assert_double_eq(tp_grad_shade(&s, 0.3, 0.4), 150);
	ck_assert_double_eq_tol(tp_grad_cos_sun(&s, 0, 0), sqrt(0.5), 1e-15);
	tp_grad_sun_init(&s, 90, 10);
	ck_assert_double_eq(tp_grad_shade(&s, 100, 0), 1);
	ck_assert_double_lt(tp_grad_cos_sun(&s, 100, 0), 0);
}
END_TEST

/* z = x^2 + 2 y^2 + 0.5 x y + 3 x - y on cells 2 m east-west and 4 m
 * north-south: D = 1, E = 2, F = 0.5, G = 3, H = -1 at the centre, so
 * profile = -2 (9 + 2 - 1.5) / 10 = -1.9 and plan = 2 (1 + 18 + 1.5) / 10
 * = 4.1; zscale 2 doubles both; a flat window has 0. */
START_TEST(test_curvature)
{
	double z[9], pro, pla;

	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 3; c++) {
			double x = (c - 1) * 2.0, y = (1 - r) * 4.0;

			z[r * 3 + c] = x * x + 2 * y * y + 0.5 * x * y + 3 * x - y;
		}
	tp_grad_curvature(z, 2, 4, 1, &pro, &pla);
	ck_assert_double_eq_tol(pro, -1.9, 1e-12);
	ck_assert_double_eq_tol(pla, 4.1, 1e-12);
	tp_grad_curvature(z, 2, 4, 2, &pro, &pla);
	ck_assert_double_eq_tol(pro, -3.8, 1e-12);
	ck_assert_double_eq_tol(pla, 8.2, 1e-12);
	for (int k = 0; k < 9; k++)
		z[k] = 7;
	tp_grad_curvature(z, 2, 4, 1, &pro, &pla);
	ck_assert_double_eq(pro, 0);
	ck_assert_double_eq(pla, 0);
}
END_TEST

/* Within 2 ulps of b, or 1e-15 where an angle is a sum (pi/4 + r, pi - r:
 * the sum's rounding, a billionth of a float's ulp). */
static int
close(double a, double b)
{
	double ulp = nextafter(fabs(b), INFINITY) - fabs(b);

	return fabs(a - b) <= fmax(2 * ulp, 1e-15);
}

/* tp_grad_atan and tp_grad_atan2 against libm over every range the
 * reduction picks (0, the breaks at tan(pi/8) and tan(3 pi/8), up to 1e12
 * and inf) and every quadrant; slopes and aspects in degrees as float
 * equal to libm's on all but a handful of 800000. */
START_TEST(test_atan_vs_libm)
{
	uint64_t h = 0x9e3779b97f4a7c15u;
	int off = 0, far = 0;

	ck_assert_double_eq(tp_grad_atan(0), 0);
	ck_assert_double_eq(tp_grad_atan(1), atan(1));
	ck_assert_double_eq(tp_grad_atan(INFINITY), atan(INFINITY));
	ck_assert_double_eq(tp_grad_atan2(0, -1), atan2(0, -1));
	ck_assert_double_eq(tp_grad_atan2(1, 0), atan2(1, 0));
	for (int i = 0; i < 400000; i++) {
		double u, v, x, y, a, b;

		h ^= h << 13, h ^= h >> 7, h ^= h << 17;
		u = (double)(h >> 11) / 9007199254740992.0;
		h ^= h << 13, h ^= h >> 7, h ^= h << 17;
		v = (double)(h >> 11) / 9007199254740992.0 - 0.5;
		x = pow(10, 24 * u - 12);	/* 1e-12 .. 1e12 */
		a = tp_grad_atan(x);
		b = atan(x);
		far += !close(a, b);
		off += (float)(a * TP_GRAD_DEG) != (float)(b * TP_GRAD_DEG);
		y = v * x;
		x = i & 1 ? x : -x;
		a = tp_grad_atan2(y, x);
		b = atan2(y, x);
		far += !close(a, b);
		off += (float)(a / TP_GRAD_RAD) != (float)(b / TP_GRAD_RAD);
	}
	ck_assert_int_eq(far, 0);
	ck_assert_int_le(off, 10);
}
END_TEST

/* Distance of a from the exact b in ulps of float at b. */
static double
ulps(float a, double b)
{
	float f = (float)b;

	return fabs(a - b) / (double)(nextafterf(fabsf(f), INFINITY) - fabsf(f));
}

/* The float path against double (libm) over 400000 gradients from 1e-6
 * to 1e6 in every direction: the arctangent within 3 ulp of float, the
 * slope within 5 ulp (the squares and the root round too), the aspect
 * within 3e-5 degrees (the ulp of float at 360 is 3.05e-5); and the
 * plane of slope_aspect by hand. */
START_TEST(test_float_vs_double)
{
	uint64_t h = 0x2545f4914f6cdd1du;
	double ea = 0, es = 0, ed = 0;

	ck_assert_float_eq(tp_grad_atanf(0), 0);
	ck_assert_float_eq(tp_grad_atanf(INFINITY), (float)(M_PI / 2));
	ck_assert_float_eq(tp_grad_slope_f(0, 0), 0);
	ck_assert_float_eq(tp_grad_aspect_f(0, 0), -1);
	ck_assert_float_eq_tol(tp_grad_slope_f(0.3f, 0.4f), 26.565051f, 4e-6);
	ck_assert_float_eq_tol(tp_grad_aspect_f(0.3f, 0.4f), 216.869898f, 3e-5);
	ck_assert_float_eq(tp_grad_aspect_f(-1, 0), 90);
	ck_assert_float_eq(tp_grad_aspect_f(0, -1), 0);
	for (int i = 0; i < 400000; i++) {
		double u, v, g, az, th, d;
		float dx, dy;

		h ^= h << 13, h ^= h >> 7, h ^= h << 17;
		u = (double)(h >> 11) / 9007199254740992.0;
		h ^= h << 13, h ^= h >> 7, h ^= h << 17;
		v = (double)(h >> 11) / 9007199254740992.0 * 2 * M_PI;
		g = pow(10, 12 * u - 6);
		dx = (float)(g * cos(v));
		dy = (float)(g * sin(v));
		ea = fmax(ea, ulps(tp_grad_atanf((float)g), atan((float)g)));
		es = fmax(es, ulps(tp_grad_slope_f(dx, dy),
		    atan(sqrt((double)dx * dx + (double)dy * dy)) * TP_GRAD_DEG));
		th = atan2(-(double)dy, -(double)dx) * TP_GRAD_DEG;
		az = th > 90 ? 450 - th : 90 - th;
		d = fabs(tp_grad_aspect_f(dx, dy) - fmod(az, 360));
		ed = fmax(ed, fmin(d, 360 - d));
	}
	ck_assert_double_le(ea, 3);
	ck_assert_double_le(es, 5);
	ck_assert_double_le(ed, 3e-5);
}
END_TEST

#define DEG (3.14159265358979323846 / 180)

/* Rows y - 1 .. y + 1 of the plane h = gx east + gy north (metres) on a
 * grid with spacings ew, ns (metres): the slope at the centre column by
 * Horn's gradient, as tslope finds it. */
static double
plane_slope(double gx, double gy, double ew, double ns, double zscale)
{
	float rows[3][3];
	double z[9], dx, dy;

	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 3; x++)
			rows[y][x] = (float)((gx * (x - 1) * ew - gy * (y - 1) *
			    ns) / zscale + 0.5);
	tp_grad_window(rows[0], rows[1], rows[2], 3, 1, z);
	tp_grad_horn(z, zscale / (8 * ew), zscale / (8 * ns), &dx, &dy);
	return tp_grad_slope(dx, dy);
}

START_TEST(test_slope_plane)
{
	static const double g[][2] = { { 0.1, 0 }, { 0, 0.5 }, { 0.3, -0.4 },
	    { 1, 1 }, { -2, 0.5 } };

	for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
		double want = atan(hypot(g[i][0], g[i][1])) / DEG;

		ck_assert_double_eq_tol(plane_slope(g[i][0], g[i][1], 30, 30, 1),
		    want, 0.01);
		/* heights in [0, 1] with zscale 3000 over 25 m cells */
		ck_assert_double_eq_tol(plane_slope(g[i][0], g[i][1], 25, 25,
		    3000), want, 0.01);
	}
}
END_TEST

/* EPSG:4326 at 60 degrees north, cells of 0.0001 degrees: the plane is
 * laid out in metres at the row's spacing, and the slope is its own. */
START_TEST(test_slope_geographic)
{
	tp_header h = tp_test_header(3, 3, 0.0001, 10, 60.00015);
	tp_geo_grid geo = { h.cellsize, h.origin_y, 0 };
	double ew, ns, gx = 0.6, gy = -0.35;

	snprintf(h.crs, sizeof h.crs, "EPSG:4326");
	geo.geographic = tp_geo_header_geographic(&h);
	ck_assert_int_eq(geo.geographic, 1);
	tp_geo_spacing(&geo, 1, &ew, &ns);
	ck_assert_double_eq_tol(tp_cell_y(&h, 1), 60, 1e-12);
	/* A degree of longitude at 60 N is about half one at the equator. */
	ck_assert_double_eq_tol(ew, 5.58, 0.01);
	ck_assert_double_eq_tol(ns, 11.14, 0.01);
	ck_assert_double_eq_tol(plane_slope(gx, gy, ew, ns, 1),
	    atan(hypot(gx, gy)) / DEG, 0.01);
	tp_header_free(&h);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("grad");
	TCase *core = tcase_create("core");
	TCase *slope = tcase_create("slope");

	tcase_add_test(core, test_plane_everywhere);
	tcase_add_test(core, test_window_layout);
	tcase_add_test(core, test_holes_and_one_row);
	tcase_add_test(core, test_zt_plane);
	tcase_add_test(core, test_slope_aspect);
	tcase_add_test(core, test_shade);
	tcase_add_test(core, test_curvature);
	tcase_add_test(core, test_atan_vs_libm);
	tcase_add_test(core, test_float_vs_double);
	tcase_add_test(slope, test_slope_plane);
	tcase_add_test(slope, test_slope_geographic);
	suite_add_tcase(s, core);
	suite_add_tcase(s, slope);
	return tp_test_run(s);
}
