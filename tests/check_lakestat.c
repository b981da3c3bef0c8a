/* check_lakestat.c - unit tests of tp_lakestat: ids, the check's errors, and the
 * sums and outlet of hand-drawn lakes. */
#include <check.h>
#include <math.h>

#include "vector/tp_lakestat.h"
#include "tp_test.h"

static const tp_geo_grid ten = { .cellsize = 10, .north = 0 };

START_TEST(test_id)
{
	ck_assert_int_eq(tp_lakestat_id(0), 0);
	ck_assert_int_eq(tp_lakestat_id(NAN), 0);
	ck_assert_int_eq(tp_lakestat_id(3), 3);
	ck_assert_int_eq(tp_lakestat_id(1.5f), -1);
	ck_assert_int_eq(tp_lakestat_id(-2), -1);
	ck_assert_int_eq(tp_lakestat_id(INFINITY), -1);
}
END_TEST

START_TEST(test_check)
{
	float p[4] = { 0, 1, NAN, 2 };
	tp_err e;

	ck_assert_int_eq(tp_lakestat_check(p, 2, 2, 2, &e), 0);
	p[2] = 1.5f;
	ck_assert_int_eq(tp_lakestat_check(p, 2, 2, 2, &e), -1);
	ck_assert_str_eq(e.msg, "lake: 1.5 at column 0, row 1 is not a lake id "
	    "(0, or 1 to the cell count)");
	p[2] = 5;	/* 4 cells: at most 4 lakes */
	ck_assert_int_eq(tp_lakestat_check(p, 2, 2, 2, &e), -1);
	p[2] = 4;
	ck_assert_int_eq(tp_lakestat_check(p, 2, 2, 2, &e), 0);
}
END_TEST

/* A 4 x 3 grid, cells 10 wide (ESRI codes: 1 E, 4 S, 64 N):
 *   lake   1 1 0 2      dir  E E 0 N
 *          1 1 0 0           S S 0 0
 *          0 0 0 NaN         0 0 0 NaN
 * Lake 1 drains into (2,0), (0,2) and (1,2), of flow 5, 7 and 7: the
 * outlet is (0,2), cell 8, the first of most flow. Lake 2 drains off the
 * grid: no outlet. */
static float lake[12] = { 1, 1, 0, 2, 1, 1, 0, 0, 0, 0, 0, NAN };
static float dir[12] = { 1, 1, 0, 64, 4, 4, 0, 0, 0, 0, 0, NAN };
static float flow[12] = { 1, 2, 5, 1, 1, 1, 1, 1, 7, 7, 1, NAN };
static float z[12] = { 3, 2.5f, 9, 7, 2.5f, 4, 9, 9, 9, 9, 9, NAN };
static float depth[12] = { 1, 2, 0, 0.25f, 0.5f, 0, 0, 0, 0, 0, 0, NAN };

START_TEST(test_build)
{
	tp_lakestat_planes p = { lake, z, depth, dir, flow, 4, 3, 4, 0 };
	tp_lakestats ls;
	tp_err e;

	ck_assert_int_eq(tp_lakestat_build(&p, &ten, &ls, &e), 0);
	ck_assert_int_eq(ls.n, 2);
	ck_assert_int_eq(ls.l[0].id, 1);
	ck_assert_int_eq(ls.l[0].cells, 4);
	ck_assert_double_eq(ls.l[0].area, 400);
	ck_assert_double_eq(ls.l[0].level, 2.5);
	ck_assert_double_eq(ls.l[0].max_depth, 2);
	ck_assert_double_eq(ls.l[0].volume, 350);	/* 3.5 x 100 */
	ck_assert_int_eq(ls.l[0].outlet, 8);
	ck_assert_double_eq(ls.l[0].outlet_flow, 7);
	ck_assert_int_eq(ls.l[1].id, 2);
	ck_assert_double_eq(ls.l[1].level, 7);
	ck_assert_double_eq(ls.l[1].volume, 25);
	ck_assert_int_eq(ls.l[1].outlet, -1);
	tp_lakestat_free(&ls);
	/* without flow every outlet ties: the first in row-major order */
	flow[2] = 99;
	p.flow = NULL;
	ck_assert_int_eq(tp_lakestat_build(&p, &ten, &ls, &e), 0);
	ck_assert_int_eq(ls.l[0].outlet, 2);
	tp_lakestat_free(&ls);
	p.flow = flow;
	ck_assert_int_eq(tp_lakestat_build(&p, &ten, &ls, &e), 0);
	ck_assert_int_eq(ls.l[0].outlet, 2);
	flow[2] = 5;
	tp_lakestat_free(&ls);
}
END_TEST

START_TEST(test_no_bands)
{
	tp_lakestat_planes p = { lake, NULL, NULL, NULL, NULL, 4, 3, 4, 0 };
	float bad[12] = { 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.5f };
	tp_lakestats ls;
	tp_err e;

	ck_assert_int_eq(tp_lakestat_build(&p, &ten, &ls, &e), 0);
	ck_assert_int_eq(ls.n, 2);
	ck_assert(isnan(ls.l[0].level));
	ck_assert(isnan(ls.l[0].max_depth));
	ck_assert(isnan(ls.l[0].volume));
	ck_assert_int_eq(ls.l[0].outlet, -1);
	tp_lakestat_free(&ls);
	p.lake = bad;
	ck_assert_int_eq(tp_lakestat_build(&p, &ten, &ls, &e), -1);
	ck_assert_str_eq(e.msg, "lake: 0.5 at column 3, row 2 is not a lake id "
	    "(0, or 1 to the cell count)");
}
END_TEST

/* Ids need not be dense: lake 3 alone is one lake, id 3. */
START_TEST(test_sparse)
{
	float l[4] = { 0, 3, 3, 0 };
	tp_lakestat_planes p = { l, NULL, NULL, NULL, NULL, 2, 2, 2, 0 };
	tp_geo_grid geo = { .cellsize = 1, .north = 0 };
	tp_lakestats ls;
	tp_err e;

	ck_assert_int_eq(tp_lakestat_build(&p, &geo, &ls, &e), 0);
	ck_assert_int_eq(ls.n, 1);
	ck_assert_int_eq(ls.l[0].id, 3);
	ck_assert_double_eq(ls.l[0].area, 2);
	tp_lakestat_free(&ls);
}
END_TEST

static Suite *
lake_suite(void)
{
	Suite *s = suite_create("lakestat");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_id);
	tcase_add_test(core, test_check);
	tcase_add_test(core, test_build);
	tcase_add_test(core, test_no_bands);
	tcase_add_test(core, test_sparse);
	suite_add_tcase(s, core);
	return s;
}

int
main(void)
{
	return tp_test_run(lake_suite());
}
