/* check_d8.c - unit tests of tp_d8: offsets, distances, ESRI and GRASS
 * codes, each direction written out by hand. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "hydro/tp_d8.h"
#include "tp_test.h"

/* One row per direction k = 1..8: name, column and row step (rows run
 * north to south), ESRI code (ArcGIS Flow Direction: 1 east, doubling
 * clockwise) and GRASS r.watershed code (1 north-east, rising
 * counter-clockwise). */
static const struct {
	const char *name;
	int	dx, dy, esri, grass;
} dirs[9] = {
	{ "none", 0, 0, 0, 0 },
	{ "E", 1, 0, 1, 8 },
	{ "SE", 1, 1, 2, 7 },
	{ "S", 0, 1, 4, 6 },
	{ "SW", -1, 1, 8, 5 },
	{ "W", -1, 0, 16, 4 },
	{ "NW", -1, -1, 32, 3 },
	{ "N", 0, -1, 64, 2 },
	{ "NE", 1, -1, 128, 1 },
};

START_TEST(test_steps)
{
	int k = _i;

	ck_assert_msg(tp_d8_dx[k] == dirs[k].dx && tp_d8_dy[k] == dirs[k].dy,
	    "%s", dirs[k].name);
	/* the way back is the opposite step */
	ck_assert_int_eq(tp_d8_dx[tp_d8_back(k)], -dirs[k].dx);
	ck_assert_int_eq(tp_d8_dy[tp_d8_back(k)], -dirs[k].dy);
	ck_assert_int_eq(tp_d8_back(tp_d8_back(k)), k);
}
END_TEST

START_TEST(test_codes)
{
	int k = _i;

	ck_assert_int_eq(tp_d8_esri[k], dirs[k].esri);
	ck_assert_int_eq(tp_d8_grass[k], dirs[k].grass);
	/* and back: no other direction has the same code */
	for (int j = 1; j <= 8; j++)
		ck_assert(j == k || (tp_d8_esri[j] != dirs[k].esri &&
		    tp_d8_grass[j] != dirs[k].grass));
}
END_TEST

START_TEST(test_names)
{
	ck_assert_int_eq(TP_D8_E, 1);
	ck_assert_int_eq(TP_D8_S, 3);
	ck_assert_int_eq(TP_D8_NW, 6);
	ck_assert_int_eq(TP_D8_NE, 8);
	ck_assert_int_eq(tp_d8_back(TP_D8_E), TP_D8_W);
	ck_assert_int_eq(tp_d8_back(TP_D8_NE), TP_D8_SW);
}
END_TEST

/* Cells 30 m wide and 40 m high: 30, 40, or 50 m on a diagonal. */
START_TEST(test_dist)
{
	const double want[9] = { 0, 30, 50, 40, 50, 30, 50, 40, 50 };

	for (int k = 1; k <= 8; k++)
		ck_assert_double_eq_tol(tp_d8_dist(k, 30, 40), want[k], 1e-12);
	ck_assert_double_eq(tp_d8_dist(TP_D8_SE, 1, 1), sqrt(2.0));
}
END_TEST

/* In a plane of stride 10, the cell at index 55 is (5, 5); neighbour k is
 * at (5 + dx, 5 + dy). */
START_TEST(test_offsets)
{
	ptrdiff_t off[9];
	int64_t nx, ny;

	tp_d8_offsets(10, off);
	ck_assert_int_eq(off[0], 0);
	for (int k = 1; k <= 8; k++) {
		ck_assert_int_eq(55 + off[k],
		    (5 + dirs[k].dy) * 10 + 5 + dirs[k].dx);
		ck_assert(tp_d8_inside(5, 5, k, 10, 10, &nx, &ny));
		ck_assert_int_eq(nx, 5 + dirs[k].dx);
		ck_assert_int_eq(ny, 5 + dirs[k].dy);
	}
}
END_TEST

/* The corner (0, 0) of a 3 x 2 grid has E, SE and S inside only. */
START_TEST(test_inside_corner)
{
	int64_t nx, ny;
	int k, inside = 0;

	for (k = 1; k <= 8; k++)
		inside |= tp_d8_inside(0, 0, k, 3, 2, &nx, &ny) << k;
	ck_assert_int_eq(inside, 1 << TP_D8_E | 1 << TP_D8_SE | 1 << TP_D8_S);
	ck_assert(!tp_d8_inside(2, 1, TP_D8_E, 3, 2, &nx, &ny));
	ck_assert(tp_d8_inside(2, 1, TP_D8_NW, 3, 2, &nx, &ny));
}
END_TEST

/* The sea: finite and strictly below the level, decided in float exactly
 * as in double. 0.7 lies above its nearest float 0.69999999 (a height of
 * 0.7f is sea), 0.3 below its nearest float 0.30000001 (0.3f is land);
 * the level itself is land; -inf and NaN are never sea; no level
 * (-INFINITY) makes no sea, a level past the float range all finite
 * heights. */
START_TEST(test_sea)
{
	static const double levels[] = { 0.7, 0.3, 0, -0.0, 1, -2.5, 1e-45,
	    1e30, -1e30 };
	static const float heights[] = { 0.7f, 0.3f, 0.0f, -0.0f, 1, -2.5f,
	    1e-45f, 0.69999999f, 0.30000001f, 1e30f, -1e30f, 3e38f, -3e38f,
	    1.4e-45f };
	size_t i, j;
	float below;

	for (i = 0; i < sizeof levels / sizeof levels[0]; i++) {
		below = tp_d8_sea_below(levels[i]);
		for (j = 0; j < sizeof heights / sizeof heights[0]; j++)
			ck_assert_msg(tp_d8_is_sea(heights[j], below) ==
			    ((double)heights[j] < levels[i]),
			    "height %.9g, level %.17g", heights[j], levels[i]);
		ck_assert(!tp_d8_is_sea(-INFINITY, below));
		ck_assert(!tp_d8_is_sea(NAN, below));
		ck_assert(!tp_d8_is_sea(INFINITY, below));
	}
	ck_assert(tp_d8_is_sea(0.7f, tp_d8_sea_below(0.7)));
	ck_assert(!tp_d8_is_sea(0.3f, tp_d8_sea_below(0.3)));
	ck_assert(tp_d8_sea_below(-INFINITY) == -INFINITY);
	ck_assert(!tp_d8_is_sea(-3.4e38f, tp_d8_sea_below(-INFINITY)));
	ck_assert(tp_d8_is_sea(3.4e38f, tp_d8_sea_below(1e300)));
	ck_assert(tp_d8_is_sea(-3.4e38f, tp_d8_sea_below(-1e38)));
	ck_assert(!tp_d8_is_sea(-3.4e38f, tp_d8_sea_below(-1e300)));
	ck_assert(tp_d8_sea_below(-1e300) == -FLT_MAX);
}
END_TEST

static Suite *
d8_suite(void)
{
	Suite *s = suite_create("d8");
	TCase *core = tcase_create("core");

	tcase_add_loop_test(core, test_steps, 1, 9);
	tcase_add_loop_test(core, test_codes, 1, 9);
	tcase_add_test(core, test_names);
	tcase_add_test(core, test_dist);
	tcase_add_test(core, test_offsets);
	tcase_add_test(core, test_inside_corner);
	tcase_add_test(core, test_sea);
	suite_add_tcase(s, core);
	return s;
}

int
main(void)
{
	return tp_test_run(d8_suite());
}
