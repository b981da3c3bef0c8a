/* tp_featindex.c - the feature index (items filed under world cells) and a
 * stream's rows of the layered ground, evaluated through it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen/tp_feature.h"
#include "gen/tp_featindex.h"
#include "gen/tp_featprep.h"
#include "gen/tp_noise.h"
#include "core/tp_num.h"

#define BLK	256		/* columns evaluated at a time, on the stack */

/* The first k with (double)v[k] >= x (n if none); v ascending. */
static size_t
lower(const int64_t *v, size_t n, double x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((double)v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The index of world cell c in v, or -1. */
static int64_t
find(const int64_t *v, size_t n, double c)
{
	size_t k = lower(v, n, c);

	return k < n && (double)v[k] == c ? (int64_t)k : -1;
}

/* Item lists of all levels at one place, merged in file order. */
typedef struct merger {
	const uint32_t *at[TP_FEATINDEX_LEVELS], *end[TP_FEATINDEX_LEVELS];
	int	n;
} merger;

/* The next item of the merge, or -1 when all lists are spent. */
static int64_t
merger_next(merger *m)
{
	int best = -1;

	for (int k = 0; k < m->n; k++)
		if (m->at[k] < m->end[k] &&
		    (best < 0 || *m->at[k] < *m->at[best]))
			best = k;
	return best < 0 ? -1 : (int64_t)*m->at[best]++;
}

/* Add cell (i, j) of level lv (kept indices; -1: none) to the merge. */
static inline void
merger_add(merger *m, const tp_featindex_level *lv, int64_t i, int64_t j)
{
	size_t c;

	if (i < 0 || j < 0)
		return;
	c = (size_t)j * lv->ni + (size_t)i;
	if (lv->start[c] == lv->start[c + 1])
		return;		/* an empty list adds nothing to merge */
	m->at[m->n] = lv->items + lv->start[c];
	m->end[m->n] = lv->items + lv->start[c + 1];
	m->n++;
}

void
tp_featindex_free(tp_featindex *ix)
{
	for (int k = 0; k < TP_FEATINDEX_LEVELS; k++) {
		free(ix->lev[k].ci);
		free(ix->lev[k].cj);
		free(ix->lev[k].start);
		free(ix->lev[k].items);
	}
	memset(ix, 0, sizeof *ix);
}

/* The kept cells [*a, *b) of axis v that [lo, hi] reaches. */
static void
span(const int64_t *v, size_t n, double cell, double lo, double hi,
    size_t *a, size_t *b)
{
	*a = lower(v, n, floor(lo / cell));
	*b = lower(v, n, floor(hi / cell) + 1);
	if (*b < *a)
		*b = *a;
}

/* The level item p is filed at (ix->nlev - 1 at most), or -1 when its
 * bounds reach no kept cell; its cells' spans in a..d. */
static int
level_of(const tp_featindex *ix, const tp_featprep *p, size_t s[4])
{
	for (int k = 0; k < ix->nlev; k++) {
		const tp_featindex_level *lv = &ix->lev[k];

		span(lv->ci, lv->ni, lv->cell, p->w, p->e, &s[0], &s[1]);
		span(lv->cj, lv->nj, lv->cell, p->s, p->n, &s[2], &s[3]);
		if (s[0] == s[1] || s[2] == s[3])
			return -1;	/* empty here: empty above too */
		if ((s[1] - s[0]) <= TP_FEATINDEX_BIG / (s[3] - s[2]) ||
		    k == ix->nlev - 1)
			return k;
	}
	return -1;
}

/* Offsets of level lv from its counts in start[0 .. ncell). */
static int
level_alloc(tp_featindex_level *lv, tp_err *e)
{
	size_t ncell = lv->ni * lv->nj, sum = 0;

	for (size_t k = 0; k <= ncell; k++) {
		size_t v = k < ncell ? lv->start[k] : 0;

		lv->start[k] = (uint32_t)sum;
		sum += v;
	}
	if (tp_num_check_mem((uint64_t)sum * 4, "the feature index", e) < 0)
		return -1;
	if ((lv->items = malloc((sum ? sum : 1) * sizeof *lv->items)) == NULL)
		return tp_err_set(e, "out of memory for the feature index (%zu "
		    "entries)", sum);
	return 0;
}

/* Count item `it` in the cells s[0..1) x s[2..3) of lv (fill NULL), or
 * file it there at the next free places fill gives. */
static void
file_one(tp_featindex_level *lv, const size_t s[4], uint32_t *fill, uint32_t it)
{
	for (size_t j = s[2]; j < s[3]; j++)
		for (size_t i = s[0]; i < s[1]; i++) {
			size_t c = j * lv->ni + i;

			if (fill == NULL)
				lv->start[c]++;
			else
				lv->items[fill[c]++] = it;
		}
}

/* File the items of layers `layers` (bounds in p) under the kept cells
 * of ix's levels: count, then fill in item order. */
static int
file_items(tp_featindex *ix, const tp_featprep *p, const tp_feature_item *f,
    size_t n, unsigned layers, tp_err *e)
{
	size_t s[4], total[TP_FEATINDEX_LEVELS] = { 0 };
	uint32_t *fill[TP_FEATINDEX_LEVELS] = { NULL };
	int rc = -1;

	for (int k = 0; k < ix->nlev; k++) {
		tp_featindex_level *lv = &ix->lev[k];

		lv->start = calloc(lv->ni * lv->nj + 1, sizeof *lv->start);
		if (lv->start == NULL)
			return tp_err_set(e, "out of memory for an index of %zu "
			    "cells", lv->ni * lv->nj);
	}
	for (int pass = 0; pass < 2; pass++) {
		for (size_t it = 0; it < n; it++) {
			int k = tp_feature_layer(&f[it]) & layers ?
			    level_of(ix, &p[it], s) : -1;
			tp_featindex_level *lv = &ix->lev[k < 0 ? 0 : k];

			if (k < 0)
				continue;
			if (pass == 0)
				total[k] += (s[1] - s[0]) * (s[3] - s[2]);
			file_one(lv, s, pass ? fill[k] : NULL, (uint32_t)it);
			if (pass == 0 && total[k] >= UINT32_MAX) {
				tp_err_set(e, "the feature index would hold "
				    "over 4294967294 entries");
				goto out;
			}
		}
		for (int k = 0; pass == 0 && k < ix->nlev; k++) {
			tp_featindex_level *lv = &ix->lev[k];
			size_t ncell = lv->ni * lv->nj;

			if (level_alloc(lv, e) < 0)
				goto out;
			if ((fill[k] = malloc((ncell + 1) * sizeof *fill[k])) ==
			    NULL) {
				tp_err_set(e, "out of memory for the index");
				goto out;
			}
			memcpy(fill[k], lv->start, ncell * sizeof *fill[k]);
		}
	}
	rc = 0;
out:
	for (int k = 0; k < ix->nlev; k++)
		free(fill[k]);
	return rc;
}

/* Refuse an index of more than TP_FEATINDEX_MAX_CELLS cells. */
static int
check_cells(double ncells, double cell, tp_err *e)
{
	char num[40];

	if (ncells <= (double)TP_FEATINDEX_MAX_CELLS)
		return 0;
	tp_num_format_double(num, sizeof num, cell);
	return tp_err_set(e, "the index would need %.0f cells of %s units "
	    "(at most %lld): raise the index cell", ncells, num,
	    (long long)TP_FEATINDEX_MAX_CELLS);
}

/* World cells as int64: a value v / cell beyond 1e18 does not fit. */
static int
too_far(double v, double cell, tp_err *e)
{
	if (fabs(v / cell) <= 1e18)
		return 0;
	return tp_err_set(e, "the region lies over 1e18 index cells from the "
	    "origin: raise the index cell");
}

/* The kept cells of level lv: all those of region r. */
static int
level_region(tp_featindex_level *lv, const double r[4], tp_err *e)
{
	double i0 = floor(r[0] / lv->cell), j0 = floor(r[1] / lv->cell);

	lv->ni = (size_t)(floor(r[2] / lv->cell) - i0 + 1);
	lv->nj = (size_t)(floor(r[3] / lv->cell) - j0 + 1);
	lv->ci = malloc(lv->ni * sizeof *lv->ci);
	lv->cj = malloc(lv->nj * sizeof *lv->cj);
	if (lv->ci == NULL || lv->cj == NULL)
		return tp_err_set(e, "out of memory for the feature index");
	for (size_t i = 0; i < lv->ni; i++)
		lv->ci[i] = (int64_t)i0 + (int64_t)i;
	for (size_t j = 0; j < lv->nj; j++)
		lv->cj[j] = (int64_t)j0 + (int64_t)j;
	return 0;
}

static int
prep_all(tp_featprep **pp, const tp_features *fs, tp_err *e)
{
	*pp = malloc((fs->n ? fs->n : 1) * sizeof **pp);
	if (*pp == NULL)
		return tp_err_set(e, "out of memory for %zu items", fs->n);
	for (size_t i = 0; i < fs->n; i++)
		tp_featprep_init(&(*pp)[i], &fs->f[i]);
	return 0;
}

/* The region of all items' bounds, r[0] > r[2] when there are none. */
static void
extent(const tp_featprep *p, size_t n, double r[4])
{
	r[0] = r[1] = 1;
	r[2] = r[3] = 0;
	for (size_t i = 0; i < n; i++) {
		r[0] = i ? fmin(r[0], p[i].w) : p[i].w;
		r[1] = i ? fmin(r[1], p[i].s) : p[i].s;
		r[2] = i ? fmax(r[2], p[i].e) : p[i].e;
		r[3] = i ? fmax(r[3], p[i].n) : p[i].n;
	}
}

/* Levels over region r, until one has at most TP_FEATINDEX_BIG cells. */
static int
region_levels(tp_featindex *ix, const double r[4], tp_err *e)
{
	for (int k = 0; k < TP_FEATINDEX_LEVELS; k++) {
		tp_featindex_level *lv = &ix->lev[k];
		double ni, nj;

		lv->cell = ldexp(ix->cell, 5 * k);	/* FACTOR 32 = 2^5 */
		if (too_far(r[0], lv->cell, e) < 0 ||
		    too_far(r[1], lv->cell, e) < 0 ||
		    too_far(r[2], lv->cell, e) < 0 ||
		    too_far(r[3], lv->cell, e) < 0)
			return -1;
		ni = floor(r[2] / lv->cell) - floor(r[0] / lv->cell) + 1;
		nj = floor(r[3] / lv->cell) - floor(r[1] / lv->cell) + 1;
		if ((k == 0 && check_cells(ni * nj, ix->cell, e) < 0) ||
		    level_region(lv, r, e) < 0)
			return -1;
		ix->nlev = k + 1;
		if (ni * nj <= TP_FEATINDEX_BIG)
			break;
	}
	return 0;
}

int
tp_featindex_build(tp_featindex *ix, const tp_features *fs, double cell,
    const double *b, tp_err *e)
{
	double r[4];
	tp_featprep *p;
	int rc;

	memset(ix, 0, sizeof *ix);
	ix->cell = cell;
	if (!(cell > 0) || !isfinite(cell))
		return tp_err_set(e, "the index cell must be > 0");
	if (prep_all(&p, fs, e) < 0)
		return -1;
	if (b != NULL)
		memcpy(r, b, sizeof r);
	else
		extent(p, fs->n, r);
	if (r[0] > r[2] || r[1] > r[3])		/* nothing to index */
		r[0] = r[1] = r[2] = r[3] = 0;
	rc = region_levels(ix, r, e);
	if (rc == 0)
		rc = file_items(ix, p, fs->f, fs->n, TP_LAYER_ALL, e);
	free(p);
	if (rc < 0)
		tp_featindex_free(ix);
	return rc;
}

size_t
tp_featindex_lookup(const tp_featindex *ix, const tp_features *fs, double x,
    double y, uint32_t *out)
{
	merger m = { .n = 0 };
	size_t kept = 0;
	int64_t it;

	for (int k = 0; k < ix->nlev; k++) {
		const tp_featindex_level *lv = &ix->lev[k];

		merger_add(&m, lv, find(lv->ci, lv->ni, floor(x / lv->cell)),
		    find(lv->cj, lv->nj, floor(y / lv->cell)));
	}
	while ((it = merger_next(&m)) >= 0) {
		double bb[4];

		tp_feature_bounds(&fs->f[it], bb);
		if (x >= bb[0] && x <= bb[2] && y >= bb[1] && y <= bb[3])
			out[kept++] = (uint32_t)it;
	}
	return kept;
}

/* A stream's rows. */

/* Cell centres, as tp_noise_centre places them (the same doubles wherever
 * that one is exact) but without its clamp at 2^31 cells from 0, which
 * would move features: origin = m cs + r, m whole, r snapped to the power
 * of two at or below cs 2^-10, and centre i = (m + i + 0.5) cs + r, the
 * same double for a shifted origin and index while |m| < 2^52. */
typedef struct centres {
	double	m, r, cs, origin;
	int	exact;
} centres;

static void
centres_init(centres *c, double origin, double cs)
{
	double t = origin / cs;
	int e;

	c->cs = cs;
	c->origin = origin;
	c->exact = t >= -4503599627370496.0 && t <= 4503599627370496.0;
	if (!c->exact)
		return;
	c->m = floor(t + 0.6180339887498949);
	frexp(cs, &e);
	c->r = floor((origin - c->m * cs) / ldexp(1.0, e - 11) + 0.5) *
	    ldexp(1.0, e - 11);
}

static inline double
centre_of(const centres *c, int64_t i)
{
	if (!c->exact)
		return c->origin + ((double)i + 0.5) * c->cs;
	return (c->m + ((double)i + 0.5)) * c->cs + c->r;
}

double
tp_featindex_centre(double origin, int64_t index, double cs)
{
	centres c;

	centres_init(&c, origin, cs);
	return centre_of(&c, index);
}


void
tp_featindex_grid_free(tp_featindex_grid *g)
{
	tp_featindex_free(&g->ix);
	free(g->prep);
	free(g->col);
	memset(g, 0, sizeof *g);
}

/* The kept cells of level lv along one axis: the distinct world cells of
 * the n ascending centres v, into out (*m of them); when at is not NULL,
 * each centre's kept cell. */
static int
axis_cells(const double *v, size_t n, double cell, int64_t **out, size_t *m,
    int32_t *at, tp_err *e)
{
	if (too_far(v[0], cell, e) < 0 || too_far(v[n - 1], cell, e) < 0)
		return -1;
	if ((*out = malloc(n * sizeof **out)) == NULL)
		return tp_err_set(e, "out of memory for the feature index");
	*m = 0;
	for (size_t k = 0; k < n; k++) {
		int64_t c = (int64_t)floor(v[k] / cell);

		if (*m == 0 || (*out)[*m - 1] != c)
			(*out)[(*m)++] = c;
		if (at != NULL)
			at[k] = (int32_t)(*m - 1);
	}
	return 0;
}

/* The levels of a grid: the kept cells are those of the sample centres
 * (xs west to east, ys south to north). */
static int
grid_levels(tp_featindex_grid *g, const double *xs, size_t w, const double *ys,
    size_t h, tp_err *e)
{
	tp_featindex *ix = &g->ix;

	for (int k = 0; k < TP_FEATINDEX_LEVELS; k++) {
		tp_featindex_level *lv = &ix->lev[k];

		lv->cell = ldexp(ix->cell, 5 * k);	/* FACTOR 32 = 2^5 */
		if (axis_cells(xs, w, lv->cell, &lv->ci, &lv->ni,
		    g->col + (size_t)k * w, e) < 0 ||
		    axis_cells(ys, h, lv->cell, &lv->cj, &lv->nj, NULL, e) < 0 ||
		    (k == 0 && check_cells((double)lv->ni * (double)lv->nj,
		    ix->cell, e) < 0))
			return -1;
		ix->nlev = k + 1;
		if (lv->ni * lv->nj <= TP_FEATINDEX_BIG)
			break;
	}
	return 0;
}

/* The rows (centre indices -height .. -1 from the origin, south to
 * north) whose centres may lie in [s, n], widened by two: [*lo, *hi]. */
static void
row_span(const centres *cy, int64_t height, double s, double n, int64_t *lo,
    int64_t *hi)
{
	double a = (s - cy->origin) / cy->cs - 2.5, b = (n - cy->origin) /
	    cy->cs + 1.5;

	*lo = -height;
	*hi = -1;
	if (a > (double)*lo)
		*lo = a < 0 ? (int64_t)floor(a) : 0;
	if (b < (double)*hi)
		*hi = b > (double)-height ? (int64_t)ceil(b) : -height;
}

/* The centres of the rows within the items' extent r (r[1] south, r[3]
 * north), south to north, into *ys (at least one row, so that the index
 * has an axis); their count. Rows outside hold no item, so they need no
 * index cell: the index grows with the items, not with the rows a header
 * declares before they have arrived. */
static size_t
extent_rows(const centres *cy, int64_t height, const double r[4],
    double **ys)
{
	int64_t lo = -1, hi = -1, i;
	size_t n = 0;

	if (r[0] <= r[2])
		row_span(cy, height, r[1], r[3], &lo, &hi);
	if (lo > hi)
		lo = hi = -1;
	if ((*ys = malloc((size_t)(hi - lo + 1) * sizeof **ys)) == NULL)
		return 0;
	for (i = lo; i <= hi; i++) {
		double y = centre_of(cy, i);

		if (y >= r[1] && y <= r[3])
			(*ys)[n++] = y;
	}
	if (n == 0)		/* no row meets an item: any row will do */
		(*ys)[n++] = centre_of(cy, lo);
	return n;
}

/* The sample centres of h and the grid's levels over them. */
static int
grid_axes(tp_featindex_grid *g, const tp_header *h, size_t items,
    tp_err *e)
{
	size_t w = (size_t)h->width, nys = 0;
	double *xs = malloc(w * sizeof *xs), *ys = NULL, r[4];
	centres cx, cy;
	int rc = -1;

	centres_init(&cx, h->origin_x, h->cellsize);
	centres_init(&cy, h->origin_y, h->cellsize);
	extent(g->prep, items, r);
	g->col = malloc((size_t)TP_FEATINDEX_LEVELS * w * sizeof *g->col);
	if (xs != NULL && g->col != NULL)
		nys = extent_rows(&cy, h->height, r, &ys);
	if (xs == NULL || ys == NULL || g->col == NULL || nys == 0) {
		tp_err_set(e, "out of memory for a row of %zu cells", w);
	} else {
		for (size_t i = 0; i < w; i++)
			xs[i] = centre_of(&cx, (int64_t)i);
		rc = grid_levels(g, xs, w, ys, nys, e);
	}
	free(xs);
	free(ys);
	return rc;
}

int
tp_featindex_grid_init(tp_featindex_grid *g, const tp_features *fs,
    const tp_header *h, double cell, unsigned layers, tp_err *e)
{
	memset(g, 0, sizeof *g);
	g->fs = fs;
	g->layers = layers;
	g->origin_x = h->origin_x;
	g->origin_y = h->origin_y;
	g->cellsize = h->cellsize;
	g->width = h->width;
	g->simd = tp_simd_probe();
	g->ix.cell = cell;
	if (!(cell > 0) || !isfinite(cell))
		return tp_err_set(e, "the index cell must be > 0");
	if (prep_all(&g->prep, fs, e) < 0 || grid_axes(g, h, fs->n, e) < 0 ||
	    file_items(&g->ix, g->prep, fs->f, fs->n, layers, e) < 0) {
		tp_featindex_grid_free(g);
		return -1;
	}
	return 0;
}

/* The first of the n ascending xs at or above v. */
static size_t
first_at(const double *xs, size_t n, double v)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (xs[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* acc[i] += item p's height at (xs[i], y), where it has one: only the
 * cells within its bounds are looked at (the others it leaves alone). */
static void
add_item(const tp_featprep *p, double y, const double *restrict xs,
    double *restrict acc, size_t n)
{
	size_t a, b;
	double v;

	if (!(y >= p->s && y <= p->n) || xs[0] > p->e || xs[n - 1] < p->w)
		return;
	a = xs[0] >= p->w ? 0 : first_at(xs, n, p->w);
	b = xs[n - 1] <= p->e ? n : first_at(xs, n, nextafter(p->e, INFINITY));
	/* tp_featprep_eval with its switch taken once, and for hills its
	 * bounds test too: y passed it above, xs[a..b) are exactly the xs
	 * within [w, e] */
	switch (p->kind) {
	case TP_FEAT_HILL: {
		/* tp_featprep_hill, its invariants in locals */
		double x0 = p->x0, dy = y - p->y0, dy2 = dy * dy;
		double r2 = p->r2, k = p->k, h = p->h;

		for (size_t i = a; i < b; i++) {
			double dx = xs[i] - x0, d2 = dx * dx + dy2;

			acc[i] += d2 <= r2 ? h * tp_featprep_exp(-d2 * k) : 0.0;
		}
		return;
	}
	default:
		for (size_t i = a; i < b; i++)
			if (tp_featprep_eval(p, xs[i], y, &v))
				acc[i] += v;
		return;
	}
}

/* The non-empty lists, level by level, of sample column c's index cells
 * in the rows `rows` (kept rows per level). */
static void
lists_at(const tp_featindex_grid *g, const int64_t *rows, size_t c, merger *m)
{
	size_t w = (size_t)g->width;

	m->n = 0;
	for (int k = 0; k < g->ix.nlev; k++)
		merger_add(m, &g->ix.lev[k], g->col[(size_t)k * w + c], rows[k]);
}

/* Do two places read the same items in the same order? */
static int
same_lists(const merger *a, const merger *b)
{
	if (a->n != b->n)
		return 0;
	for (int k = 0; k < a->n; k++)
		if (a->end[k] - a->at[k] != b->end[k] - b->at[k] ||
		    (a->at[k] != b->at[k] && memcmp(a->at[k], b->at[k],
		    (size_t)(a->end[k] - a->at[k]) * sizeof *a->at[k]) != 0))
			return 0;
	return 1;
}

/* The items of one row's block. Each run of columns in one index cell
 * reads that cell's list of every level, merged in file order; runs of
 * neighbouring cells whose lists hold the same items are taken as one
 * (every column still gets exactly its own cell's items, in order). */
static void
add_items(const tp_featindex_grid *g, const int64_t *rows, int64_t off,
    double y, const double *xs, double *acc, size_t m)
{
	const int32_t *col = g->col + off;	/* level 0 */
	size_t a = 0;
	merger mg, nx;	/* no initialisers: zeroing them costs more */

	while (a < m) {
		size_t b = a + 1;
		int64_t it;

		lists_at(g, rows, (size_t)off + a, &mg);
		for (;;) {
			while (b < m && col[b] == col[b - 1])
				b++;
			if (b == m)
				break;
			lists_at(g, rows, (size_t)off + b, &nx);
			if (!same_lists(&mg, &nx))
				break;
			b++;
		}
		if (mg.n == 1)		/* the usual case: no merge */
			for (const uint32_t *q = mg.at[0]; q < mg.end[0]; q++)
				add_item(&g->prep[*q], y, xs + a, acc + a,
				    b - a);
		else
			while ((it = merger_next(&mg)) >= 0)
				add_item(&g->prep[it], y, xs + a, acc + a,
				    b - a);
		a = b;
	}
}

/* acc[i] += each residual line's height at (xs[i], y): its octaves summed
 * from 0 first, as tp_feature_residual_height has it (adding them to acc one by
 * one would round differently). */
static void
add_residual(const tp_featindex_grid *g, double y, const double *xs,
    double *acc, size_t m)
{
	double sum[BLK];
	float v[BLK];

	for (size_t r = 0; r < g->fs->nres; r++) {
		const tp_feature_residual *res = &g->fs->res[r];

		for (size_t i = 0; i < m; i++)
			sum[i] = 0;
		for (int k = 0; k < res->octaves; k++) {
			double fk = ldexp(1.0 / res->scale, k);
			double ak = ldexp(res->amplitude, -k);

			tp_noise_row(TP_NOISE_SIMPLEX, TP_FADE_QUINTIC,
			    res->seed + (uint32_t)k * TP_OCTAVE_SEED_STEP, fk,
			    xs, y, v, m, g->simd);
			for (size_t i = 0; i < m; i++)
				sum[i] += ak * (double)v[i];
		}
		for (size_t i = 0; i < m; i++)
			acc[i] += sum[i];
	}
}

void
tp_featindex_grid_row(const tp_featindex_grid *g, int64_t row, const float *in,
    float *out)
{
	double y = tp_featindex_centre(g->origin_y, -row - 1, g->cellsize);
	centres cx;
	double xs[BLK], acc[BLK];
	double base = g->layers & TP_LAYER_HILLS ? g->fs->base : 0.0;
	int64_t rows[TP_FEATINDEX_LEVELS];
	size_t n = (size_t)g->width;

	centres_init(&cx, g->origin_x, g->cellsize);
	for (int k = 0; k < g->ix.nlev; k++)
		rows[k] = find(g->ix.lev[k].cj, g->ix.lev[k].nj,
		    floor(y / g->ix.lev[k].cell));
	for (size_t off = 0; off < n; off += BLK) {
		size_t m = n - off < BLK ? n - off : BLK;

		for (size_t i = 0; i < m; i++)
			xs[i] = centre_of(&cx, (int64_t)(off + i));
		for (size_t i = 0; i < m; i++)
			acc[i] = base;
		add_items(g, rows, (int64_t)off, y, xs, acc, m);
		if (g->layers & TP_LAYER_RESIDUAL)
			add_residual(g, y, xs, acc, m);
		for (size_t i = 0; i < m; i++)
			out[off + i] = in != NULL ?
			    (float)((double)in[off + i] + acc[i]) : (float)acc[i];
	}
}
