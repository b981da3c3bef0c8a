/*
 * tp_lake.c - lakes from a fill's depth band: their levels and labels.
 */
#include <math.h>
#include <stdlib.h>

#include "hydro/tp_lake.h"
#include "hydro/tp_d8.h"
#include "hydro/tp_fill.h"

/* The 8-connected set of cells holding `in` from cell i, appended to q at
 * q[nq..]; in(i) is cleared as cells are taken (seen). Returns the new nq. */
typedef int (*lake_in_fn)(void *ctx, size_t i);

static size_t
lake_grow(int64_t w, int64_t h, lake_in_fn in, void *ctx, size_t i,
    size_t *q, size_t nq)
{
	size_t head = nq, j;
	int64_t x, y, nx, ny;
	int k;

	q[nq++] = i;
	for (; head < nq; head++) {
		x = (int64_t)(q[head] % (size_t)w);
		y = (int64_t)(q[head] / (size_t)w);
		for (k = 1; k <= 8; k++) {
			if (!tp_d8_inside(x, y, k, w, h, &nx, &ny))
				continue;
			j = (size_t)ny * (size_t)w + (size_t)nx;
			if (in(ctx, j))
				q[nq++] = j;
		}
	}
	return nq;
}

/* --- levels --- */

typedef struct level_ctx {
	const float *z, *depth;
	size_t	zs, ds;
	int64_t	w;
	const float *zl;
} level_ctx;

static int
raised(const level_ctx *c, size_t i)
{
	size_t x = i % (size_t)c->w, y = i / (size_t)c->w;

	return c->depth[y * c->ds + x] > 0 && !isnan(c->z[y * c->zs + x]);
}

int
tp_lake_level(const float *z, size_t zstride, const float *depth,
    size_t dstride, int64_t w, int64_t h, double sea_level, float *zl,
    tp_err *e)
{
	tp_fill_opts flat = { .rule = TP_FILL_FLAT };
	size_t n = (size_t)w * (size_t)h, i, x, y;

	for (i = 0; i < n; i++) {
		x = i % (size_t)w;
		y = i / (size_t)w;
		zl[i] = depth[y * dstride + x] > 0 ?
		    z[y * zstride + x] - depth[y * dstride + x] :
		    z[y * zstride + x];
	}
	return tp_fill_pf_sea(zl, w, h, (size_t)w, &flat, sea_level, NULL, e);
}

/* --- labels --- */

typedef struct label_ctx {
	level_ctx l;
	uint8_t	*seen;		/* 1: a lake cell, 2: taken into a lake */
} label_ctx;

static int
label_in(void *ctx, size_t i)
{
	label_ctx *c = ctx;

	if (c->seen[i] != 1)
		return 0;
	c->seen[i] = 2;
	return 1;
}

/* Mark the lake cells (seen = 1); returns their count. */
static size_t
lake_cells(label_ctx *c, int64_t h)
{
	size_t n = (size_t)c->l.w * (size_t)h, i, x, y, nl = 0;
	float g;

	for (i = 0; i < n; i++) {
		x = i % (size_t)c->l.w;
		y = i / (size_t)c->l.w;
		g = c->l.z[y * c->l.zs + x] - c->l.depth[y * c->l.ds + x];
		c->seen[i] = raised(&c->l, i) && g < c->l.zl[i];
		nl += c->seen[i];
	}
	return nl;
}

int
tp_lake_label(const float *z, size_t zstride, const float *depth,
    size_t dstride, const float *zl, int64_t w, int64_t h,
    int64_t min_cells, uint8_t *wet, float *lake, size_t lstride,
    int64_t *nlakes, tp_err *e)
{
	label_ctx c = { { z, depth, zstride, dstride, w, zl }, NULL };
	size_t n = (size_t)w * (size_t)h, i, nl, nq, *q = NULL;
	float id;

	*nlakes = 0;
	if ((c.seen = malloc(n)) == NULL)
		return tp_err_set(e, "out of memory: lake cells");
	nl = lake_cells(&c, h);
	if (nl > 0 && (q = malloc(nl * sizeof *q)) == NULL) {
		free(c.seen);
		return tp_err_set(e, "out of memory: %zu lake cells", nl);
	}
	for (i = 0; i < n; i++) {
		if (wet != NULL)
			wet[i] = c.seen[i] != 0;
		lake[i / (size_t)w * lstride + i % (size_t)w] =
		    isnan(z[i / (size_t)w * zstride + i % (size_t)w]) ? NAN : 0;
	}
	for (i = 0; i < n; i++) {
		if (!label_in(&c, i))
			continue;
		nq = lake_grow(w, h, label_in, &c, i, q, 0);
		if ((int64_t)nq < min_cells)
			continue;
		id = (float)++*nlakes;
		while (nq > 0) {
			nq--;
			lake[q[nq] / (size_t)w * lstride + q[nq] % (size_t)w] = id;
		}
	}
	free(q);
	free(c.seen);
	return 0;
}
