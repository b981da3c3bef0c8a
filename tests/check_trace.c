/* check_trace.c - unit tests of tp_trace: polygons of label grids, areas
 * and orientations counted by hand. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tp_test.h"
#include "vector/tp_trace.h"

/* Every ring of every region: closed, simple (no vertex twice), exterior
 * counter-clockwise first, holes clockwise; the areas add up to the
 * region's cells. Returns the regions' cells together. */
static int64_t
check_rings(const tp_regions *rs)
{
	int64_t total = 0;
	size_t k, p, r, q, i, j, pt;

	for (k = 0; k < rs->n; k++) {
		const tp_region *g = &rs->reg[k];
		int64_t a2 = 0;

		r = g->ring0;
		pt = g->pt0;
		for (p = g->poly0; p < g->poly0 + g->npolys; p++)
			for (q = 0; q < rs->poly[p]; q++, pt += rs->ring[r++]) {
				int64_t a = tp_trace_area2(rs, pt, rs->ring[r]);

				ck_assert_int_eq(rs->pt[pt],
				    rs->pt[pt + rs->ring[r] - 1]);
				for (i = 0; i + 1 < rs->ring[r]; i++)
					for (j = i + 1; j + 1 < rs->ring[r]; j++)
						ck_assert(rs->pt[pt + i] !=
						    rs->pt[pt + j]);
				ck_assert(q == 0 ? a > 0 : a < 0);
				a2 += a;
			}
		ck_assert_int_eq(r, g->ring0 + g->nrings);
		ck_assert_int_eq(pt, g->pt0 + g->npts);
		ck_assert_int_eq(a2, 2 * g->cells);
		total += g->cells;
	}
	return total;
}

/* 3 x 3 checkerboard of 1 and 2: every cell its own polygon, a unit
 * square of five points (four corners and the first again). */
START_TEST(test_checkerboard)
{
	float lab[9];
	tp_regions rs;
	size_t k;

	for (k = 0; k < 9; k++)
		lab[k] = (float)(1 + (k % 2));
	ck_assert_int_eq(tp_trace_labels(lab, 3, 3, 3, &rs, NULL), 0);
	ck_assert_int_eq(rs.n, 2);
	ck_assert(rs.reg[0].label == 1 && rs.reg[1].label == 2);
	ck_assert_int_eq(rs.reg[0].npolys, 5);
	ck_assert_int_eq(rs.reg[1].npolys, 4);
	ck_assert_int_eq(rs.reg[0].first, 0);
	ck_assert_int_eq(rs.reg[1].first, 1);
	for (k = 0; k < rs.nring; k++)
		ck_assert_int_eq(rs.ring[k], 5);
	/* the first polygon is cell (0, 0): corners (0,0) (0,1) (1,1) (1,0)
	 * as vertex ids j * 4 + i, counter-clockwise with north up */
	ck_assert_int_eq(rs.pt[0], 0);
	ck_assert_int_eq(rs.pt[1], 4);
	ck_assert_int_eq(rs.pt[2], 5);
	ck_assert_int_eq(rs.pt[3], 1);
	ck_assert_int_eq(check_rings(&rs), 9);
	tp_trace_free(&rs);
}
END_TEST

/* A 3 x 3 block of 1 around a 2: one polygon with a hole of one cell. */
START_TEST(test_hole)
{
	float lab[9] = { 1, 1, 1, 1, 2, 1, 1, 1, 1 };
	tp_regions rs;

	ck_assert_int_eq(tp_trace_labels(lab, 3, 3, 3, &rs, NULL), 0);
	ck_assert_int_eq(rs.n, 2);
	ck_assert_int_eq(rs.reg[0].npolys, 1);
	ck_assert_int_eq(rs.reg[0].nrings, 2);
	ck_assert_int_eq(tp_trace_area2(&rs, 0, rs.ring[0]), 18);
	ck_assert_int_eq(tp_trace_area2(&rs, rs.ring[0], rs.ring[1]), -2);
	ck_assert_int_eq(rs.reg[1].cells, 1);
	ck_assert_int_eq(check_rings(&rs), 9);
	tp_trace_free(&rs);
}
END_TEST

/* One component touching itself at a corner: the ring of 2s closes
 * through the diagonal at (2, 2)-(3, 3); label 1 inside and outside. The
 * rings stay simple: a hole that touches the exterior at a point. */
START_TEST(test_pinch)
{
	float lab[25] = {
		1, 1, 1, 1, 1,
		1, 2, 2, 2, 1,
		1, 2, 1, 2, 1,
		1, 2, 2, 1, 1,
		1, 1, 1, 1, 3,
	};
	tp_regions rs;

	ck_assert_int_eq(tp_trace_labels(lab, 5, 5, 5, &rs, NULL), 0);
	ck_assert_int_eq(rs.n, 3);
	/* label 1: the outer part and the cell inside (4-connected to the
	 * outside only through the corner, so a part of its own) */
	ck_assert_int_eq(rs.reg[0].npolys, 2);
	/* label 2: one part with a hole */
	ck_assert_int_eq(rs.reg[1].npolys, 1);
	ck_assert_int_eq(rs.reg[1].nrings, 2);
	ck_assert_int_eq(check_rings(&rs), 25);
	tp_trace_free(&rs);
}
END_TEST

/* NaN cells belong to nothing: a grid with a NaN column. */
START_TEST(test_nan)
{
	float lab[6] = { 5, NAN, 5, 5, NAN, 5 };
	tp_regions rs;

	ck_assert_int_eq(tp_trace_labels(lab, 3, 2, 3, &rs, NULL), 0);
	ck_assert_int_eq(rs.n, 1);
	ck_assert_int_eq(rs.reg[0].npolys, 2);
	ck_assert_int_eq(check_rings(&rs), 4);
	tp_trace_free(&rs);
}
END_TEST

/* Random labels of three values, some NaN, in a 40 x 30 plane inside a
 * wider row stride: every ring simple and oriented, areas exact. */
START_TEST(test_random)
{
	float *lab = malloc(50 * 30 * sizeof *lab);
	uint64_t s = 0x9e3779b97f4a7c15ull + (uint64_t)_i;
	int64_t valid = 0;
	tp_regions rs;
	int k;

	ck_assert_ptr_nonnull(lab);
	for (k = 0; k < 50 * 30; k++) {
		int v = (int)(tp_test_rnd(&s) % 4);

		lab[k] = v == 3 ? NAN : (float)v;
		valid += v != 3 && k % 50 < 40;
	}
	ck_assert_int_eq(tp_trace_labels(lab, 40, 30, 50, &rs, NULL), 0);
	ck_assert_int_eq(check_rings(&rs), valid);
	tp_trace_free(&rs);
	free(lab);
}
END_TEST

static Suite *
trace_suite(void)
{
	Suite *s = suite_create("trace");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_checkerboard);
	tcase_add_test(core, test_hole);
	tcase_add_test(core, test_pinch);
	tcase_add_test(core, test_nan);
	tcase_add_loop_test(core, test_random, 0, 20);
	suite_add_tcase(s, core);
	return s;
}

int
main(void)
{
	return tp_test_run(trace_suite());
}
