/*
 * tp_lakestat.c - lakes from a lake band (see tp_lakestat.h): one pass over the
 * cells into per-id sums indexed by id, then the ids with cells kept.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_d8.h"
#include "vector/tp_lakestat.h"
#include "vector/tp_reach.h"

#define ID_MAX	9007199254740992.0	/* 2^53: every whole double below */

int64_t
tp_lakestat_id(float v)
{
	if (v != v || v == 0)
		return 0;
	if (v < 0 || v != floorf(v) || (double)v > ID_MAX)
		return -1;
	return (int64_t)v;
}

int
tp_lakestat_check(const float *p, int64_t w, int64_t h, size_t stride,
    tp_err *e)
{
	int64_t x, y, id;
	float v;

	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			v = p[(size_t)y * stride + (size_t)x];
			if ((id = tp_lakestat_id(v)) < 0 || id > w * h)
				return tp_err_set(e, "lake: %g at column %lld, "
				    "row %lld is not a lake id (0, or 1 to the "
				    "cell count)", (double)v, (long long)x,
				    (long long)y);
		}
	return 0;
}

static float
at(const tp_lakestat_planes *p, const float *band, int64_t x, int64_t y)
{
	return band[(size_t)y * p->stride + (size_t)x];
}

/* The cell outside lake id that cell (x, y) drains into, or -1. */
static int64_t
drains_to(const tp_lakestat_planes *p, int64_t x, int64_t y, int64_t id)
{
	int64_t nx, ny;
	float c = at(p, p->dir, x, y);
	int k = tp_reach_code(c, p->grass);

	if (k <= 0 || (p->grass && c < 0) ||
	    !tp_d8_inside(x, y, k, p->w, p->h, &nx, &ny) ||
	    isnan(at(p, p->dir, nx, ny)) ||
	    tp_lakestat_id(at(p, p->lake, nx, ny)) == id)
		return -1;
	return ny * p->w + nx;
}

/* A flow for comparing outlets: NaN below any other. */
static double
rank(double f)
{
	return f == f ? f : -INFINITY;
}

/* Cell (x, y) of lake l, area a, into its sums. */
static void
add_cell(const tp_lakestat_planes *p, tp_lakestat *l, int64_t x, int64_t y, double a)
{
	float z = p->height != NULL ? at(p, p->height, x, y) : NAN;
	float d = p->depth != NULL ? at(p, p->depth, x, y) : NAN;
	int64_t o;
	double f;

	l->cells++;
	l->area += a;
	if (z == z && !(z >= l->level))
		l->level = z;
	if (d == d) {
		l->max_depth = l->cells == 1 || d > l->max_depth ? d :
		    l->max_depth;
		l->volume = (isnan(l->volume) ? 0 : l->volume) + d * a;
	}
	if (p->dir == NULL || (o = drains_to(p, x, y, l->id)) < 0)
		return;
	f = p->flow != NULL ? at(p, p->flow, o % p->w, o / p->w) : NAN;
	/* most flow (NaN the least), then the first cell */
	if (l->outlet < 0 || rank(f) > rank(l->outlet_flow) ||
	    (rank(f) == rank(l->outlet_flow) && o < l->outlet)) {
		l->outlet = o;
		l->outlet_flow = f;
	}
}

/* The lakes with cells of the n ids in by, into out. */
static int
keep(tp_lakestat *by, int64_t n, tp_lakestats *out, tp_err *e)
{
	int64_t i, k = 0;

	for (i = 0; i < n; i++)
		k += by[i].cells > 0;
	if ((out->l = malloc(((size_t)k + 1) * sizeof *out->l)) == NULL)
		return tp_err_set(e, "out of memory");
	for (i = 0, k = 0; i < n; i++)
		if (by[i].cells > 0)
			out->l[k++] = by[i];
	out->n = k;
	return 0;
}

int
tp_lakestat_build(const tp_lakestat_planes *p, const tp_geo_grid *geo,
    tp_lakestats *out, tp_err *e)
{
	int64_t x, y, id, most = 0;
	tp_lakestat *by;
	double dx, dy;
	int rc;

	memset(out, 0, sizeof *out);
	if (tp_lakestat_check(p->lake, p->w, p->h, p->stride, e) < 0)
		return -1;
	for (y = 0; y < p->h; y++)
		for (x = 0; x < p->w; x++)
			if ((id = tp_lakestat_id(at(p, p->lake, x, y))) > most)
				most = id;
	if ((by = calloc((size_t)most + 1, sizeof *by)) == NULL)
		return tp_err_set(e, "out of memory: %lld lake ids",
		    (long long)most);
	for (id = 0; id < most; id++) {
		by[id].id = id + 1;
		by[id].level = by[id].max_depth = by[id].volume = NAN;
		by[id].outlet = -1;
		by[id].outlet_flow = NAN;
	}
	for (y = 0; y < p->h; y++) {
		tp_geo_spacing(geo, y, &dx, &dy);
		for (x = 0; x < p->w; x++)
			if ((id = tp_lakestat_id(at(p, p->lake, x, y))) > 0)
				add_cell(p, &by[id - 1], x, y, dx * dy);
	}
	rc = keep(by, most, out, e);
	free(by);
	return rc;
}

void
tp_lakestat_free(tp_lakestats *ls)
{
	free(ls->l);
	memset(ls, 0, sizeof *ls);
}
