/*
 * check_flat.c - unit tests of tp_flat: directions across flats converge,
 * after Barnes, Lehman & Mulla (2014), as RichDEM's rd.ResolveFlats then
 * D8 give them.
 *
 * Tested through tp_flow_d8, whose flats tp_flat resolves. The rule the
 * expected directions were written out by hand from:
 *  - a flat cell: not on the grid's border, no NaN neighbour, no strictly
 *    lower neighbour;
 *  - a low edge: a cell, not flat, with a flat neighbour of equal height;
 *    a high edge: a flat cell with a strictly higher neighbour;
 *  - dl: breadth-first distance (8-connected, through flat cells of equal
 *    height) from the low edges, 1 on a low edge; dh: the same from the
 *    high edges, 1 on a high edge, 0 where none reaches;
 *  - a flat cell drains to its first equal-height low edge neighbour in
 *    RichDEM's order W, NW, N, NE, E, SE, S, SW; else to the flat
 *    neighbour of least 2 dl - dh, ties to the first in that order.
 * One thing more makes it RichDEM's: a low edge on the grid's border comes
 * before the others (test_border_low_edge_first). scripts/flat-rule.py
 * [--border-first] FILE computes the same maps on its own (FILE: a grid
 * below, one row a line; it prints the map as written here), and RichDEM
 * (scripts/richdem-d8.cpp, the calls pyrichdem makes) agrees on every
 * flat cell of these grids.
 *
 * Expected maps hold tp_d8.h's k, one character a cell: 1 E, 2 SE, 3 S,
 * 4 SW, 5 W, 6 NW, 7 N, 8 NE; '.' is not checked (cells off the flat,
 * whose directions tflow's own D8 gives).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hydro/tp_flat.h"
#include "hydro/tp_flow.h"
#include "tp_test.h"

static const tp_geo_grid UNIT = { 1, 0, 0 };

/* Directions of the w x h grid z against the map want (h rows of w
 * characters); every mismatch is named before the test fails. */
static void
expect_dirs(const float *z, int w, int h, const char *const *want)
{
	uint8_t dir[256];
	tp_flow_stats st;
	tp_err e;
	int x, y, bad = 0;

	ck_assert_int_le(w * h, (int)sizeof(dir));
	ck_assert_int_eq(tp_flow_d8(z, w, h, (size_t)w, &UNIT, 1, dir, &st,
	    &e), 0);
	for (y = 0; y < h; y++) {
		ck_assert_int_eq((int)strlen(want[y]), w);
		for (x = 0; x < w; x++) {
			char c = want[y][x];

			if (c == '.' || dir[y * w + x] == c - '0')
				continue;
			fprintf(stderr, "cell (%d, %d): dir %d, want %c\n", x,
			    y, dir[y * w + x], c);
			bad++;
		}
	}
	ck_assert_int_eq(bad, 0);
	ck_assert_int_eq(st.sinks, 0);
}

/*
 * (a) A 7 x 5 flat of 5 ringed by 9, one lower cell (3) on the east border
 * at row 2. The 5s beside it, (7, 1) (7, 2) (7, 3), are no flat: they are
 * the low edges (dl 1) and take tflow's own steepest drop, SE, E and NE.
 * Every flat cell touching the ring is a high edge.
 *
 *	dl		dh		2 dl - dh
 *	7 6 5 4 3 2 .	1 1 1 1 1 1 .	13 11  9  7  5  3  .
 *	7 6 5 4 3 2 .	1 2 2 2 2 2 .	13 10  8  6  4  2  .
 *	7 6 5 4 3 2 .	1 2 3 3 3 2 .	13 10  7  5  3  2  .
 *	7 6 5 4 3 2 2	1 2 2 2 2 2 1	13 10  8  6  4  2  3
 *	7 6 5 4 3 3 3	1 1 1 1 1 1 1	13 11  9  7  5  5  5
 *
 * E.g. (1, 1): E 11, SE 10, S 13: SE. (6, 2): NE is the low edge (7, 1),
 * the first of its three. (5, 3): NE, E and SE are all 2: NE, the first.
 * (7, 5): W 5, NW 2, N 3: NW. The flow converges on row 3 and the east.
 */
START_TEST(test_ringed_flat)
{
	static const float z[7 * 9] = {
		9, 9, 9, 9, 9, 9, 9, 9, 9,
		9, 5, 5, 5, 5, 5, 5, 5, 9,
		9, 5, 5, 5, 5, 5, 5, 5, 3,
		9, 5, 5, 5, 5, 5, 5, 5, 9,
		9, 5, 5, 5, 5, 5, 5, 5, 9,
		9, 5, 5, 5, 5, 5, 5, 5, 9,
		9, 9, 9, 9, 9, 9, 9, 9, 9 };
	static const char *const want[7] = {
		".........",
		".2222212.",
		".1222181.",
		".8111888.",
		".8888887.",
		".8888876.",
		"........." };

	expect_dirs(z, 9, 7, want);
}
END_TEST

/*
 * (b) Garbrecht & Martz's (1997) example DEM, the one Barnes et al. (2014)
 * work their method through (RichDEM ships it as data/garbrecht.dem; it
 * carries no expected directions, so these are the rule's, by hand, and
 * RichDEM's driver gives the same). The outlet is the 5 on the south
 * border; the 6s above it, (1..3, 5), are low edges, not flat.
 *
 *	dl		dh		2 dl - dh
 *	5 5 5 5 5	1 1 1 1 1	9 9 9 9 9
 *	4 4 4 4 4	1 2 2 2 1	7 6 6 6 7
 *	3 3 3 3 3	1 2 3 2 1	5 4 3 4 5
 *	2 2 2 2 3	1 2 2 2 1	3 2 2 2 5
 *	. . . 2 3	. . . 1 1	. . . 3 5
 *
 * E.g. (4, 1): S and SW both 6: S, first in RichDEM's order. (4, 4): SW
 * is the low edge (3, 5). (5, 5): W 3, NW 2, N 5: NW.
 */
START_TEST(test_garbrecht)
{
	static const float z[7 * 7] = {
		9, 9, 9, 9, 9, 9, 9,
		9, 6, 6, 6, 6, 6, 9,
		8, 6, 6, 6, 6, 6, 9,
		8, 6, 6, 6, 6, 6, 9,
		7, 6, 6, 6, 6, 6, 8,
		7, 6, 6, 6, 6, 6, 8,
		7, 7, 5, 7, 7, 8, 8 };
	static const char *const want[7] = {
		".......",
		".22234.",
		".22344.",
		".22234.",
		".22345.",
		".23456.",
		"......." };

	expect_dirs(z, 7, 7, want);
}
END_TEST

/*
 * (c) A plateau of 5 with no higher edge: the border is 1, so the outer
 * ring of 5s are low edges, and a notch (4, then 3) on the east at row 4
 * makes low edges of (8..9, 3) (8, 4) (8..9, 5) too. dh is 0 everywhere,
 * so each flat cell drains to its neighbour nearest a low edge (least dl),
 * ties to the first of W, NW, N, NE, E, SE, S, SW.
 *
 *	dl (flat cells)
 *	2 2 2 2 2 2 2 2
 *	2 3 3 3 3 2 . .
 *	2 3 4 4 3 2 . .
 *	2 3 3 3 3 2 . .
 *	2 2 2 2 2 2 2 2
 *
 * E.g. (5, 4) (dl 4): NW is the first 3. (4, 4): W 3. (6, 4): NE, E, SE
 * are 2: NE. (7, 3): E is the low edge (8, 3). (3, 5): W 2.
 */
START_TEST(test_plateau)
{
	static const float z[9 * 12] = {
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 1,
		1, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 1,
		1, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 1,
		1, 5, 5, 5, 5, 5, 5, 5, 5, 4, 3, 1,
		1, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 1,
		1, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 1,
		1, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	static const char *const want[9] = {
		"............",
		"............",
		"..56666666..",
		"..556661....",
		"..555688....",
		"..552288....",
		"..52222876..",
		"............",
		"............" };

	expect_dirs(z, 12, 9, want);
}
END_TEST

/*
 * (a) again with the outlet a NaN cell instead of the 3: the 5s beside it
 * have a NaN neighbour, so they are no flat but low edges (outlets into
 * the NaN), and the flat drains as before.
 */
START_TEST(test_nan_outlet)
{
	float z[7 * 9];
	static const char *const want[7] = {
		".........",
		".222221..",
		".122218..",
		".811188..",
		".8888887.",
		".8888876.",
		"........." };
	int i;

	for (i = 0; i < 7 * 9; i++)
		z[i] = i / 9 == 0 || i / 9 == 6 || i % 9 == 0 || i % 9 == 8 ?
		    9 : 5;
	z[2 * 9 + 8] = NAN;
	expect_dirs(z, 9, 7, want);
}
END_TEST

/*
 * (a) with two more outlets on the north border: a 3 at (1, 0), which
 * makes low edges of (1, 1) and (2, 1), and a 5 at (3, 0), a low edge
 * itself, on the border. (3, 1) has the low edge (2, 1) to its W, first
 * in RichDEM's order, and the border one (3, 0) to its N: it drains N, as
 * RichDEM's does, whose epsilon raise lifts every low edge by two steps
 * but the border's by none (scripts/flat-rule.py --border-first).
 */
START_TEST(test_border_low_edge_first)
{
	static const float z[7 * 9] = {
		9, 3, 9, 5, 9, 9, 9, 9, 9,
		9, 5, 5, 5, 5, 5, 5, 5, 9,
		9, 5, 5, 5, 5, 5, 5, 5, 3,
		9, 5, 5, 5, 5, 5, 5, 5, 9,
		9, 5, 5, 5, 5, 5, 5, 5, 9,
		9, 5, 5, 5, 5, 5, 5, 5, 9,
		9, 9, 9, 9, 9, 9, 9, 9, 9 };
	static const char *const want[7] = {
		".........",
		"...7621..",
		".766518..",
		".876688..",
		".8876887.",
		".8768876.",
		"........." };

	expect_dirs(z, 9, 7, want);
}
END_TEST

/* A lake (wet cells) 9 x 5 at 5 in a rim of 9, its outlet the 4 on the
 * east border: routed along its middle. d, the steps to the lake's rim
 * (the shore or the cells next to the outlet), is 3 on row 3 from column
 * 3 to 6, at most 2 elsewhere, so a step there costs at most 2/81 (the
 * roughness doubles a weight at most) and one beside it at least 1/16:
 * every path from the west columns follows row 3 through columns 3 to 6. */
START_TEST(test_lake_middle)
{
	float z[77];
	uint8_t wet[77], dir[77];
	tp_flow_stats st;
	tp_err e;
	int x, y, cx, cy, mid, k;

	for (y = 0; y < 7; y++)
		for (x = 0; x < 11; x++) {
			int in = x >= 1 && x <= 9 && y >= 1 && y <= 5;

			z[y * 11 + x] = in ? 5 : 9;
			wet[y * 11 + x] = (uint8_t)in;
		}
	z[3 * 11 + 10] = 4;
	ck_assert_int_eq(tp_flow_d8_flats(z, 11, 7, 11, &UNIT, -INFINITY,
	    TP_FLAT_CONVERGE, wet, 1, dir, &st, &e), 0);
	ck_assert_int_eq(st.sinks, 0);
	for (y = 1; y <= 5; y++)
		for (x = 1; x <= 2; x++) {
			cx = x;
			cy = y;
			for (mid = 0; cx < 10; cx += tp_d8_dx[k],
			    cy += tp_d8_dy[k]) {
				k = dir[cy * 11 + cx];
				ck_assert(k >= 1 && k <= 8);
				if (cy == 3 && cx >= 3 && cx <= 6)
					mid++;
			}
			ck_assert_msg(mid == 4, "from %d,%d: %d cells of row 3 "
			    "in columns 3 to 6", x, y, mid);
		}
}
END_TEST

static Suite *
flat_suite(void)
{
	Suite *s = suite_create("flat");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_ringed_flat);
	tcase_add_test(tc, test_garbrecht);
	tcase_add_test(tc, test_plateau);
	tcase_add_test(tc, test_nan_outlet);
	tcase_add_test(tc, test_border_low_edge_first);
	tcase_add_test(tc, test_lake_middle);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tp_test_run(flat_suite());
}
