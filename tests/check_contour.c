/* check_contour.c - unit tests of tp_contour. By hand: a peak, saddles
 * both ways, NaN, levels, with points worked out by hand. Fed row by row
 * (test_stream_*), against a brute-force checker: heights are whole
 * numbers and levels half-way between, so no corner sits on a level and
 * no point is merged: then the points of each level are exactly the
 * crossings of the sides next to a square with four values, each once (a
 * ring's first point repeated last); consecutive points lie on one
 * square, the higher end of each side on the left; open lines end on
 * sides with one such square; lines come by level, open before closed,
 * by first side (a ring's least). Grids: random with NaN holes, one row,
 * one column, a cone. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vector/tp_contour.h"
#include "tp_test.h"

/* Cell (x, y) of a grid with origin (0, h) and cell size 1 has its centre
 * at (x + 0.5, h - y - 0.5). */

/* A peak of 1 in a 3 x 3 field of 0: at 0.5 one closed ring through the
 * four midpoints, counter-clockwise (higher ground, inside, on the left). */
START_TEST(test_peak)
{
	float z[9] = { 0, 0, 0, 0, 1, 0, 0, 0, 0 };
	tp_contours c;
	double a = 0;
	size_t i;

	ck_assert_int_eq(tp_contour_run(z, 3, 3, 3, 0.5, 1, 0, 3, 1, &c,
	    NULL), 0);
	ck_assert_int_eq(c.n, 1);
	ck_assert_int_eq(c.line[0].closed, 1);
	ck_assert_int_eq(c.line[0].npts, 5);
	ck_assert_double_eq(c.line[0].level, 0.5);
	for (i = 0; i < 4; i++) {
		double x = c.xy[2 * i], y = c.xy[2 * i + 1];

		/* a midpoint between the centre (1.5, 1.5) and a side */
		ck_assert_double_eq(fabs(x - 1.5) + fabs(y - 1.5), 0.5);
		a += x * c.xy[2 * i + 3] - c.xy[2 * i + 2] * y;
	}
	ck_assert_double_eq(c.xy[0], c.xy[8]);
	ck_assert_double_eq(c.xy[1], c.xy[9]);
	ck_assert(a > 0);
	tp_contour_free(&c);
}
END_TEST

/* A saddle: 1 0 / 0 1. The mean (0.5) is at or above 0.5: the high
 * corners are joined, two lines cut off the low ones. At 0.6 (mean below)
 * the two lines cut off the high corners instead. */
START_TEST(test_saddle)
{
	float z[4] = { 1, 0, 0, 1 };
	tp_contours c;

	ck_assert_int_eq(tp_contour_run(z, 2, 2, 2, 0.5, 10, 0, 2, 1, &c,
	    NULL), 0);
	ck_assert_int_eq(c.n, 2);
	/* the low corner south-west, (0.5, 0.5), is cut off by the line
	 * from the left side's midpoint (0.5, 1) to the bottom's (1, 0.5),
	 * the high centre on its left; the second cuts off the north-east */
	ck_assert_int_eq(c.line[0].npts, 2);
	ck_assert_int_eq(c.line[0].closed, 0);
	ck_assert_double_eq(c.xy[0], 0.5);
	ck_assert_double_eq(c.xy[1], 1.0);
	ck_assert_double_eq(c.xy[2], 1.0);
	ck_assert_double_eq(c.xy[3], 0.5);
	ck_assert_double_eq(c.xy[4], 1.5);
	ck_assert_double_eq(c.xy[5], 1.0);
	tp_contour_free(&c);
	ck_assert_int_eq(tp_contour_run(z, 2, 2, 2, 0.6, 10, 0, 2, 1, &c,
	    NULL), 0);
	ck_assert_int_eq(c.n, 2);
	/* now the high north-west corner is cut off: on the left side 0.4
	 * below it, on the top side 0.4 east of it */
	ck_assert_double_eq_tol(c.xy[0], 0.5, 1e-12);
	ck_assert_double_eq_tol(c.xy[1], 1.1, 1e-12);
	ck_assert_double_eq_tol(c.xy[2], 0.9, 1e-12);
	ck_assert_double_eq_tol(c.xy[3], 1.5, 1e-12);
	tp_contour_free(&c);
}
END_TEST

/* Levels base + k interval inside (min, max]: a ramp 0..4 in a row pair
 * crosses 1, 2, 3 and 4 (4 is the top corner itself: a line through it). */
START_TEST(test_levels)
{
	float z[10] = { 0, 1.5f, 2, 3.5f, 4, 0, 1.5f, 2, 3.5f, 4 };
	tp_contours c;
	size_t i;

	ck_assert_int_eq(tp_contour_run(z, 5, 2, 5, 0, 1, 0, 2, 1, &c, NULL),
	    0);
	ck_assert_int_eq(c.n, 4);
	for (i = 0; i < 4; i++) {
		ck_assert_double_eq(c.line[i].level, (double)(i + 1));
		ck_assert_int_eq(c.line[i].npts, 2);
		/* vertical lines: both points at the same x */
		ck_assert_double_eq(c.xy[2 * c.line[i].pt0],
		    c.xy[2 * c.line[i].pt0 + 2]);
	}
	/* level 1 crosses 0 .. 1.5 at 2/3 of the way from x 0.5 */
	ck_assert_double_eq_tol(c.xy[0], 0.5 + 2.0 / 3, 1e-12);
	tp_contour_free(&c);
	ck_assert_int_eq(tp_contour_run(z, 5, 2, 5, 0.25, 2, 0, 2, 1, &c,
	    NULL), 0);
	ck_assert_int_eq(c.n, 2);		/* 0.25 and 2.25 */
	ck_assert_double_eq(c.line[0].level, 0.25);
	ck_assert_double_eq(c.line[1].level, 2.25);
	tp_contour_free(&c);
}
END_TEST

/* NaN ends lines: the peak with its south-east cell NaN leaves one open
 * line around the three squares that have no NaN corner. */
START_TEST(test_nan)
{
	float z[9] = { 0, 0, 0, 0, 1, 0, 0, 0, NAN };
	tp_contours c;

	ck_assert_int_eq(tp_contour_run(z, 3, 3, 3, 0.5, 1, 0, 3, 1, &c,
	    NULL), 0);
	ck_assert_int_eq(c.n, 1);
	ck_assert_int_eq(c.line[0].closed, 0);
	ck_assert_int_eq(c.line[0].npts, 4);
	tp_contour_free(&c);
}
END_TEST

START_TEST(test_errors)
{
	float z[4] = { 0, 1e9f, 0, 0 }, inf[4] = { 0, INFINITY, 0, 0 };
	tp_contours c;
	tp_err e;

	ck_assert_int_eq(tp_contour_run(z, 2, 2, 2, 0, 1, 0, 2, 1, &c, &e),
	    -1);
	ck_assert_str_eq(e.msg, "contours: an interval of 1 gives more than "
	    "100000 levels between 0 and 1e+09");
	ck_assert_int_eq(tp_contour_run(inf, 2, 2, 2, 0, 1, 0, 2, 1, &c, &e),
	    -1);
	ck_assert_str_eq(e.msg, "contours: infinite value at column 1, row 0");
	/* a flat grid has no contours */
	ck_assert_int_eq(tp_contour_run(z + 2, 2, 1, 2, 0, 1, 0, 1, 1, &c,
	    &e), 0);
	ck_assert_int_eq(c.n, 0);
	tp_contour_free(&c);
}
END_TEST

/* The grid: origin (0, h), cell size 1, so cell (x, y)'s centre is
 * (x + 0.5, h - y - 0.5) and grid coordinates are (px - 0.5, h - py -
 * 0.5). */
typedef struct grid {
	const float *z;
	int64_t	w, h;
	double	base, interval;
} grid;

typedef struct xpt {
	double	x, y;
} xpt;

static double
zat(const grid *g, int64_t x, int64_t y)
{
	if (x < 0 || y < 0 || x >= g->w || y >= g->h)
		return NAN;
	return g->z[y * g->w + x];
}

/* Square (x, y) (north-west cell) has four values. */
static int
square_ok(const grid *g, int64_t x, int64_t y)
{
	return !isnan(zat(g, x, y) + zat(g, x + 1, y) + zat(g, x, y + 1) +
	    zat(g, x + 1, y + 1));
}

/* The side a point is on: cell (*cx, *cy), south or east of it. */
static void
side_of(const grid *g, double px, double py, int64_t *cx, int64_t *cy,
    int *south)
{
	double gx = px - 0.5, gy = (double)g->h - py - 0.5;

	*south = gx == floor(gx);
	ck_assert(*south != (gy == floor(gy)));
	*cx = (int64_t)floor(gx);
	*cy = (int64_t)floor(gy);
}

static int64_t
side_id(const grid *g, int64_t cx, int64_t cy, int south)
{
	return 2 * (cy * g->w + cx) + south;
}

/* The squares beside a side: two, or fewer at the border. */
static int
squares_beside(const grid *g, int64_t cx, int64_t cy, int south)
{
	return south ? square_ok(g, cx - 1, cy) + square_ok(g, cx, cy) :
	    square_ok(g, cx, cy - 1) + square_ok(g, cx, cy);
}

static int
cmp_xpt(const void *pa, const void *pb)
{
	const xpt *a = pa, *b = pb;

	if (a->x != b->x)
		return a->x < b->x ? -1 : 1;
	return (a->y > b->y) - (a->y < b->y);
}

/* The crossings of level lev by brute force, as tp_contour computes a
 * point, into p; returns their number. */
static size_t
crossings(const grid *g, double lev, xpt *p)
{
	int64_t x, y;
	size_t n = 0;
	int south;

	for (y = 0; y < g->h; y++)
		for (x = 0; x < g->w; x++)
			for (south = 0; south < 2; south++) {
				double za = zat(g, x, y), zb = south ?
				    zat(g, x, y + 1) : zat(g, x + 1, y), t, gx,
				    gy;

				if (isnan(za + zb) || (za >= lev) == (zb >= lev) ||
				    squares_beside(g, x, y, south) == 0)
					continue;
				t = (lev - za) / (zb - za);
				gx = (double)x + (south ? 0 : t);
				gy = (double)y + (south ? t : 0);
				p[n].x = 0 + (gx + 0.5) * 1;
				p[n++].y = (double)g->h - (gy + 0.5) * 1;
			}
	return n;
}

/* Segment a -> b: on one square, the higher end of each side left. */
static void
check_segment(const grid *g, xpt a, xpt b, double lev)
{
	xpt p[2] = { a, b };
	int64_t cx, cy, sx[2][2], sy[2][2];
	int s, k, n[2], south, ok = 0, i, j;

	for (k = 0; k < 2; k++) {
		side_of(g, p[k].x, p[k].y, &cx, &cy, &south);
		/* the squares beside the side, and the side's ends */
		n[k] = 0;
		for (s = 0; s < 2; s++) {
			int64_t qx = south ? cx - 1 + s : cx;
			int64_t qy = south ? cy : cy - 1 + s;

			if (square_ok(g, qx, qy)) {
				sx[k][n[k]] = qx;
				sy[k][n[k]++] = qy;
			}
		}
		{
			int64_t hx = cx, hy = cy;
			double zh = zat(g, cx, cy), zo = south ?
			    zat(g, cx, cy + 1) : zat(g, cx + 1, cy);
			double ex, ey, cross;

			if (zo >= lev && !(zh >= lev)) {
				hx += !south;
				hy += south;
			}
			/* the higher end, in world coordinates */
			ex = (double)hx + 0.5;
			ey = (double)g->h - (double)hy - 0.5;
			cross = (b.x - a.x) * (ey - a.y) - (b.y - a.y) *
			    (ex - a.x);
			ck_assert(cross > 0);
		}
	}
	for (i = 0; i < n[0]; i++)
		for (j = 0; j < n[1]; j++)
			ok |= sx[0][i] == sx[1][j] && sy[0][i] == sy[1][j];
	ck_assert(ok);
}

static int64_t
line_key(const grid *g, const tp_contours *c, size_t i)
{
	const tp_contour_line *l = &c->line[i];
	int64_t cx, cy, key = INT64_MAX, s;
	size_t p;
	int south;

	for (p = 0; p < (l->closed ? l->npts : 1); p++) {
		side_of(g, c->xy[2 * (l->pt0 + p)], c->xy[2 * (l->pt0 + p) + 1],
		    &cx, &cy, &south);
		s = side_id(g, cx, cy, south);
		if (s < key)
			key = s;
	}
	if (l->closed) {
		/* a ring starts at its least side */
		side_of(g, c->xy[2 * l->pt0], c->xy[2 * l->pt0 + 1], &cx, &cy,
		    &south);
		ck_assert_int_eq(side_id(g, cx, cy, south), key);
	}
	return key;
}

/* An open line's end: on a side with one square beside it. */
static void
check_end(const grid *g, double px, double py)
{
	int64_t cx, cy;
	int south;

	side_of(g, px, py, &cx, &cy, &south);
	ck_assert_int_eq(squares_beside(g, cx, cy, south), 1);
}

static void
same_contours(const tp_contours *a, const tp_contours *b)
{
	size_t i;

	ck_assert_uint_eq(a->n, b->n);
	ck_assert_uint_eq(a->npts, b->npts);
	for (i = 0; i < a->n; i++) {
		ck_assert(a->line[i].level == b->line[i].level);
		ck_assert_int_eq(a->line[i].closed, b->line[i].closed);
		ck_assert_uint_eq(a->line[i].pt0, b->line[i].pt0);
		ck_assert_uint_eq(a->line[i].npts, b->line[i].npts);
	}
	ck_assert(a->npts == 0 || memcmp(a->xy, b->xy, a->npts * 2 *
	    sizeof *a->xy) == 0);
}

/* Contour z row by row at base + k interval and check it all. */
static void
check_grid(const float *z, int64_t w, int64_t h, double base,
    double interval)
{
	grid g = { z, w, h, base, interval };
	tp_contour_stream *s;
	tp_contours c, whole;
	xpt *want = malloc((size_t)(2 * w * h + 1) * sizeof *want);
	xpt *got = malloc((size_t)(2 * w * h + 1) * sizeof *got);
	size_t i = 0, j, p, nw, ng;
	int64_t y, key, prev_key = INT64_MIN;

	ck_assert(want != NULL && got != NULL);
	ck_assert_int_eq(tp_contour_stream_new(&s, w, h, base, interval, 0,
	    (double)h, 1, NULL), 0);
	for (y = 0; y < h; y++)
		ck_assert_int_eq(tp_contour_stream_row(s, z + y * w, NULL), 0);
	ck_assert_int_eq(tp_contour_stream_end(s, &c, NULL), 0);
	tp_contour_stream_free(s);
	ck_assert_int_eq(tp_contour_run(z, w, h, (size_t)w, base, interval,
	    0, (double)h, 1, &whole, NULL), 0);
	same_contours(&c, &whole);
	tp_contour_free(&whole);
	while (i < c.n) {
		double lev = c.line[i].level;

		ng = 0;
		for (j = i; j < c.n && c.line[j].level == lev; j++) {
			const tp_contour_line *l = &c.line[j];
			const double *xy = c.xy + 2 * l->pt0;

			ck_assert_uint_ge(l->npts, 2);
			/* by level, open before closed, by first side */
			key = line_key(&g, &c, j);
			if (j > i && c.line[j - 1].closed == l->closed)
				ck_assert_int_gt(key, prev_key);
			if (j > i)
				ck_assert_int_le(c.line[j - 1].closed,
				    l->closed);
			prev_key = key;
			for (p = 0; p + 1 < l->npts; p++)
				check_segment(&g, (xpt){ xy[2 * p],
				    xy[2 * p + 1] }, (xpt){ xy[2 * p + 2],
				    xy[2 * p + 3] }, lev);
			if (l->closed) {
				ck_assert(xy[0] == xy[2 * l->npts - 2] &&
				    xy[1] == xy[2 * l->npts - 1]);
			} else {
				check_end(&g, xy[0], xy[1]);
				check_end(&g, xy[2 * l->npts - 2],
				    xy[2 * l->npts - 1]);
			}
			for (p = 0; p < l->npts - (size_t)l->closed; p++)
				got[ng++] = (xpt){ xy[2 * p], xy[2 * p + 1] };
		}
		if (i > 0)
			ck_assert(c.line[i - 1].level < lev);
		nw = crossings(&g, lev, want);
		ck_assert_uint_eq(ng, nw);
		qsort(want, nw, sizeof *want, cmp_xpt);
		qsort(got, ng, sizeof *got, cmp_xpt);
		for (p = 0; p < nw; p++)
			ck_assert(want[p].x == got[p].x &&
			    want[p].y == got[p].y);
		i = j;
	}
	/* no level left out: each crossed level has lines */
	for (y = (int64_t)floor(-base / interval) - 1; y < 12; y++) {
		double lev = base + (double)y * interval;

		for (j = 0; j < c.n && c.line[j].level != lev; j++)
			;
		ck_assert_uint_eq(j < c.n ? 1 : 0, crossings(&g, lev, want) >
		    0 ? 1 : 0);
	}
	tp_contour_free(&c);
	free(want);
	free(got);
}

/* Whole numbers 0 .. 9, some NaN, in a w x h grid. */
static float *
some_heights(int64_t w, int64_t h, uint64_t s, int nan)
{
	float *z = malloc((size_t)(w * h) * sizeof *z);
	int64_t k;

	ck_assert_ptr_nonnull(z);
	for (k = 0; k < w * h; k++) {
		uint64_t v = tp_test_rnd(&s) % 10;

		z[k] = nan && tp_test_rnd(&s) % 9 == 0 ? NAN : (float)v;
	}
	return z;
}

START_TEST(test_stream_random)
{
	uint64_t s = 0x9e3779b97f4a7c15ull ^ (uint64_t)_i;
	int64_t w = 1 + (int64_t)(tp_test_rnd(&s) % 25);
	int64_t h = 1 + (int64_t)(tp_test_rnd(&s) % 25);
	float *z = some_heights(w, h, s, _i % 2);

	check_grid(z, w, h, 0.5, 1);
	check_grid(z, w, h, 0.5, 3);
	free(z);
}
END_TEST

START_TEST(test_stream_thin)
{
	float *z = some_heights(13, 1, 5, 1);

	check_grid(z, 13, 1, 0.5, 1);
	check_grid(z, 1, 13, 0.5, 1);
	check_grid(z, 1, 1, 0.5, 1);
	free(z);
}
END_TEST

/* A cone of whole heights with a NaN hole beside its peak. */
START_TEST(test_stream_cone)
{
	float z[21 * 17];
	int64_t x, y;

	for (y = 0; y < 17; y++)
		for (x = 0; x < 21; x++)
			z[y * 21 + x] = (x >= 13 && x <= 14 && y >= 7 &&
			    y <= 9) ? NAN : (float)(10 - (int)lround(sqrt(
			    (double)((x - 10) * (x - 10) + (y - 8) *
			    (y - 8)))));
	check_grid(z, 21, 17, 0.5, 1);
	check_grid(z, 21, 17, -0.5, 2);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("contour");
	TCase *core = tcase_create("core");
	TCase *stream = tcase_create("stream");

	tcase_add_test(core, test_peak);
	tcase_add_test(core, test_saddle);
	tcase_add_test(core, test_levels);
	tcase_add_test(core, test_nan);
	tcase_add_test(core, test_errors);
	tcase_add_loop_test(stream, test_stream_random, 0, 60);
	tcase_add_test(stream, test_stream_thin);
	tcase_add_test(stream, test_stream_cone);
	suite_add_tcase(s, core);
	suite_add_tcase(s, stream);
	return tp_test_run(s);
}
