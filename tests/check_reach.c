/* check_reach.c - unit tests of tp_reach: hand-drawn networks, Strahler
 * orders, cell counts, lengths, codes. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "vector/tp_reach.h"
#include "tp_test.h"

static const tp_geo_grid ten = { .cellsize = 10, .north = 0 };

/* ESRI codes: 1 E, 2 SE, 4 S, 8 SW, 16 W, 32 NW, 64 N, 128 NE. */

/* Two sources meet: a Y in a 3 x 3 grid. (0,0) SE and (2,0) SW into (1,1),
 * which runs S to (1,2) and off the grid. Order 1 + 1 = 2. */
START_TEST(test_y)
{
	float dir[9] = { 2, 0, 8, 0, 4, 0, 0, 4, 0 };
	float riv[9] = { 1, 0, 1, 0, 1, 0, 0, 1, 0 };
	float z[9] = { 9, 0, 8, 0, 5, 0, 0, 3, 0 };
	tp_reaches rs;
	tp_err e;

	ck_assert_int_eq(tp_reach_build(dir, riv, NULL, z, NULL, 3, 3, 3, 0,
	    &ten, &rs, &e), 0);
	ck_assert_int_eq(rs.n, 3);
	/* heads in row-major order: (0,0), (2,0), then the confluence */
	ck_assert_int_eq(rs.r[0].order, 1);
	ck_assert_int_eq(rs.r[1].order, 1);
	ck_assert_int_eq(rs.r[2].order, 2);
	ck_assert_int_eq(rs.r[0].down, 3);
	ck_assert_int_eq(rs.r[1].down, 3);
	ck_assert_int_eq(rs.r[2].down, 0);
	/* the source's line goes on to the confluence: two points */
	ck_assert_int_eq(rs.r[0].npts, 2);
	ck_assert_int_eq(rs.path[rs.r[0].pt0 + 1], 4);
	ck_assert_int_eq(rs.r[0].ncells, 1);
	ck_assert_double_eq_tol(rs.r[0].length, 10 * sqrt(2), 1e-12);
	ck_assert_double_eq(rs.r[0].drop, 4);		/* 9 - 5 */
	ck_assert_int_eq(rs.r[2].npts, 2);
	ck_assert_double_eq(rs.r[2].length, 10);
	ck_assert_double_eq(rs.r[2].drop, 2);
	/* the other cells are sinks: only the river drains through */
	ck_assert_double_eq(rs.r[0].up_cells, 1);
	ck_assert_double_eq(rs.r[2].up_cells, 4);
	ck_assert_double_eq(rs.r[2].up_area, 400);
	tp_reach_free(&rs);
}
END_TEST

/* An order-1 stream joining an order-2 one keeps 2, in a 3 x 4 grid:
 *   row 0: a SE   .     b SW
 *   row 1: .      m S   c W      a, b and c meet at m: order 2
 *   row 2: d E    n S   .        d (1) joins n: still 2
 *   row 3: .      o S   .        o leaves the grid */
START_TEST(test_keeps_order)
{
	float dir[12] = { 2, 0, 8, 0, 4, 16, 1, 4, 0, 0, 4, 0 };
	float riv[12] = { 1, 0, 1, 0, 1, 1, 1, 1, 0, 0, 1, 0 };
	tp_reaches rs;
	int64_t i;

	ck_assert_int_eq(tp_reach_build(dir, riv, NULL, NULL, NULL, 3, 4, 3, 0,
	    &ten, &rs, NULL), 0);
	/* heads: a(0), b(2), m(4, three in), c(5), d(6), n(7, two in) */
	ck_assert_int_eq(rs.n, 6);
	ck_assert_int_eq(rs.r[2].order, 2);	/* m: 1, 1, 1 */
	ck_assert_int_eq(rs.r[5].order, 2);	/* n: 2 and 1 keep 2 */
	ck_assert_int_eq(rs.r[4].order, 1);
	ck_assert_int_eq(rs.r[4].down, 6);
	ck_assert(isnan(rs.r[0].drop));
	for (i = 0; i < rs.n; i++)
		ck_assert_int_eq(rs.r[i].order, i == 2 || i == 5 ? 2 : 1);
	tp_reach_free(&rs);
}
END_TEST

/* Two order-2 streams make 3; an order band, when given, is used as is. */
START_TEST(test_three)
{
	/* 5 x 3: sources at (0,0), (1,0) meet at (0,1)? Build two Ys:
	 * row 0: S  SW  .  SE  S
	 * row 1: SE .   .  .   SW   ((0,1) and (4,1) are the two 2s)
	 * row 2: .  E   S  W   .    ((1,2) E, (3,2) W into (2,2), off S) */
	float dir[15] = { 4, 8, 0, 2, 4, 2, 0, 0, 0, 8, 0, 1, 4, 16, 0 };
	float riv[15] = { 1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1, 1, 1, 0 };
	float ord[15] = { 0 };
	tp_reaches rs;

	ck_assert_int_eq(tp_reach_build(dir, riv, NULL, NULL, NULL, 5, 3, 5, 0,
	    &ten, &rs, NULL), 0);
	ck_assert_int_eq(rs.n, 7);
	ck_assert_int_eq(rs.r[4].order, 2);	/* (0,1) */
	ck_assert_int_eq(rs.r[5].order, 2);	/* (4,1) */
	ck_assert_int_eq(rs.r[6].order, 3);	/* (2,2) */
	ck_assert_int_eq(rs.r[6].ncells, 1);
	ck_assert_double_eq(rs.r[6].up_cells, 9);
	tp_reach_free(&rs);
	ord[12] = 7;
	ck_assert_int_eq(tp_reach_build(dir, riv, ord, NULL, NULL, 5, 3, 5, 0,
	    &ten, &rs, NULL), 0);
	ck_assert_int_eq(rs.r[6].order, 7);
	ck_assert_int_eq(rs.r[0].order, 0);
	tp_reach_free(&rs);
}
END_TEST

/* GRASS codes: the Y of test_y, outlets negative. */
START_TEST(test_grass)
{
	float dir[9] = { 7, 0, 5, 0, 6, 0, 0, -6, 0 };
	float riv[9] = { 1, 0, 1, 0, 1, 0, 0, 1, 0 };
	tp_reaches rs;

	ck_assert_int_eq(tp_reach_build(dir, riv, NULL, NULL, NULL, 3, 3, 3, 1,
	    &ten, &rs, NULL), 0);
	ck_assert_int_eq(rs.n, 3);
	ck_assert_int_eq(rs.r[2].order, 2);
	ck_assert_double_eq(rs.r[2].up_cells, 4);
	tp_reach_free(&rs);
}
END_TEST

START_TEST(test_codes)
{
	ck_assert_int_eq(tp_reach_code(128, 0), 8);
	ck_assert_int_eq(tp_reach_code(1, 0), 1);
	ck_assert_int_eq(tp_reach_code(0, 0), 0);
	ck_assert_int_eq(tp_reach_code(3, 0), -1);
	ck_assert_int_eq(tp_reach_code(1.5f, 0), -1);
	ck_assert_int_eq(tp_reach_code(NAN, 0), -1);
	ck_assert_int_eq(tp_reach_code(8, 1), 1);
	ck_assert_int_eq(tp_reach_code(-1, 1), 8);
	ck_assert_int_eq(tp_reach_code(9, 1), -1);
}
END_TEST

START_TEST(test_bad_code)
{
	float dir[2] = { 1, 3 }, riv[2] = { 1, 1 };
	tp_reaches rs;
	tp_err e;

	ck_assert_int_eq(tp_reach_build(dir, riv, NULL, NULL, NULL, 2, 1, 2, 0,
	    &ten, &rs, &e), -1);
	ck_assert_str_eq(e.msg, "dir: 3 at column 1, row 0 is not an ESRI "
	    "direction code");
}
END_TEST

/* A cycle of river cells (a dir band no tflow makes) is left out; a cell
 * draining into it still has its reach, ending there. Nothing hangs. */
START_TEST(test_cycle)
{
	/* 2 x 2: E, S / N, W: a loop; plus (0,0) also fed by nothing */
	float dir[4] = { 1, 4, 64, 16 }, riv[4] = { 1, 1, 1, 1 };
	tp_reaches rs;

	ck_assert_int_eq(tp_reach_build(dir, riv, NULL, NULL, NULL, 2, 2, 2, 0,
	    &ten, &rs, NULL), 0);
	ck_assert_int_eq(rs.n, 0);
	tp_reach_free(&rs);
	/* a source (0,0) draining east into the loop (1,0), (1,1), (2,1),
	 * (2,0) of a 3 x 2 grid: its reach ends where the loop begins */
	{
		float d2[6] = { 1, 4, 16, 0, 1, 64 };
		float r2[6] = { 1, 1, 1, 0, 1, 1 };

		/* (1,0) S -> (1,1) E -> (2,1) N -> (2,0) W -> (1,0) */
		ck_assert_int_eq(tp_reach_build(d2, r2, NULL, NULL, NULL, 3, 2, 3,
		    0, &ten, &rs, NULL), 0);
		ck_assert_int_eq(rs.n, 1);
		ck_assert_int_eq(rs.r[0].ncells, 1);
		ck_assert_int_eq(rs.r[0].npts, 1);
		ck_assert_int_eq(rs.r[0].down, 0);
		ck_assert_int_eq(rs.r[0].order, 1);
		tp_reach_free(&rs);
	}
}
END_TEST

/* A chain in one row of 7 cells, all draining east (ESRI 1):
 *   river, lake 1, lake 1, river, lake 2, river, river (off the grid).
 * A river mark on a lake cell (cell 1) is ignored: lakes are never river.
 * Three reaches: the source ends on lake 1's first cell, the next leaves
 * lake 1 and ends on lake 2, the last leaves lake 2. */
START_TEST(test_lake_chain)
{
	float dir[7] = { 1, 1, 1, 1, 1, 1, 1 };
	float riv[7] = { 1, 1, 0, 1, 0, 1, 1 };
	float lake[7] = { 0, 1, 1, 0, 2, 0, 0 };
	tp_reaches rs;

	ck_assert_int_eq(tp_reach_build(dir, riv, NULL, NULL, lake, 7, 1, 7,
	    0, &ten, &rs, NULL), 0);
	ck_assert_int_eq(rs.n, 3);
	ck_assert_int_eq(rs.r[0].npts, 2);
	ck_assert_int_eq(rs.path[rs.r[0].pt0 + 1], 1);
	ck_assert_int_eq(rs.r[0].ncells, 1);
	ck_assert_double_eq(rs.r[0].length, 10);
	ck_assert_int_eq(rs.r[0].lake_in, 1);
	ck_assert_int_eq(rs.r[0].lake_out, 0);
	ck_assert_int_eq(rs.r[0].down, 2);
	ck_assert_int_eq(rs.path[rs.r[1].pt0], 3);
	ck_assert_int_eq(rs.r[1].lake_out, 1);
	ck_assert_int_eq(rs.r[1].lake_in, 2);
	ck_assert_int_eq(rs.r[1].down, 3);
	ck_assert_int_eq(rs.r[2].lake_out, 2);
	ck_assert_int_eq(rs.r[2].lake_in, 0);
	ck_assert_int_eq(rs.r[2].down, 0);
	ck_assert_int_eq(rs.r[2].npts, 2);
	ck_assert_int_eq(rs.r[2].order, 1);
	ck_assert_int_eq(tp_reach_find(&rs, 3), 2);
	ck_assert_int_eq(tp_reach_find(&rs, 4), 0);
	tp_reach_free(&rs);
}
END_TEST

/* A lake as a confluence, 3 x 3 (1 E, 4 S, 16 W):
 *   row 0: a S    .  S   b S       a and b flow into lake 1
 *   row 1: L E    L S    L W       the lake drains to (1,2)
 *   row 2: c E    o S    .         c joins the outlet o from the side
 * o begins a reach though one river flows in: the lake drains into it.
 * a, b and c are order 1, o is 2. */
START_TEST(test_lake_confluence)
{
	float dir[9] = { 4, 4, 4, 1, 4, 16, 1, 4, 0 };
	float riv[9] = { 1, 0, 1, 0, 0, 0, 1, 1, 0 };
	float lake[9] = { 0, 0, 0, 1, 1, 1, 0, 0, 0 };
	tp_reaches rs;

	ck_assert_int_eq(tp_reach_build(dir, riv, NULL, NULL, lake, 3, 3, 3,
	    0, &ten, &rs, NULL), 0);
	ck_assert_int_eq(rs.n, 4);
	ck_assert_int_eq(rs.r[0].down, 4);
	ck_assert_int_eq(rs.r[1].down, 4);
	ck_assert_int_eq(rs.r[2].down, 4);
	ck_assert_int_eq(rs.r[0].lake_in, 1);
	ck_assert_int_eq(rs.r[1].lake_in, 1);
	ck_assert_int_eq(rs.r[2].lake_in, 0);
	ck_assert_int_eq(rs.r[3].lake_out, 1);
	ck_assert_int_eq(rs.r[3].order, 2);
	ck_assert_int_eq(rs.r[0].order, 1);
	tp_reach_free(&rs);
	/* without the lake plane: no reach ends in a lake */
	ck_assert_int_eq(tp_reach_build(dir, riv, NULL, NULL, NULL, 3, 3, 3,
	    0, &ten, &rs, NULL), 0);
	ck_assert_int_eq(rs.n, 3);
	ck_assert_int_eq(rs.r[0].down, 0);
	ck_assert_int_eq(rs.r[2].lake_out, 0);
	tp_reach_free(&rs);
}
END_TEST

static Suite *
reach_suite(void)
{
	Suite *s = suite_create("reach");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_y);
	tcase_add_test(core, test_keeps_order);
	tcase_add_test(core, test_three);
	tcase_add_test(core, test_grass);
	tcase_add_test(core, test_codes);
	tcase_add_test(core, test_bad_code);
	tcase_add_test(core, test_cycle);
	tcase_add_test(core, test_lake_chain);
	tcase_add_test(core, test_lake_confluence);
	suite_add_tcase(s, core);
	return s;
}

int
main(void)
{
	return tp_test_run(reach_suite());
}
