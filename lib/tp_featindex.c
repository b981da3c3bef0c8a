/* tp_featindex.c - the feature index (items filed under world cells) and a
 * stream's rows of the layered ground, evaluated through it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tp_feature.h"
#include "tp_featprep.h"
#include "tp_noise.h"
#include "tp_num.h"

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

void
tp_featindex_free(tp_featindex *ix)
{
	free(ix->ci);
	free(ix->cj);
	free(ix->start);
	free(ix->items);
	free(ix->big);
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

/* File the items of layers `layers` (bounds in p) under the cells of the
 * axes already in ix: count, then fill in item order. */
static int
file_items(tp_featindex *ix, const tp_featprep *p, const tp_feat *f,
    size_t n, unsigned layers, tp_err *e)
{
	size_t ncell = ix->ni * ix->nj, total = 0, nbig = 0, a, b, c, d;
	uint32_t *fill = NULL;

	if ((ix->start = calloc(ncell + 1, sizeof *ix->start)) == NULL)
		return tp_err_set(e, "out of memory for an index of %zu cells",
		    ncell);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t it = 0; it < n; it++) {
			if (!(tp_feat_layer(&f[it]) & layers))
				continue;
			span(ix->ci, ix->ni, ix->cell, p[it].w, p[it].e, &a, &b);
			span(ix->cj, ix->nj, ix->cell, p[it].s, p[it].n, &c, &d);
			if (a == b || c == d)
				continue;
			if ((b - a) > TP_FEATINDEX_BIG / (d - c)) {
				if (pass == 1)
					ix->big[ix->nbig++] = (uint32_t)it;
				else
					nbig++;
				continue;
			}
			for (size_t j = c; j < d; j++)
				for (size_t i = a; i < b; i++) {
					if (pass == 0) {
						ix->start[j * ix->ni + i]++;
						total++;
					} else {
						uint32_t *q = &fill[j * ix->ni + i];

						ix->items[(*q)++] = (uint32_t)it;
					}
				}
		}
		if (pass == 1)
			break;
		if (total >= UINT32_MAX)
			return tp_err_set(e, "the index would hold %zu entries "
			    "(at most 4294967294): raise the index cell", total);
		if (tp_check_mem((uint64_t)total * 4, "the feature index", e) < 0)
			return -1;
		for (size_t k = 0, sum = 0; k <= ncell; k++) {
			size_t v = k < ncell ? ix->start[k] : 0;

			ix->start[k] = (uint32_t)sum;
			sum += v;
		}
		ix->items = malloc((total ? total : 1) * sizeof *ix->items);
		ix->big = malloc((nbig ? nbig : 1) * sizeof *ix->big);
		fill = malloc((ncell ? ncell : 1) * sizeof *fill);
		if (ix->items == NULL || ix->big == NULL || fill == NULL) {
			free(fill);
			return tp_err_set(e, "out of memory for the feature "
			    "index (%zu entries)", total);
		}
		memcpy(fill, ix->start, ncell * sizeof *fill);
	}
	free(fill);
	return 0;
}

/* Refuse an index of more than TP_FEATINDEX_MAX_CELLS cells. */
static int
check_cells(double ncells, double cell, tp_err *e)
{
	char num[40];

	if (ncells <= (double)TP_FEATINDEX_MAX_CELLS)
		return 0;
	tp_format_double(num, sizeof num, cell);
	return tp_err_set(e, "the index would need %.0f cells of %s units "
	    "(at most %lld): raise the index cell", ncells, num,
	    (long long)TP_FEATINDEX_MAX_CELLS);
}

/* Allocate axes of ni and nj kept cells. */
static int
alloc_axes(tp_featindex *ix, size_t ni, size_t nj, tp_err *e)
{
	ix->ci = malloc((ni + 1) * sizeof *ix->ci);
	ix->cj = malloc((nj + 1) * sizeof *ix->cj);
	if (ix->ci == NULL || ix->cj == NULL)
		return tp_err_set(e, "out of memory for the feature index");
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

int
tp_featindex_build(tp_featindex *ix, const tp_features *fs, double cell,
    const double *b, tp_err *e)
{
	double r[4] = { 0, 0, 0, 0 }, i0, j0, ni, nj;
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
	for (size_t i = 0; b == NULL && i < fs->n; i++) {
		r[0] = i ? fmin(r[0], p[i].w) : p[i].w;
		r[1] = i ? fmin(r[1], p[i].s) : p[i].s;
		r[2] = i ? fmax(r[2], p[i].e) : p[i].e;
		r[3] = i ? fmax(r[3], p[i].n) : p[i].n;
	}
	i0 = floor(r[0] / cell);
	j0 = floor(r[1] / cell);
	ni = r[2] >= r[0] ? floor(r[2] / cell) - i0 + 1 : 0;
	nj = r[3] >= r[1] ? floor(r[3] / cell) - j0 + 1 : 0;
	if (check_cells(ni * nj, cell, e) < 0 ||
	    alloc_axes(ix, (size_t)ni, (size_t)nj, e) < 0) {
		free(p);
		tp_featindex_free(ix);
		return -1;
	}
	ix->ni = (size_t)ni;
	ix->nj = (size_t)nj;
	for (size_t i = 0; i < ix->ni; i++)
		ix->ci[i] = (int64_t)i0 + (int64_t)i;
	for (size_t j = 0; j < ix->nj; j++)
		ix->cj[j] = (int64_t)j0 + (int64_t)j;
	rc = file_items(ix, p, fs->f, fs->n, TP_LAYER_ALL, e);
	free(p);
	if (rc < 0)
		tp_featindex_free(ix);
	return rc;
}

/* The merge of cell list [a, an) and the big items, ascending, into out. */
static size_t
merge(const uint32_t *a, size_t an, const uint32_t *big, size_t nbig,
    uint32_t *out)
{
	size_t i = 0, j = 0, n = 0;

	while (i < an || j < nbig) {
		if (j == nbig || (i < an && a[i] < big[j]))
			out[n++] = a[i++];
		else
			out[n++] = big[j++];
	}
	return n;
}

size_t
tp_featindex_lookup(const tp_featindex *ix, const tp_features *fs, double x,
    double y, uint32_t *out)
{
	int64_t i = find(ix->ci, ix->ni, floor(x / ix->cell));
	int64_t j = find(ix->cj, ix->nj, floor(y / ix->cell));
	const uint32_t *list = NULL;
	size_t nl = 0, n, kept = 0;

	if (i >= 0 && j >= 0) {
		size_t c = (size_t)j * ix->ni + (size_t)i;

		list = ix->items + ix->start[c];
		nl = ix->start[c + 1] - ix->start[c];
	}
	n = merge(list, nl, ix->big, ix->nbig, out);
	for (size_t k = 0; k < n; k++) {
		double bb[4];

		tp_feat_bounds(&fs->f[out[k]], bb);
		if (x >= bb[0] && x <= bb[2] && y >= bb[1] && y <= bb[3])
			out[kept++] = out[k];
	}
	return kept;
}

/* A stream's rows. */

void
tp_featgrid_free(tp_featgrid *g)
{
	tp_featindex_free(&g->ix);
	free(g->prep);
	free(g->col);
	memset(g, 0, sizeof *g);
}

/* The distinct world cells of n ascending centres v (their cells into
 * out, *m of them) and, when at is not NULL, each centre's kept cell. */
static void
distinct(const double *v, size_t n, double cell, int64_t *out, size_t *m,
    int32_t *at)
{
	*m = 0;
	for (size_t k = 0; k < n; k++) {
		int64_t c = (int64_t)floor(v[k] / cell);

		if (*m == 0 || out[*m - 1] != c)
			out[(*m)++] = c;
		if (at != NULL)
			at[k] = (int32_t)(*m - 1);
	}
}

/* The world cells of n ascending centres v, or -1 when they lie too far
 * out for an int64 (beyond 1e15 cells: no stream reaches there). */
static int
cells_of(const double *v, size_t n, double cell, int64_t *out, size_t *m,
    int32_t *at, tp_err *e)
{
	if (fabs(v[0] / cell) > 1e15 || fabs(v[n - 1] / cell) > 1e15)
		return tp_err_set(e, "the grid lies more than 1e15 index cells "
		    "out");
	distinct(v, n, cell, out, m, at);
	return 0;
}

/* The kept columns and rows: those of the sample centres. */
static int
grid_axes(tp_featgrid *g, const tp_header *h, double cell, tp_err *e)
{
	size_t w = (size_t)h->width, ht = (size_t)h->height, ni = 0, nj = 0;
	double *v = malloc((w > ht ? w : ht) * sizeof *v);
	int rc;

	g->col = malloc(w * sizeof *g->col);
	if (v == NULL || g->col == NULL ||
	    alloc_axes(&g->ix, w, ht, e) < 0) {
		free(v);
		return tp_err_set(e, "out of memory for a row of %zu cells", w);
	}
	tp_noise_centres(h->origin_x, 0, h->cellsize, v, w);
	rc = cells_of(v, w, cell, g->ix.ci, &ni, g->col, e);
	for (size_t r = 0; rc == 0 && r < ht; r++)	/* south to north */
		v[r] = tp_noise_centre(h->origin_y, -(int64_t)(ht - r),
		    h->cellsize);
	if (rc == 0)
		rc = cells_of(v, ht, cell, g->ix.cj, &nj, NULL, e);
	free(v);
	g->ix.ni = ni;
	g->ix.nj = nj;
	return rc < 0 ? -1 : check_cells((double)ni * (double)nj, cell, e);
}

int
tp_featgrid_init(tp_featgrid *g, const tp_features *fs, const tp_header *h,
    double cell, unsigned layers, tp_err *e)
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
	if (grid_axes(g, h, cell, e) < 0 || prep_all(&g->prep, fs, e) < 0 ||
	    file_items(&g->ix, g->prep, fs->f, fs->n, layers, e) < 0) {
		tp_featgrid_free(g);
		return -1;
	}
	return 0;
}

/* acc[i] += item p's height at (xs[i], y), where it has one. */
static void
add_item(const tp_featprep *p, double y, const double *xs, double *acc,
    size_t n)
{
	double v;

	if (!(y >= p->s && y <= p->n) || xs[0] > p->e || xs[n - 1] < p->w)
		return;
	for (size_t i = 0; i < n; i++)
		if (tp_featprep_eval(p, xs[i], y, &v))
			acc[i] += v;
}

/* The items of one row's block: each run of columns in one index cell
 * reads that cell's list merged with the big items. */
static void
add_items(const tp_featgrid *g, size_t cj, int64_t off, double y,
    const double *xs, double *acc, size_t m)
{
	const tp_featindex *ix = &g->ix;
	size_t a = 0;

	while (a < m) {
		int32_t c = g->col[off + (int64_t)a];
		size_t b = a + 1, cellno = cj * ix->ni + (size_t)c, i = 0, j = 0;
		const uint32_t *list = ix->items + ix->start[cellno];
		size_t nl = ix->start[cellno + 1] - ix->start[cellno];

		while (b < m && g->col[off + (int64_t)b] == c)
			b++;
		while (i < nl || j < ix->nbig) {
			uint32_t it = j == ix->nbig || (i < nl &&
			    list[i] < ix->big[j]) ? list[i++] : ix->big[j++];

			add_item(&g->prep[it], y, xs + a, acc + a, b - a);
		}
		a = b;
	}
}

/* acc[i] += every residual line's octaves at (xs[i], y). */
static void
add_residual(const tp_featgrid *g, double y, const double *xs, double *acc,
    size_t m)
{
	float v[BLK];

	for (size_t r = 0; r < g->fs->nres; r++) {
		const tp_residual *res = &g->fs->res[r];

		for (int k = 0; k < res->octaves; k++) {
			double fk = ldexp(1.0 / res->scale, k);
			double ak = ldexp(res->amplitude, -k);

			tp_noise_row(TP_NOISE_SIMPLEX, TP_FADE_QUINTIC,
			    res->seed + (uint32_t)k * TP_OCTAVE_SEED_STEP, fk,
			    xs, y, v, m, g->simd);
			for (size_t i = 0; i < m; i++)
				acc[i] += ak * (double)v[i];
		}
	}
}

void
tp_featgrid_row(const tp_featgrid *g, int64_t row, const float *in,
    float *out)
{
	double y = tp_noise_centre(g->origin_y, -row - 1, g->cellsize);
	double xs[BLK], acc[BLK];
	double base = g->layers & TP_LAYER_HILLS ? g->fs->base : 0.0;
	int64_t j = find(g->ix.cj, g->ix.nj, floor(y / g->ix.cell));
	size_t n = (size_t)g->width;

	for (size_t off = 0; off < n; off += BLK) {
		size_t m = n - off < BLK ? n - off : BLK;

		tp_noise_centres(g->origin_x, (int64_t)off, g->cellsize, xs, m);
		for (size_t i = 0; i < m; i++)
			acc[i] = base;
		if (j >= 0)
			add_items(g, (size_t)j, (int64_t)off, y, xs, acc, m);
		if (g->layers & TP_LAYER_RESIDUAL)
			add_residual(g, y, xs, acc, m);
		for (size_t i = 0; i < m; i++)
			out[off + i] = in != NULL ?
			    (float)((double)in[off + i] + acc[i]) : (float)acc[i];
	}
}
