/* check_texture.c - unit tests of tp_texture: sampling modes, the hex
 * lattice, the variance-preserving blend, PNG loading. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/tp_png.h"
#include "render/tp_texture.h"
#include "tp_test.h"
#include "tp_test_png.h"

#define SQRT3_2	0.86602540378443865

/* A w x h texture of random bytes from seed. */
static void
random_texture(tp_texture *t, int w, int h, uint64_t seed)
{
	uint8_t *b = malloc((size_t)w * h * 3);
	tp_err e;

	ck_assert_ptr_nonnull(b);
	for (int i = 0; i < w * h * 3; i++)
		b[i] = (uint8_t)(tp_test_rnd(&seed) >> 56);
	ck_assert_int_eq(tp_texture_from_rgb(t, w, h, b, &e), 0);
	free(b);
}

/* Barycentric weights are non-negative and sum to 1. */
START_TEST(test_weights)
{
	uint64_t s = 7;

	for (int i = 0; i < 100000; i++) {
		double u = tp_test_urand(&s) * 200.0, v = tp_test_urand(&s) *
		    200.0, w[3];
		int32_t vx[3], vy[3];

		tp_texture_triangle(u, v, vx, vy, w);
		for (int k = 0; k < 3; k++)
			ck_assert(w[k] >= 0);
		ck_assert_double_eq_tol(w[0] + w[1] + w[2], 1.0, 1e-12);
	}
}
END_TEST

/* The position of skewed lattice vertex (x, y) in the plane. */
static void
vertex(int32_t x, int32_t y, double *u, double *v)
{
	*u = x + 0.5 * y;
	*v = SQRT3_2 * y;
}

/* Barycentric coordinates of (u, v) in triangle a, b, c. */
static void
bary(const double a[2], const double b[2], const double c[2], double u,
    double v, double l[3])
{
	double det = (b[1] - c[1]) * (a[0] - c[0]) + (c[0] - b[0]) *
	    (a[1] - c[1]);

	l[0] = ((b[1] - c[1]) * (u - c[0]) + (c[0] - b[0]) * (v - c[1])) / det;
	l[1] = ((c[1] - a[1]) * (u - c[0]) + (a[0] - c[0]) * (v - c[1])) / det;
	l[2] = 1 - l[0] - l[1];
}

/* How many triangles of the lattice near (u, v) hold it strictly inside
 * (all barycentric coordinates > eps). */
static int
strictly_inside(double u, double v, int32_t bx, int32_t by, double eps)
{
	int n = 0;

	for (int32_t y = by - 2; y <= by + 2; y++)
		for (int32_t x = bx - 2; x <= bx + 2; x++)
			for (int up = 0; up < 2; up++) {
				double p[3][2], l[3];

				vertex(x + up, y + up, &p[0][0], &p[0][1]);
				vertex(x + 1, y, &p[1][0], &p[1][1]);
				vertex(x, y + 1, &p[2][0], &p[2][1]);
				bary(p[0], p[1], p[2], u, v, l);
				n += l[0] > eps && l[1] > eps && l[2] > eps;
			}
	return n;
}

/* Every point lies in the triangle it is given (its vertices and weights
 * give the point back), and in no other triangle of the lattice. */
START_TEST(test_one_triangle)
{
	uint64_t s = 11;

	for (int i = 0; i < 20000; i++) {
		double u = tp_test_urand(&s) * 50.0, v = tp_test_urand(&s) *
		    50.0, w[3], pu = 0, pv = 0;
		int32_t vx[3], vy[3];

		tp_texture_triangle(u, v, vx, vy, w);
		for (int k = 0; k < 3; k++) {
			double a, b;

			vertex(vx[k], vy[k], &a, &b);
			pu += w[k] * a;
			pv += w[k] * b;
		}
		ck_assert_double_eq_tol(pu, u, 1e-9);
		ck_assert_double_eq_tol(pv, v, 1e-9);
		ck_assert_int_le(strictly_inside(u, v, vx[0], vy[0], 1e-9), 1);
		if (w[0] > 1e-6 && w[1] > 1e-6 && w[2] > 1e-6)
			ck_assert_int_eq(strictly_inside(u, v, vx[0], vy[0],
			    1e-9), 1);
	}
}
END_TEST

/* Blending independent samples of mean m and variance s^2 with any
 * weights summing to 1 keeps mean and variance; the linear blend loses
 * variance. */
START_TEST(test_vp_keeps_variance)
{
	uint64_t s = 5;
	double m = 0.4, sum = 0, sum2 = 0, lin2 = 0, var0 = 1.0 / 12.0;
	int n = 200000;

	for (int i = 0; i < n; i++) {
		double w[3], x[3], r, l = 0;
		int32_t vx[3], vy[3];

		tp_texture_triangle(tp_test_urand(&s) * 9,
		    tp_test_urand(&s) * 9, vx, vy, w);
		for (int k = 0; k < 3; k++) {
			x[k] = m + tp_test_urand(&s);	/* variance 1/12 */
			l += w[k] * x[k];
		}
		r = tp_texture_vp_blend(x, w, 3, m);
		sum += r;
		sum2 += (r - m) * (r - m);
		lin2 += (l - m) * (l - m);
	}
	ck_assert_double_eq_tol(sum / n, m, 0.003);
	ck_assert_double_eq_tol(sum2 / n / var0, 1.0, 0.02);
	ck_assert_double_lt(lin2 / n / var0, 0.8);
	/* one weight of 1: the sample itself */
	{
		double x[3] = { 0.9, 0.1, 0.3 }, w[3] = { 1, 0, 0 };

		ck_assert_double_eq_tol(tp_texture_vp_blend(x, w, 3, 0.5), 0.9,
		    1e-12);
	}
}
END_TEST

/* A texel's centre reads its bytes exactly, the texture wraps, and the
 * mean is the mean of the texels. */
START_TEST(test_bilinear)
{
	uint8_t b[2 * 2 * 3] = { 0, 10, 20, 255, 0, 0, 40, 50, 60, 1, 2, 3 };
	tp_texture t;
	float c[3], d[3];
	tp_err e;

	ck_assert_int_eq(tp_texture_from_rgb(&t, 2, 2, b, &e), 0);
	tp_texture_bilinear(&t, 0.75, 0.25, c);
	ck_assert_float_eq(c[0], 1.0f);
	ck_assert_float_eq(c[1], 0.0f);
	tp_texture_bilinear(&t, 0.25 - 7, 0.75 + 3, c);
	ck_assert_float_eq(c[2], 60.0f / 255.0f);
	/* halfway across the wrap: between texel 1 and texel 0 */
	tp_texture_bilinear(&t, 1.0, 0.25, c);
	ck_assert_float_eq_tol(c[0], 127.5f / 255.0f, 1e-6);
	ck_assert_float_eq_tol(t.mean[0], 296.0f / 4 / 255.0f, 1e-6);
	tp_texture_bilinear(&t, 0.3, 0.6, c);
	tp_texture_bilinear(&t, 5.3, -2.4, d);
	ck_assert_float_eq_tol(c[1], d[1], 1e-5);
	tp_texture_free(&t);
	ck_assert_int_eq(tp_texture_from_rgb(&t, 0, 2, b, &e), -1);
}
END_TEST

/* Every mode is a pure function of the point, stays within [0, 1], and a
 * one-colour texture gives that colour back in every mode. */
START_TEST(test_modes)
{
	uint8_t flat[4 * 4 * 3];
	tp_texture t, r;
	tp_texture_opts o;
	uint64_t s = 3;
	tp_err e;

	memset(flat, 77, sizeof flat);
	ck_assert_int_eq(tp_texture_from_rgb(&t, 4, 4, flat, &e), 0);
	random_texture(&r, 16, 8, 9);
	tp_texture_defaults(&o);
	for (int m = 0; m < 4; m++) {
		o.mode = m;
		ck_assert_int_eq(tp_texture_mode_parse(tp_texture_mode_name(m)),
		    m);
		for (int i = 0; i < 2000; i++) {
			double u = tp_test_urand(&s) * 40, v =
			    tp_test_urand(&s) * 40;
			float a[3], b[3];

			tp_texture_sample(&o, &t, u, v, a);
			ck_assert_float_eq_tol(a[0], 77.0f / 255.0f, 1e-5);
			tp_texture_sample(&o, &r, u, v, a);
			tp_texture_sample(&o, &r, u, v, b);
			ck_assert_mem_eq(a, b, sizeof a);
			for (int k = 0; k < 3; k++)
				ck_assert(a[k] >= 0 && a[k] <= 1);
		}
	}
	ck_assert_int_eq(tp_texture_mode_parse("hex"), -1);
	tp_texture_free(&t);
	tp_texture_free(&r);
}
END_TEST

/* The seed changes the hex and IQ offsets, not the plain sample. */
START_TEST(test_seed)
{
	tp_texture r;
	tp_texture_opts a, b;
	int differ[4] = { 0 };

	random_texture(&r, 16, 16, 4);
	tp_texture_defaults(&a);
	b = a;
	b.seed = 1;
	for (int m = 0; m < 4; m++) {
		a.mode = b.mode = m;
		for (int i = 0; i < 50; i++) {
			float x[3], y[3];

			tp_texture_sample(&a, &r, i * 0.37, i * 0.71, x);
			tp_texture_sample(&b, &r, i * 0.37, i * 0.71, y);
			differ[m] += memcmp(x, y, sizeof x) != 0;
		}
	}
	ck_assert_int_eq(differ[TP_TEX_PLAIN], 0);
	ck_assert_int_gt(differ[TP_TEX_HEX_LINEAR], 40);
	ck_assert_int_gt(differ[TP_TEX_HEX_VP], 40);
	ck_assert_int_gt(differ[TP_TEX_IQ], 40);
	tp_texture_free(&r);
}
END_TEST

/* RGBA and grey + alpha PNGs load as RGB, alpha dropped; a missing or
 * broken file is an error naming it. */
START_TEST(test_load)
{
	char dir[] = "/tmp/check_texture.XXXXXX", path[256];
	uint8_t rgba[3 * 2 * 4], ga[3 * 2 * 2];
	tp_texture t;
	tp_err e;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (int i = 0; i < 24; i++)
		rgba[i] = (uint8_t)(i * 10);
	for (int i = 0; i < 12; i++)
		ga[i] = (uint8_t)(i * 20);
	snprintf(path, sizeof path, "%s/rgba.png", dir);
	write_png(path, 3, 2, 4, rgba);
	ck_assert_int_eq(tp_texture_load(&t, path, &e), 0);
	ck_assert_int_eq(t.w, 3);
	ck_assert_int_eq(t.h, 2);
	ck_assert_float_eq(t.rgb[5 * 3 + 2], 220.0f / 255.0f);
	tp_texture_free(&t);
	snprintf(path, sizeof path, "%s/ga.png", dir);
	write_png(path, 3, 2, 2, ga);
	ck_assert_int_eq(tp_texture_load(&t, path, &e), 0);
	ck_assert_float_eq(t.rgb[4 * 3 + 0], 160.0f / 255.0f);
	ck_assert_float_eq(t.rgb[4 * 3 + 2], 160.0f / 255.0f);
	tp_texture_free(&t);
	unlink(path);
	ck_assert_int_eq(tp_texture_load(&t, path, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "ga.png"));
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("not a png", f);
	fclose(f);
	ck_assert_int_eq(tp_texture_load(&t, path, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "ga.png"));
	unlink(path);
	snprintf(path, sizeof path, "%s/rgba.png", dir);
	unlink(path);
	rmdir(dir);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("texture");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_weights);
	tcase_add_test(core, test_one_triangle);
	tcase_add_test(core, test_vp_keeps_variance);
	tcase_add_test(core, test_bilinear);
	tcase_add_test(core, test_modes);
	tcase_add_test(core, test_seed);
	tcase_add_test(core, test_load);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
