/* check_trace.c - unit tests of tp_trace. By hand: polygons of label
 * grids, areas and orientations counted by hand. Fed row by row
 * (test_stream_*), against a brute-force checker: components by flood
 * fill, every directed label edge used once, each ring's edges with a
 * cell of its polygon's component on the left and another label (or
 * nothing) on the right, rings starting at their first vertex in
 * row-major order and turning at every point, polygons in the order of
 * (label, first cell), areas equal to the components' cells, outlets
 * equal to a scan for the first cell of most flow. Grids: a
 * checkerboard, nested rings, corners touching, NaN holes, one row, one
 * column, random labels. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vector/tp_trace.h"
#include "tp_test.h"

/* Every ring of every region: closed, simple (no vertex twice), exterior
 * counter-clockwise first, holes clockwise; the areas add up to the
 * region's cells. Returns the regions' cells together. */
static int64_t
check_rings(const tp_trace_regions *rs)
{
	int64_t total = 0;
	size_t k, p, r, q, i, j, pt;

	for (k = 0; k < rs->n; k++) {
		const tp_trace_region *g = &rs->reg[k];
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
	tp_trace_regions rs;
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
	tp_trace_regions rs;

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
	tp_trace_regions rs;

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
	tp_trace_regions rs;

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
	tp_trace_regions rs;
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

typedef struct ref {
	const float *lab;
	int64_t	w, h;
	int64_t	*comp;		/* per cell, -1 on NaN */
	int64_t	*size, *first;	/* per component */
	int64_t	ncomp;
} ref;

static float
lab_at(const ref *r, int64_t x, int64_t y)
{
	if (x < 0 || y < 0 || x >= r->w || y >= r->h)
		return NAN;
	return r->lab[y * r->w + x];
}

static int64_t
comp_at(const ref *r, int64_t x, int64_t y)
{
	if (x < 0 || y < 0 || x >= r->w || y >= r->h)
		return -1;
	return r->comp[y * r->w + x];
}

/* 4-connected components of equal label, by flood fill. */
static void
flood(ref *r)
{
	int64_t n = r->w * r->h, c, top, *stack = malloc((size_t)(n + 1) *
	    sizeof *stack);
	static const int dx[4] = { 1, -1, 0, 0 }, dy[4] = { 0, 0, 1, -1 };

	r->comp = malloc((size_t)(n + 1) * sizeof *r->comp);
	r->size = calloc((size_t)n + 1, sizeof *r->size);
	r->first = malloc((size_t)(n + 1) * sizeof *r->first);
	ck_assert(stack && r->comp && r->size && r->first);
	for (c = 0; c < n; c++)
		r->comp[c] = -1;
	r->ncomp = 0;
	for (c = 0; c < n; c++) {
		if (isnan(r->lab[c]) || r->comp[c] >= 0)
			continue;
		r->first[r->ncomp] = c;
		r->comp[c] = r->ncomp;
		top = 0;
		stack[top++] = c;
		while (top > 0) {
			int64_t s = stack[--top], x = s % r->w, y = s / r->w;
			int k;

			r->size[r->ncomp]++;
			for (k = 0; k < 4; k++) {
				int64_t nx = x + dx[k], ny = y + dy[k];

				if (lab_at(r, nx, ny) == r->lab[c] &&
				    r->comp[ny * r->w + nx] < 0) {
					r->comp[ny * r->w + nx] = r->ncomp;
					stack[top++] = ny * r->w + nx;
				}
			}
		}
		r->ncomp++;
	}
	free(stack);
}

static const ref *sort_ref;

static int
cmp_comp(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
	float la = sort_ref->lab[sort_ref->first[a]];
	float lb = sort_ref->lab[sort_ref->first[b]];

	if (la != lb)
		return la < lb ? -1 : 1;
	return (a > b) - (a < b);
}

/* The cells left and right of the unit edge leaving vertex (i, j) in
 * direction d (E N W S), north up. */
static void
sides(int64_t i, int64_t j, int d, int64_t *lx, int64_t *ly, int64_t *rx,
    int64_t *ry)
{
	static const int l_x[4] = { 0, -1, -1, 0 }, l_y[4] = { -1, -1, 0, 0 };
	static const int r_x[4] = { 0, 0, -1, -1 }, r_y[4] = { 0, -1, -1, 0 };

	*lx = i + l_x[d];
	*ly = j + l_y[d];
	*rx = i + r_x[d];
	*ry = j + r_y[d];
}

/* Ring at pt[0 .. n - 1] of polygon of component k: returns its edges.
 * seen[v] holds the last ring that passed vertex v (rings count from 1). */
static int64_t
check_ring(const ref *r, const int64_t *pt, size_t n, int64_t k,
    uint8_t *used, int64_t *seen, int64_t ring)
{
	int64_t vw = r->w + 1, edges = 0, lx, ly, rx, ry;
	size_t p;

	ck_assert_uint_ge(n, 5);
	ck_assert_int_eq(pt[0], pt[n - 1]);
	for (p = 0; p + 1 < n; p++) {
		/* simple: no vertex twice, nor between points */
		ck_assert_int_ne(seen[pt[p]], ring);
		seen[pt[p]] = ring;
	}
	for (p = 0; p + 1 < n; p++) {
		int64_t i0 = pt[p] % vw, j0 = pt[p] / vw;
		int64_t i1 = pt[p + 1] % vw, j1 = pt[p + 1] / vw;
		int64_t prev = pt[p == 0 ? n - 2 : p - 1];
		int d, steps;

		/* the first vertex is the ring's first in row-major order */
		ck_assert_int_lt(pt[0], p == 0 ? INT64_MAX : pt[p]);
		/* a turn at every point: the edges before and after are
		 * not on one line */
		ck_assert(!((prev % vw == i0 && i0 == i1) ||
		    (prev / vw == j0 && j0 == j1)));
		ck_assert(i0 == i1 || j0 == j1);
		ck_assert(pt[p] != pt[p + 1]);
		d = i1 > i0 ? 0 : j1 < j0 ? 1 : i1 < i0 ? 2 : 3;
		steps = (int)(i0 != i1 ? llabs(i1 - i0) : llabs(j1 - j0));
		for (; steps > 0; steps--) {
			sides(i0, j0, d, &lx, &ly, &rx, &ry);
			ck_assert_int_eq(comp_at(r, lx, ly), k);
			ck_assert(!(lab_at(r, rx, ry) == lab_at(r, lx, ly)));
			ck_assert_int_eq(used[(j0 * vw + i0) * 4 + d], 0);
			used[(j0 * vw + i0) * 4 + d] = 1;
			edges++;
			i0 += d == 0 ? 1 : d == 2 ? -1 : 0;
			j0 += d == 3 ? 1 : d == 1 ? -1 : 0;
			if (steps > 1) {
				ck_assert_int_ne(seen[j0 * vw + i0], ring);
				seen[j0 * vw + i0] = ring;
			}
		}
	}
	return edges;
}

/* The directed label edges of the grid, by brute force. */
static int64_t
count_edges(const ref *r)
{
	int64_t x, y, n = 0;
	float l;

	for (y = 0; y < r->h; y++)
		for (x = 0; x < r->w; x++) {
			if (isnan(l = lab_at(r, x, y)))
				continue;
			n += !(lab_at(r, x + 1, y) == l) +
			    !(lab_at(r, x - 1, y) == l) +
			    !(lab_at(r, x, y + 1) == l) +
			    !(lab_at(r, x, y - 1) == l);
		}
	return n;
}

static void
check_outlets(const ref *r, const float *flow, const tp_trace_regions *rs)
{
	size_t g;
	int64_t c;

	for (g = 0; g < rs->n; g++) {
		int64_t best = -1;

		for (c = 0; c < r->w * r->h; c++)
			if (r->lab[c] == rs->reg[g].label && !isnan(flow[c]) &&
			    (best < 0 || flow[c] > flow[best]))
				best = c;
		ck_assert_int_eq(rs->reg[g].outlet, best);
		if (best >= 0)
			ck_assert_float_eq(rs->reg[g].max_flow, flow[best]);
	}
}

static void
same_regions(const tp_trace_regions *a, const tp_trace_regions *b)
{
	size_t k;

	ck_assert_uint_eq(a->n, b->n);
	ck_assert_uint_eq(a->npoly, b->npoly);
	ck_assert_uint_eq(a->nring, b->nring);
	ck_assert_uint_eq(a->npt, b->npt);
	for (k = 0; k < a->n; k++) {
		ck_assert(memcmp(&a->reg[k].label, &b->reg[k].label,
		    sizeof(float)) == 0);
		ck_assert_int_eq(a->reg[k].cells, b->reg[k].cells);
		ck_assert_uint_eq(a->reg[k].npts, b->reg[k].npts);
	}
	ck_assert(memcmp(a->poly, b->poly, a->npoly * sizeof *a->poly) == 0);
	ck_assert(memcmp(a->ring, b->ring, a->nring * sizeof *a->ring) == 0);
	ck_assert(memcmp(a->pt, b->pt, a->npt * sizeof *a->pt) == 0);
}

/* Trace lab (w x h, with flow) row by row and check it all. */
static void
check_grid(const float *lab, const float *flow, int64_t w, int64_t h)
{
	ref r = { .lab = lab, .w = w, .h = h };
	tp_trace_stream *t;
	tp_trace_regions rs, whole;
	int64_t *order, y, edges = 0, total = 0, k;
	uint8_t *used = calloc((size_t)((w + 1) * (h + 1) * 4), 1);
	int64_t *seen = calloc((size_t)((w + 1) * (h + 1)), sizeof *seen);
	size_t g, p, q, ri, pt, pi = 0;

	ck_assert(used != NULL && seen != NULL);
	ck_assert_int_eq(tp_trace_stream_new(&t, w, h, NULL), 0);
	for (y = 0; y < h; y++)
		ck_assert_int_eq(tp_trace_stream_row(t, lab + y * w,
		    flow == NULL ? NULL : flow + y * w, NULL), 0);
	ck_assert_int_eq(tp_trace_stream_end(t, &rs, NULL), 0);
	tp_trace_stream_free(t);
	/* the whole-plane call gives the same */
	ck_assert_int_eq(tp_trace_labels(lab, w, h, (size_t)w, &whole, NULL),
	    0);
	same_regions(&rs, &whole);
	tp_trace_free(&whole);

	flood(&r);
	order = malloc((size_t)(r.ncomp + 1) * sizeof *order);
	ck_assert_ptr_nonnull(order);
	for (k = 0; k < r.ncomp; k++)
		order[k] = k;
	sort_ref = &r;
	qsort(order, (size_t)r.ncomp, sizeof *order, cmp_comp);
	ck_assert_uint_eq(rs.npoly, (size_t)r.ncomp);
	for (g = 0; g < rs.n; g++) {
		const tp_trace_region *q_ = &rs.reg[g];
		int64_t cells = 0;

		if (g > 0)
			ck_assert(rs.reg[g - 1].label < q_->label);
		ri = q_->ring0;
		pt = q_->pt0;
		for (p = q_->poly0; p < q_->poly0 + q_->npolys; p++, pi++) {
			int64_t c = order[pi], a2 = 0;

			ck_assert(lab[r.first[c]] == q_->label);
			for (q = 0; q < rs.poly[p]; q++, pt += rs.ring[ri++]) {
				int64_t a = tp_trace_area2(&rs, pt,
				    rs.ring[ri]);

				ck_assert(q == 0 ? a > 0 : a < 0);
				a2 += a;
				edges += check_ring(&r, rs.pt + pt,
				    rs.ring[ri], c, used, seen,
				    (int64_t)ri + 1);
			}
			ck_assert_int_eq(a2, 2 * r.size[c]);
			cells += r.size[c];
		}
		ck_assert_int_eq(cells, q_->cells);
		total += cells;
	}
	ck_assert_int_eq(edges, count_edges(&r));
	for (k = 0; k < w * h; k++)
		total -= !isnan(lab[k]);
	ck_assert_int_eq(total, 0);
	if (flow != NULL)
		check_outlets(&r, flow, &rs);
	else
		for (g = 0; g < rs.n; g++)
			ck_assert_int_eq(rs.reg[g].outlet, -1);
	tp_trace_free(&rs);
	free(order);
	free(used);
	free(seen);
	free(r.comp);
	free(r.size);
	free(r.first);
}

/* Flow of small whole numbers, so ties are many; some NaN. */
static float *
some_flow(int64_t n, uint64_t seed)
{
	float *f = malloc((size_t)n * sizeof *f);
	int64_t k;

	ck_assert_ptr_nonnull(f);
	for (k = 0; k < n; k++) {
		uint64_t v = tp_test_rnd(&seed) % 8;

		f[k] = v == 7 ? NAN : (float)v;
	}
	return f;
}

START_TEST(test_stream_checkerboard)
{
	float lab[7 * 5], *f = some_flow(35, 7);
	int k;

	for (k = 0; k < 35; k++)
		lab[k] = (float)((k % 7 + k / 7) % 2 + 1);
	check_grid(lab, f, 7, 5);
	check_grid(lab, NULL, 7, 5);
	free(f);
}
END_TEST

/* A label inside a hole inside a label: rings of 1, 2, 1 around a 3;
 * a 2 touching the ring of 2 at a corner, a 4 touching the 1s at
 * corners only. */
START_TEST(test_stream_nested)
{
	static const float lab[11 * 10] = {
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4,
		1, 2, 2, 2, 2, 2, 2, 2, 1, 4, 1,
		1, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1,
		1, 2, 1, 2, 2, 2, 1, 2, 1, 1, 1,
		1, 2, 1, 2, 3, 2, 1, 2, 1, 1, 1,
		1, 2, 1, 2, 2, 2, 1, 2, 1, 1, 1,
		1, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1,
		1, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4,
	};
	float *f = some_flow(110, 11);

	check_grid(lab, f, 11, 10);
	free(f);
}
END_TEST

/* NaN holes inside a label and on its border; a NaN row. */
START_TEST(test_stream_nan_holes)
{
	float lab[8 * 6];
	int k, x, y;

	for (k = 0; k < 48; k++) {
		x = k % 8;
		y = k / 8;
		lab[k] = (x >= 2 && x <= 4 && y >= 1 && y <= 2) ||
		    (x == 7 && y == 0) || y == 4 ? NAN : (float)(1 + (x > 5));
	}
	check_grid(lab, NULL, 8, 6);
}
END_TEST

/* One row and one column: strips of labels. */
START_TEST(test_stream_thin)
{
	float lab[9] = { 1, 1, 2, NAN, 2, 2, 1, 3, 3 }, *f = some_flow(9, 3);

	check_grid(lab, f, 9, 1);
	check_grid(lab, f, 1, 9);
	check_grid(lab, f, 1, 1);
	free(f);
}
END_TEST

/* Random labels of 1 to 4 values, some NaN, -0 beside 0. */
START_TEST(test_stream_random)
{
	uint64_t s = 0x2545f4914f6cdd1dull + (uint64_t)_i;
	int64_t w = 1 + (int64_t)(tp_test_rnd(&s) % 30);
	int64_t h = 1 + (int64_t)(tp_test_rnd(&s) % 30), k;
	int nl = 1 + (int)(tp_test_rnd(&s) % 4);
	float *lab = malloc((size_t)(w * h) * sizeof *lab);
	float *f = some_flow(w * h, s);

	ck_assert_ptr_nonnull(lab);
	for (k = 0; k < w * h; k++) {
		uint64_t v = tp_test_rnd(&s) % (uint64_t)(nl + 1);

		lab[k] = v == (uint64_t)nl ? NAN : v == 0 && k % 3 == 0 ?
		    -0.0f : (float)v;
	}
	check_grid(lab, f, w, h);
	free(lab);
	free(f);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("trace");
	TCase *core = tcase_create("core");
	TCase *stream = tcase_create("stream");

	tcase_add_test(core, test_checkerboard);
	tcase_add_test(core, test_hole);
	tcase_add_test(core, test_pinch);
	tcase_add_test(core, test_nan);
	tcase_add_loop_test(core, test_random, 0, 20);
	tcase_add_test(stream, test_stream_checkerboard);
	tcase_add_test(stream, test_stream_nested);
	tcase_add_test(stream, test_stream_nan_holes);
	tcase_add_test(stream, test_stream_thin);
	tcase_add_loop_test(stream, test_stream_random, 0, 60);
	suite_add_tcase(s, core);
	suite_add_tcase(s, stream);
	return tp_test_run(s);
}
