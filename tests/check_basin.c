/* check_basin.c - unit tests of tp_basin: labels by outlet on hand-drawn
 * grids, --min-basin merging, one cell's watershed, snapping, limits. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_basin.h"
#include "hydro/tp_d8.h"
#include "hydro/tp_fill.h"
#include "hydro/tp_flow.h"
#include "tp_test.h"

/*
 * A hand-drawn direction grid, one string per row: '1'..'8' flow to
 * neighbour k (1 E, 2 SE, 3 S, 4 SW, 5 W, 6 NW, 7 N, 8 NE), 'A'..'H' an
 * outlet leaving through neighbour 1..8, 'x' a sink, '~' sea, '.' nodata.
 */
enum { MAXC = 64 };

static int
draw(const char *const *rows, int h, uint8_t *dir)
{
	int w = (int)strlen(rows[0]), x, y;
	char c;

	ck_assert_int_le(w * h, MAXC);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			c = rows[y][x];
			dir[y * w + x] = c >= '1' && c <= '8' ?
			    (uint8_t)(c - '0') : c >= 'A' && c <= 'H' ?
			    (uint8_t)(TP_D8_OUT | (c - 'A' + 1)) :
			    c == '.' ? TP_D8_NODATA : c == '~' ? TP_D8_SEA :
			    TP_D8_SINK;
		}
	return w;
}

/* got equals want cell for cell, NaN where want is -1. */
static void
same(const float *got, const float *want, int n)
{
	for (int i = 0; i < n; i++) {
		if (want[i] < 0)
			ck_assert_msg(isnan(got[i]), "cell %d: %g, not NaN", i,
			    got[i]);
		else
			ck_assert_msg(got[i] == want[i], "cell %d: %g, not %g",
			    i, got[i], want[i]);
	}
}

/* Labels of the hand-drawn grid g (h rows) with min_cells. */
static void
label(const char *const *g, int h, int64_t min_cells, float *out,
    tp_basin_stats *st)
{
	uint8_t dir[MAXC];
	int w = draw(g, h, dir);
	tp_err e;

	ck_assert_int_eq(tp_basins(dir, w, h, min_cells, out, (size_t)w, st,
	    &e), 0);
}

/* Three outlets: off the west edge at (0, 0), off the east edge at
 * (4, 0), off the south edge at (2, 2); labels 1, 2, 3 in the outlets'
 * row-major order, whatever the basins' sizes. */
START_TEST(test_three_outlets)
{
	static const char *const g[] = { "E531A", "76387", "71C5." };
	static const float want[] = { 1, 1, 3, 2, 2,  1, 1, 3, 2, 2,
	    1, 3, 3, 3, -1 };
	tp_basin_stats st;
	float got[15];

	label(g, 3, 0, got, &st);
	same(got, want, 15);
	ck_assert_int_eq(st.outlets, 3);
	ck_assert_int_eq(st.kept, 3);
	ck_assert_int_eq(st.merged, 0);
}
END_TEST

/*
 * Every kind of outlet: off the grid ((0, 0), (5, 0), (0, 2)), a sink
 * ((3, 1)) and a land cell draining into the sea ((4, 1) into (5, 1)).
 * Sea cells are 0 and no outlet; nodata is NaN. Basin sizes in outlet
 * order: 5, 3, 2, 1, 4 cells.
 */
static const char *const mixed[] = { "E5511A", "773x1~", "E557.~" };

START_TEST(test_every_outlet)
{
	static const float want[] = { 1, 1, 1, 2, 2, 2,  1, 1, 5, 3, 4, 0,
	    5, 5, 5, 3, -1, 0 };
	tp_basin_stats st;
	float got[18];

	label(mixed, 3, 1, got, &st);
	same(got, want, 18);
	ck_assert_int_eq(st.outlets, 5);
	ck_assert_int_eq(st.kept, 5);
}
END_TEST

/* --min-basin 3: the basins of 2 and 1 cells merge into 0, the rest are
 * numbered again 1, 2, 3 in outlet order. */
START_TEST(test_min_basin)
{
	static const float want[] = { 1, 1, 1, 2, 2, 2,  1, 1, 3, 0, 0, 0,
	    3, 3, 3, 0, -1, 0 };
	static const float all0[] = { 0, 0, 0, 0, 0, 0,  0, 0, 0, 0, 0, 0,
	    0, 0, 0, 0, -1, 0 };
	tp_basin_stats st;
	float got[18];

	label(mixed, 3, 3, got, &st);
	same(got, want, 18);
	ck_assert_int_eq(st.outlets, 5);
	ck_assert_int_eq(st.kept, 3);
	ck_assert_int_eq(st.merged, 3);
	label(mixed, 3, 6, got, &st);		/* larger than any */
	same(got, all0, 18);
	ck_assert_int_eq(st.kept, 0);
	ck_assert_int_eq(st.merged, 15);
}
END_TEST

/* The watershed of one cell: the cells whose water passes through it. */
START_TEST(test_watershed)
{
	static const float w10[] = { 0, 1, 1, 0, 0, 0,  0, 1, 0, 0, 0, 0,
	    0, 0, 0, 0, -1, 0 };
	static const float w31[] = { 0, 0, 0, 0, 0, 0,  0, 0, 0, 1, 0, 0,
	    0, 0, 0, 1, -1, 0 };
	uint8_t dir[MAXC];
	int w = draw(mixed, 3, dir);
	int64_t cells;
	float got[18];
	tp_err e;

	ck_assert_int_eq(tp_basin_watershed(dir, w, 3, 1, 0, got, 6, &cells,
	    &e), 0);
	same(got, w10, 18);
	ck_assert_int_eq(cells, 3);
	ck_assert_int_eq(tp_basin_watershed(dir, w, 3, 3, 1, got, 6, &cells,
	    &e), 0);
	same(got, w31, 18);
	ck_assert_int_eq(cells, 2);
	ck_assert_int_eq(tp_basin_watershed(dir, w, 3, 5, 1, got, 6, NULL,
	    &e), -1);
	ck_assert_str_eq(e.msg, "outlet (5, 1) is not on land");
	ck_assert_int_eq(tp_basin_watershed(dir, w, 3, 4, 2, got, 6, NULL,
	    &e), -1);
	ck_assert_str_eq(e.msg, "outlet (4, 2) is not on land");
	ck_assert_int_eq(tp_basin_watershed(dir, w, 3, 6, 0, got, 6, NULL,
	    &e), -1);
	ck_assert_str_eq(e.msg, "outlet (6, 0) off the 6x3 grid");
}
END_TEST

/* The cell of a world point on a 5 x 3 grid of cell size 1 whose north-
 * west corner is (0, 3): x 4.9 is column 4, y 0.1 row 2; x 5 is off the
 * grid (the east edge belongs to no cell). */
START_TEST(test_cell)
{
	tp_header h;
	int64_t cx = -1, cy = -1;
	tp_err e;

	ck_assert_int_eq(tp_header_init(&h, 5, 3, &e), 0);
	h.cellsize = 1;
	h.origin_x = 0;
	h.origin_y = 3;
	ck_assert_int_eq(tp_basin_cell(&h, 4.9, 0.1, &cx, &cy, &e), 0);
	ck_assert_int_eq(cx, 4);
	ck_assert_int_eq(cy, 2);
	ck_assert_int_eq(tp_basin_cell(&h, 0, 3, &cx, &cy, &e), 0);
	ck_assert_int_eq(cx, 0);
	ck_assert_int_eq(cy, 0);
	ck_assert_int_eq(tp_basin_cell(&h, 5, 2, &cx, &cy, &e), -1);
	ck_assert_str_eq(e.msg, "5,2 lies outside the grid: x 0 to 5, y 0 to 3");
	ck_assert_int_eq(tp_basin_cell(&h, 1, 3.5, &cx, &cy, &e), -1);
	tp_header_free(&h);
}
END_TEST

/* Snapping: the highest flow on land in a disc; ties to the first in
 * row-major order; the sea and nodata never. */
START_TEST(test_snap)
{
	static const float flow[18] = { 1, 50, 1, 1, 1, 1,  1, 1, 7, 7, 3, 100,
	    1, 1, 1, 1, NAN, 1 };
	uint8_t dir[MAXC];
	int w = draw(mixed, 3, dir);
	int64_t x, y;

#define SNAP(cx, cy, r, wx, wy)						\
	do {								\
		ck_assert_int_eq(tp_basin_snap(flow, dir, w, 3, 6, cx, cy,\
		    r, &x, &y), 0);					\
		ck_assert_msg(x == (wx) && y == (wy), "snap (%d, %d) r %d:"\
		    " (%lld, %lld)", cx, cy, r, (long long)x, (long long)y);\
	} while (0)
	SNAP(4, 1, 1, 3, 1);		/* not the sea's 100 */
	SNAP(3, 2, 1, 3, 1);
	SNAP(2, 1, 1, 2, 1);		/* 7 and 7: the first */
	SNAP(0, 1, 1, 0, 0);		/* (1, 0) is a diagonal: outside r 1 */
	SNAP(0, 1, 2, 1, 0);		/* inside r 2 */
	SNAP(2, 2, 0, 2, 2);		/* r 0: the cell itself */
	SNAP(0, 0, 100, 1, 0);		/* a disc past the grid */
#undef SNAP
	ck_assert_int_eq(tp_basin_snap(flow, dir, w, 3, 6, 5, 1, 0, &x, &y),
	    -1);
	ck_assert_int_eq(tp_basin_snap(flow, dir, w, 3, 6, 4, 2, 0, &x, &y),
	    -1);
}
END_TEST

/* Random terrain with nodata and a sea, planes three bands wide: every
 * land cell has its downstream land cell's label; outlets, met in
 * row-major order, are 1, 2, 3, ... and each labels its own basin. */
START_TEST(test_random)
{
	enum { S = 65 };
	static float z[S * S], lab[3 * S * S];
	static uint8_t dir[S * S];
	static const tp_geo_grid unit = { 1, 0, 0 };
	tp_fill_opts fo = { TP_FILL_NEXT, 0 };
	tp_basin_stats st;
	uint64_t seed = 5;
	int t, i, next, sea, land;
	float l;
	uint8_t d;
	tp_err e;

	for (t = 0; t < 8; t++) {
		tp_test_fractal(z, S, &seed, 0.6f);
		for (i = 0; i < 30 * (t % 2); i++)
			z[tp_test_rnd(&seed) % (S * S)] = NAN;
		ck_assert_int_eq(tp_fill_pf(z, S, S, S, &fo, NULL, &e), 0);
		ck_assert_int_eq(tp_flow_d8_sea(z, S, S, S, &unit, t < 4 ?
		    -INFINITY : 0.0, 1, dir, NULL, &e), 0);
		ck_assert_int_eq(tp_basins(dir, S, S, 0, lab, 3 * S, &st, &e),
		    0);
		for (i = 0, next = 1, sea = 0, land = 0; i < S * S; i++) {
			l = lab[i / S * 3 * S + i % S];
			d = dir[i];
			if (d == TP_D8_NODATA) {
				ck_assert(isnan(l));
				continue;
			}
			if (d == TP_D8_SEA) {
				ck_assert(l == 0);
				sea++;
				continue;
			}
			land++;
			if (d >= 1 && d <= 8 && dir[i + tp_d8_dy[d] * S +
			    tp_d8_dx[d]] != TP_D8_SEA) {
				int j = i + tp_d8_dy[d] * S + tp_d8_dx[d];
				ck_assert(l == lab[j / S * 3 * S + j % S]);
			} else {
				ck_assert_msg(l == next, "outlet %d: %g", next,
				    l);
				next++;
			}
		}
		ck_assert_int_eq(st.outlets, next - 1);
		ck_assert_int_eq(st.kept, next - 1);
		ck_assert(land > 0 && (t < 4 ? sea == 0 : sea > 0));
	}
}
END_TEST

/* More basins than a float32 numbers exactly: 4097 x 4097 sinks, each
 * its own basin; merging them all is fine. */
START_TEST(test_too_many)
{
	enum { N = 4097 };
	uint8_t *dir = calloc((size_t)N * N, 1);
	float *lab = malloc((size_t)N * N * sizeof *lab);
	tp_basin_stats st;
	tp_err e;

	ck_assert(dir != NULL && lab != NULL);
	ck_assert_int_eq(tp_basins(dir, N, N, 0, lab, N, &st, &e), -1);
	ck_assert_str_eq(e.msg, "16785409 basins, more than a float32 numbers "
	    "exactly (16777216)");
	ck_assert_int_eq(tp_basins(dir, N, N, 2, lab, N, &st, &e), 0);
	ck_assert_int_eq(st.kept, 0);
	ck_assert_int_eq(st.merged, (int64_t)N * N);
	ck_assert(lab[12345] == 0);
	free(dir);
	free(lab);
}
END_TEST

START_TEST(test_errors)
{
	uint8_t dir[1] = { 0 };
	float v[1];
	tp_err e;

	ck_assert_int_eq(tp_basins(dir, 1, 0, 0, v, 1, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "bad plane 1x0, stride 1");
	ck_assert_int_eq(tp_basins(NULL, INT64_C(1) << 30, 4, 0, NULL,
	    (size_t)1 << 30, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "basins: 1073741824x4 is 2^32 cells or more");
	ck_assert_int_eq(tp_basin_watershed(dir, 1, 1, 0, 0, v, 0, NULL, &e),
	    -1);
	ck_assert_str_eq(e.msg, "bad plane 1x1, stride 0");
}
END_TEST

static Suite *
basin_suite(void)
{
	Suite *s = suite_create("basin");
	TCase *core = tcase_create("core"), *lim = tcase_create("limits"),
	    *err = tcase_create("errors");

	tcase_add_test(core, test_three_outlets);
	tcase_add_test(core, test_every_outlet);
	tcase_add_test(core, test_min_basin);
	tcase_add_test(core, test_watershed);
	tcase_add_test(core, test_snap);
	tcase_add_test(core, test_cell);
	tcase_add_test(core, test_random);
	tcase_set_timeout(core, 60);
	tcase_add_test(lim, test_too_many);
	tcase_set_timeout(lim, 120);
	tcase_add_test(err, test_errors);
	suite_add_tcase(s, core);
	suite_add_tcase(s, lim);
	suite_add_tcase(s, err);
	return s;
}

int
main(void)
{
	return tp_test_run(basin_suite());
}
