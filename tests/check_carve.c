/* check_carve.c - unit tests of tp_carve: least-cost directions out of
 * depressions on surfaces that were not filled; the first rule's
 * directions as GRASS r.stream.extract draws them, worked by hand. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_carve.h"
#include "hydro/tp_fill.h"
#include "hydro/tp_flow.h"
#include "tp_test.h"

/* Carving with the steepest rule: the directions tflow --carve gives. */
static int
carve_d8(const float *z, int64_t w, int64_t h, size_t stride,
    const tp_geo_grid *g, double sea_level, uint8_t *dir, tp_flow_stats *st,
    tp_err *e)
{
	return tp_carve_rule(z, w, h, stride, g, sea_level, TP_CARVE_STEEPEST,
	    dir, NULL, st, e);
}

static const tp_geo_grid UNIT = { 1, 0, 0 };

/* A bowl of 9s around a pit of 4, open to the south through a notch of 3
 * on the border. Worked by hand: the flood enters at the notch, climbs
 * 6 to reach the pit, so the pit drains uphill, north to south, and every
 * cell (the 9s drain inward to lower cells the flood took first) leaves
 * through the notch. */
START_TEST(test_pit_breach)
{
	enum { W = 5, H = 5 };
	static const float z[W * H] = {
		9, 9, 9, 9, 9,
		9, 5, 6, 5, 9,
		9, 6, 4, 6, 9,
		9, 7, 6, 7, 9,
		9, 9, 3, 9, 9,
	};
	float acc[W * H];
	uint8_t dir[W * H];
	tp_flow_stats st;
	tp_err e;

	ck_assert_int_eq(carve_d8(z, W, H, W, &UNIT, -INFINITY, dir, &st,
	    &e), 0);
	ck_assert_int_eq(dir[2 * W + 2], TP_D8_S);	/* the pit, uphill */
	ck_assert_int_eq(dir[3 * W + 2], TP_D8_S);	/* 6 down to the notch */
	ck_assert_int_eq(dir[1 * W + 1], TP_D8_SE);	/* 5 down into the pit */
	ck_assert_int_eq(dir[1 * W + 2], TP_D8_S);	/* 6: 2 down beats 1.41 */
	ck_assert_int_eq(dir[3 * W + 1], TP_D8_SE);	/* 7: 4/sqrt 2 beats 1 */
	ck_assert_int_eq(dir[0], TP_D8_SE);		/* a border 9, inward */
	ck_assert_int_eq(dir[4 * W + 1], TP_D8_E);	/* 9 beside the notch */
	/* the notch: its first neighbour off the grid is south-east */
	ck_assert_int_eq(dir[4 * W + 2], TP_D8_OUT | TP_D8_SE);
	ck_assert_int_eq(st.valid, W * H);
	ck_assert_int_eq(st.outlets, 1);
	ck_assert_int_eq(st.sinks, 0);
	ck_assert_int_eq(st.flats, 1);		/* the pit alone */
	ck_assert_int_eq(tp_flow_accumulate(dir, W, H, &UNIT, 0, 1, acc, W,
	    &e), 0);
	ck_assert_float_eq(acc[4 * W + 2], W * H);
	/* the pit, its five higher neighbours in the bowl and the eleven
	 * 9s of the north half that drain into them */
	ck_assert_float_eq(acc[2 * W + 2], 17);
}
END_TEST

/* Follow every valid cell down its directions: each must reach an outlet
 * (or the sea) in fewer steps than there are cells: no cycle, no sink. */
static void
assert_drains(const uint8_t *dir, int w, int h)
{
	int i, steps, x, y;

	for (i = 0; i < w * h; i++) {
		if (dir[i] == TP_D8_NODATA)
			continue;
		x = i % w;
		y = i / w;
		for (steps = 0; dir[y * w + x] >= 1 && dir[y * w + x] <= 8;
		    steps++) {
			int k = dir[y * w + x];

			ck_assert_int_lt(steps, w * h);
			x += tp_d8_dx[k];
			y += tp_d8_dy[k];
			ck_assert(x >= 0 && x < w && y >= 0 && y < h);
			ck_assert_int_ne(dir[y * w + x], TP_D8_NODATA);
		}
		ck_assert_int_ne(dir[y * w + x] & TP_D8_OUT, 0);
	}
}

/* A rough fractal, unfilled, with a hole of NaN: every cell drains out,
 * and the outlets receive every valid cell exactly once. */
START_TEST(test_fractal_drains)
{
	enum { S = 65 };
	float *z = malloc(S * S * sizeof *z), *acc = malloc(S * S * sizeof *acc);
	uint8_t *dir = malloc(S * S);
	uint64_t seed = 11;
	tp_flow_stats st;
	double out = 0;
	tp_err e;
	int i, x, y;

	ck_assert(z != NULL && acc != NULL && dir != NULL);
	tp_test_fractal(z, S, &seed, 0.6f);
	for (y = 20; y < 30; y++)
		for (x = 25; x < 33; x++)
			z[y * S + x] = NAN;
	ck_assert_int_eq(carve_d8(z, S, S, S, &UNIT, -INFINITY, dir, &st,
	    &e), 0);
	ck_assert_int_eq(st.valid, S * S - 80);
	ck_assert_int_eq(st.sinks, 0);
	ck_assert_int_gt(st.flats, 0);	/* the fractal has pits to carve */
	assert_drains(dir, S, S);
	ck_assert_int_eq(tp_flow_accumulate(dir, S, S, &UNIT, 0, 1, acc, S,
	    &e), 0);
	for (i = 0; i < S * S; i++)
		if (dir[i] & TP_D8_OUT && dir[i] != TP_D8_NODATA)
			out += acc[i];
	ck_assert_double_eq(out, S * S - 80);
	free(z);
	free(acc);
	free(dir);
}
END_TEST

/* On a surface filled with a gradient (no depressions, no flats) every
 * lower neighbour is taken before the cell, so the directions are
 * tp_flow_d8's, byte for byte. */
START_TEST(test_filled_equals_d8)
{
	enum { S = 129 };
	float *z = malloc(S * S * sizeof *z);
	uint8_t *a = malloc(S * S), *b = malloc(S * S);
	tp_fill_opts fo = { TP_FILL_NEXT, 0 };
	const tp_geo_grid geo = { 0.001, 47, 1 };	/* degrees */
	uint64_t seed = 5;
	tp_flow_stats sa, sb;
	tp_err e;

	ck_assert(z != NULL && a != NULL && b != NULL);
	tp_test_fractal(z, S, &seed, 0.55f);
	ck_assert_int_eq(tp_fill_pf(z, S, S, S, &fo, NULL, &e), 0);
	ck_assert_int_eq(tp_flow_d8(z, S, S, S, &geo, 1, a, &sa, &e), 0);
	ck_assert_int_eq(carve_d8(z, S, S, S, &geo, -INFINITY, b, &sb,
	    &e), 0);
	ck_assert_int_eq(sa.sinks, 0);
	ck_assert_int_eq(sa.flats, 0);
	ck_assert_int_eq(sb.flats, 0);
	ck_assert_int_eq(sa.outlets, sb.outlets);
	ck_assert_mem_eq(a, b, S * S);
	free(z);
	free(a);
	free(b);
}
END_TEST

/* Where the water of cell i ends: the last cell down its directions. */
static int
end_of(const uint8_t *dir, int w, int i)
{
	while (dir[i] >= 1 && dir[i] <= 8)
		i += tp_d8_dy[dir[i]] * w + tp_d8_dx[dir[i]];
	return i;
}

/* Sea cells stay outlets in place; a lake walled in by 9s and a rim of 5
 * drains over the rim into the sea, not out over the 9s. */
START_TEST(test_sea)
{
	enum { W = 6, H = 5 };
	static const float z[W * H] = {
		-2, -1, 5, 9, 9, 9,
		-2, -1, 5, 3, 4, 9,
		-2, -1, 5, 2, 4, 9,
		-2, -1, 5, 3, 4, 9,
		-2, -1, 5, 9, 9, 9,
	};
	uint8_t dir[W * H];
	tp_flow_stats st;
	tp_err e;
	int i;

	ck_assert_int_eq(carve_d8(z, W, H, W, &UNIT, 0, dir, &st, &e), 0);
	ck_assert_int_eq(dir[0], TP_D8_SEA);
	ck_assert_int_eq(dir[W + 1], TP_D8_SEA);
	ck_assert_int_eq(st.sea, 10);
	ck_assert_int_eq(st.sinks, 0);
	assert_drains(dir, W, H);
	for (i = 0; i < W * H; i++)	/* the lake and its rim: to the sea */
		if (i % W >= 2 && i % W <= 4 && z[i] < 9)
			ck_assert_int_eq(dir[end_of(dir, W, i)], TP_D8_SEA);
}
END_TEST

START_TEST(test_bad_plane)
{
	float z[4] = { 1, 2, 3, 4 };
	uint8_t dir[4];
	tp_geo_grid bad = { 0, 0, 0 };
	tp_err e;

	ck_assert_int_eq(carve_d8(z, 2, 2, 1, &UNIT, -INFINITY, dir, NULL,
	    &e), -1);
	ck_assert_int_eq(carve_d8(z, 2, 2, 2, &bad, -INFINITY, dir, NULL,
	    &e), -1);
	ck_assert_str_eq(e.msg, "cell size must be positive");
	/* refused before the plane is touched */
	ck_assert_int_eq(carve_d8(NULL, INT64_C(1) << 30, 4,
	    (size_t)1 << 30, &UNIT, -INFINITY, NULL, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "least-cost routing: 1073741824x4 is 2^32 "
	    "cells or more");
}
END_TEST

/* Directions of z (w x h) by rule; the centre's direction. */
static int
centre(const float *z, int rule)
{
	uint8_t dir[9];
	tp_flow_stats st;
	tp_err e;

	ck_assert_int_eq(tp_carve_rule(z, 3, 3, 3, &UNIT, -INFINITY, rule,
	    dir, NULL, &st, &e), 0);
	return dir[4];
}

/* The first rule on a 3 x 3 grid (the border its outlets): where it
 * drains the centre, and where the steepest drop would (-1: not checked);
 * levels: the case also checks how heights round to levels. */
static const struct first_case {
	float	z[9];
	int	first, steepest, levels;
} first_cases[] = {
	/* The centre 10. The flood takes NE 2 first; from there the centre
	 * is a diagonal step up of 8 / sqrt 2 = 5.66, steeper than from the
	 * side cells N and E (8: 2 up), so NE reaches it: the first rule
	 * drains it NE. The steepest drop is W: 7 beats 5.66. */
	{ { 12, 8, 2,
	    3, 10, 8,
	    12, 12, 12 }, TP_D8_NE, TP_D8_W, 0 },
	/* The same with E 3: the centre rises 7 from E, more than the 5.66
	 * from NE, so NE leaves it for E, taken next: the first rule drains
	 * it E. */
	{ { 12, 8, 2,
	    12, 10, 3,
	    12, 12, 12 }, TP_D8_E, -1, 0 },
	/* Levels are whole thousandths, rounded half away from zero:
	 * heights that round alike tie, and the tie goes to the cell pushed
	 * first. Here the four side cells are border outlets pushed in
	 * row-major order, and N (1.0004) is pushed before W (1.0001): the
	 * same level, so N reaches the centre first. */
	{ { 9, 1.0004f, 9,
	    1.0001f, 5, 9,
	    9, 9, 9 }, TP_D8_N, -1, 1 },
};

START_TEST(test_first_rule)
{
	const struct first_case *c = &first_cases[_i];

	ck_assert_int_eq(centre(c->z, TP_CARVE_FIRST), c->first);
	if (c->steepest >= 0)
		ck_assert_int_eq(centre(c->z, TP_CARVE_STEEPEST), c->steepest);
	if (c->levels) {
		ck_assert(tp_carve_level(2.5f) == 2500);
		ck_assert(tp_carve_level(-0.0004f) == 0);
		ck_assert(tp_carve_level(-0.0006f) == -1);
		ck_assert(tp_carve_level(NAN) == 0);
		ck_assert(tp_carve_level(1e10f) == 2147483647.0);
		ck_assert(tp_carve_level(-1e10f) == -2147483647.0);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("carve");
	TCase *tc = tcase_create("core");
	TCase *first = tcase_create("first");

	tcase_add_test(tc, test_pit_breach);
	tcase_add_test(tc, test_fractal_drains);
	tcase_add_test(tc, test_filled_equals_d8);
	tcase_add_test(tc, test_sea);
	tcase_add_test(tc, test_bad_plane);
	tcase_add_loop_test(first, test_first_rule, 0,
	    (int)(sizeof first_cases / sizeof first_cases[0]));
	suite_add_tcase(s, tc);
	suite_add_tcase(s, first);
	return tp_test_run(s);
}
