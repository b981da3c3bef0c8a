/* check_normalmap.c - unit tests of tp_normalmap: levels, a plane's
 * normal. Values by hand. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "geo/tp_grad.h"
#include "render/tp_normalmap.h"
#include "tp_test.h"

/* A plane rising 1 m a metre east: n = (-1, 0, 1) / sqrt 2, levels
 * floor((1 - 0.7071) 127.5 + 0.5) = 37, 128, floor(1.7071 x 127.5 + 0.5)
 * = 218; DirectX flips nothing here. NaN cells are flat. */
START_TEST(test_normals)
{
	const float up[4] = { 0, 1, 2, 3 }, mid[4] = { 0, 1, NAN, 3 };
	const float down[4] = { 0, 1, 2, 3 };
	tp_normalmap_opts o = { .zscale = 1 };
	uint8_t rgb[12];

	ck_assert_uint_eq(tp_normalmap_level(0), 128);
	ck_assert_uint_eq(tp_normalmap_level(1), 255);
	ck_assert_uint_eq(tp_normalmap_level(-1), 0);
	tp_normalmap_row(&o, up, up, down, 4, 1, 1, rgb);
	for (int x = 0; x < 4; x++)
		ck_assert(rgb[3 * x] == 37 && rgb[3 * x + 1] == 128 &&
		    rgb[3 * x + 2] == 218);
	tp_normalmap_row(&o, up, mid, down, 4, 1, 1, rgb);
	ck_assert(rgb[6] == 128 && rgb[7] == 128 && rgb[8] == 255);
	/* rising 1 m a metre north (rows south are lower), 2 m cells, zscale
	 * 4: dz/dy = 2: n = (0, -2, 1) / sqrt 5: G floor(0.1056 x 127.5 +
	 * 0.5) = 13, B floor(1.4472 x 127.5 + 0.5) = 185; DirectX G 242 */
	{
		const float n[2] = { 1, 1 }, m[2] = { 0, 0 }, s[2] = { -1, -1 };

		o.zscale = 4;
		tp_normalmap_row(&o, n, m, s, 2, 2, 2, rgb);
		ck_assert(rgb[0] == 128 && rgb[1] == 13 && rgb[2] == 185);
		o.y_down = 1;
		tp_normalmap_row(&o, n, m, s, 2, 2, 2, rgb);
		ck_assert(rgb[1] == 242);
	}
}
END_TEST

/* Levels: 0 at -1, 255 at 1, never decreasing, and each reads back
 * within half a step (1 / 255) of its component. */
START_TEST(test_levels)
{
	int prev = 0;

	for (int i = -1000; i <= 1000; i++) {
		double c = i / 1000.0;
		int l = tp_normalmap_level(c);

		ck_assert_int_ge(l, prev);
		ck_assert(fabs(l / 127.5 - 1 - c) <= 1 / 255.0 + 1e-12);
		prev = l;
	}
	ck_assert_uint_eq(tp_normalmap_level(-1), 0);
	ck_assert_uint_eq(tp_normalmap_level(0.5), 191);	/* floor(191.75) */
	ck_assert_uint_eq(tp_normalmap_level(-0.5), 64);	/* floor(64.25) */
}
END_TEST

/* A fractal's normals, row by row with the grid's edges: each byte is
 * the level of the normal from tp_grad's window and Horn's gradient in
 * double (one level off at most, for rounding), and points up. */
START_TEST(test_reference)
{
	enum { n = 17 };
	float z[n * n];
	uint64_t s = 21;
	tp_normalmap_opts o = { .zscale = 120 };
	uint8_t rgb[3 * n];
	double ew = 30, ns = 25;

	tp_test_fractal(z, n, &s, 0.6f);
	z[5 * n + 5] = NAN;
	for (int64_t y = 0; y < n; y++) {
		const float *up = y ? z + (y - 1) * n : NULL;
		const float *down = y + 1 < n ? z + (y + 1) * n : NULL;

		tp_normalmap_row(&o, up, z + y * n, down, n, ew, ns, rgb);
		for (int64_t x = 0; x < n; x++) {
			double w[9], dx = 0, dy = 0, len, c[3];

			if (!isnan(z[y * n + x])) {
				tp_grad_window(up, z + y * n, down, n, x, w);
				tp_grad_horn(w, o.zscale / (8 * ew),
				    o.zscale / (8 * ns), &dx, &dy);
			}
			len = sqrt(1 + dx * dx + dy * dy);
			c[0] = -dx / len;
			c[1] = -dy / len;
			c[2] = 1 / len;
			for (int k = 0; k < 3; k++)
				ck_assert_int_le(abs((int)rgb[3 * x + k] -
				    (int)tp_normalmap_level(c[k])), 1);
			ck_assert_uint_gt(rgb[3 * x + 2], 128);
		}
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("normalmap");
	TCase *nm = tcase_create("normal");

	tcase_add_test(nm, test_normals);
	tcase_add_test(nm, test_levels);
	tcase_add_test(nm, test_reference);
	suite_add_tcase(s, nm);
	return tp_test_run(s);
}
