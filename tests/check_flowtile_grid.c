/* check_flowtile_grid.c - unit tests of tp_flowtile_grid: a hand-drawn
 * snake whose counts are its cells' places along it, in tiles of every
 * size (each tile crossed again and again); areas, holes and sinks by
 * hand; a fractal's directions against tp_flow_accumulate to the byte on
 * one thread and on three. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_d8.h"
#include "hydro/tp_flow.h"
#include "hydro/tiled/tp_flowtile.h"
#include "hydro/tiled/tp_flowtile_grid.h"
#include "tp_test.h"

enum { W = 4, H = 3 };

/* E E E S / S W W W / E E E out-E: one path through all twelve cells,
 * leaving the grid at the south-east corner. */
static const uint8_t snake[W * H] = {
	TP_D8_E, TP_D8_E, TP_D8_E, TP_D8_S,
	TP_D8_S, TP_D8_W, TP_D8_W, TP_D8_W,
	TP_D8_E, TP_D8_E, TP_D8_E, TP_D8_OUT | TP_D8_E,
};

/* The place of each cell along the snake, from 1. */
static const float place[W * H] = {
	1, 2, 3, 4,
	8, 7, 6, 5,
	9, 10, 11, 12,
};

START_TEST(test_snake)
{
	tp_flowtile_opts o = { .geo = { .cellsize = 10, .north = 30 },
	    .sea_level = -INFINITY };
	float acc[W * H];
	tp_err e;

	for (int size = 1; size <= 5; size++) {
		memset(acc, 0, sizeof acc);
		ck_assert_msg(tp_flowtile_grid(snake, W, H, &o, size, 2, acc, W,
		    &e) == 0, "%s", e.msg);
		for (int i = 0; i < W * H; i++)
			ck_assert_msg(acc[i] == place[i], "tiles %d cell %d: "
			    "%g, not %g", size, i, acc[i], place[i]);
	}
	/* areas: 100 square units a cell */
	o.area = 1;
	ck_assert_int_eq(tp_flowtile_grid(snake, W, H, &o, 2, 1, acc, W, &e),
	    0);
	for (int i = 0; i < W * H; i++)
		ck_assert_float_eq(acc[i], 100 * place[i]);
}
END_TEST

/* A NaN cell cuts the snake: the cells after it start counting again;
 * the NaN cell's own count is NaN. The sink at the end keeps its count.
 * Written into a wider array: the stride is kept. */
START_TEST(test_hole_and_sink)
{
	tp_flowtile_opts o = { .geo = { .cellsize = 1, .north = 3 },
	    .sea_level = -INFINITY };
	uint8_t dir[W * H];
	float acc[H * 6];
	tp_err e;

	memcpy(dir, snake, sizeof dir);
	dir[5] = TP_D8_NODATA;		/* (1, 1), place 7 */
	dir[11] = TP_D8_SINK;
	for (int size = 1; size <= 4; size++) {
		for (int i = 0; i < H * 6; i++)
			acc[i] = -7;
		ck_assert_int_eq(tp_flowtile_grid(dir, W, H, &o, size, 3, acc,
		    6, &e), 0);
		for (int i = 0; i < W * H; i++) {
			float a = acc[i / W * 6 + i % W];

			if (i == 5)
				ck_assert(isnan(a));
			else
				ck_assert_float_eq(a, place[i] > 7 ?
				    place[i] - 7 : place[i]);
		}
		for (int y = 0; y < H; y++)
			ck_assert(acc[y * 6 + 4] == -7 && acc[y * 6 + 5] == -7);
	}
}
END_TEST

/* Directions of a fractal with NaN and a sea: tiles of 1 to 18 cells,
 * one thread and three, the bytes of tp_flow_accumulate. */
START_TEST(test_fractal)
{
	enum { n = 17 };
	tp_flowtile_opts o = { .geo = { .cellsize = 25, .north = 1000 },
	    .sea_level = _i ? -0.1 : -INFINITY, .area = _i };
	float z[n * n], want[n * n], got[n * n];
	uint8_t dir[n * n];
	uint64_t s = 3 + (uint64_t)_i;
	tp_err e;

	tp_test_fractal(z, n, &s, 0.6f);
	z[20] = z[200] = NAN;
	ck_assert_int_eq(tp_flow_d8_sea(z, n, n, n, &o.geo, o.sea_level, 1,
	    dir, NULL, &e), 0);
	ck_assert_int_eq(tp_flow_accumulate(dir, n, n, &o.geo, o.area, 1,
	    want, n, &e), 0);
	for (int size = 1; size <= n + 1; size++)
		for (int threads = 1; threads <= 3; threads += 2) {
			ck_assert_int_eq(tp_flowtile_grid(dir, n, n, &o, size,
			    threads, got, n, &e), 0);
			ck_assert_msg(memcmp(got, want, sizeof got) == 0,
			    "tiles of %d on %d threads", size, threads);
		}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("flowtile_grid");
	TCase *core = tcase_create("core");

	tcase_set_timeout(core, 60);
	tcase_add_test(core, test_snake);
	tcase_add_test(core, test_hole_and_sink);
	tcase_add_loop_test(core, test_fractal, 0, 2);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
