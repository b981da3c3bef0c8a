/* check_grad.c - unit tests for lib/tp_grad: Horn's window and gradient,
 * and that every edge rule keeps a plane's exact slope. */
#include <check.h>
#include <math.h>

#include "tp_grad.h"
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
START_TEST(plane_everywhere)
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
START_TEST(window_layout)
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
START_TEST(holes_and_one_row)
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

int
main(void)
{
	Suite *s = suite_create("grad");
	TCase *core = tcase_create("core");

	tcase_add_test(core, plane_everywhere);
	tcase_add_test(core, window_layout);
	tcase_add_test(core, holes_and_one_row);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
