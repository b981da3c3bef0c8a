/*
 * tp_lake.c - lakes from a fill's depth band: their levels and labels.
 */
#include <math.h>
#include <stdlib.h>

#include "hydro/tp_lake.h"
#include "hydro/tp_d8.h"
#include "core/tp_kheap.h"

/* --- levels --- */

typedef struct level_ctx {
	const float *z, *depth;
	size_t	zs, ds;
	int64_t	w;
	const float *zl;
} level_ctx;

#define RAISED	0x01	/* lv: depth > 0 */
#define TAKEN	0x02	/* lv: in the flood */

/* Seed the flood with cell (x, y) when it borders the raised cells: a
 * cell not raised beside one (its own height is its flat fill's: a fill
 * raises no cell above what the flat fill gives it), or a raised cell
 * where water leaves the grid (the border, a NaN neighbour). */
static int
level_seed(const float *zl, const uint8_t *lv, int64_t w, int64_t h,
    int64_t x, int64_t y)
{
	size_t i = (size_t)y * (size_t)w + (size_t)x, j;
	int64_t nx, ny;
	int k, r = lv[i] & RAISED;

	if (isnan(zl[i]))
		return 0;
	if (x > 0 && y > 0 && x < w - 1 && y < h - 1 && !r) {
		/* the common case, inside the grid and not raised */
		const uint8_t *p = lv + i;
		ptrdiff_t s = (ptrdiff_t)w;

		return ((p[-1] | p[1] | p[-s - 1] | p[-s] | p[-s + 1] |
		    p[s - 1] | p[s] | p[s + 1]) & RAISED) != 0;
	}
	for (k = 1; k <= 8; k++) {
		j = tp_d8_inside(x, y, k, w, h, &nx, &ny) ?
		    (size_t)ny * (size_t)w + (size_t)nx : SIZE_MAX;
		if (j == SIZE_MAX || isnan(zl[j])) {
			if (r)
				return 1;
		} else if (!r && (lv[j] & RAISED))
			return 1;
	}
	return 0;
}

/* Priority-Flood of the raised cells alone, from their rim: each takes
 * the greater of its ground and the level of the cell it was reached
 * from, as tfill --flat raises it. */
static int
level_flood(float *zl, uint8_t *lv, int64_t w, int64_t h, tp_kheap_radix *q,
    tp_err *e)
{
	size_t i, j;
	int64_t x, y, nx, ny;
	uint64_t key;
	int k;

	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			i = (size_t)y * (size_t)w + (size_t)x;
			if (!level_seed(zl, lv, w, h, x, y))
				continue;
			lv[i] |= TAKEN;
			if (tp_kheap_radix_push(q, tp_kheap_key(zl[i], i), e) < 0)
				return -1;
		}
	while (q->n > 0) {
		if (tp_kheap_radix_pop(q, &key, e) < 0)
			return -1;
		i = (size_t)(key & 0xffffffffu);
		x = (int64_t)(i % (size_t)w);
		y = (int64_t)(i / (size_t)w);
		for (k = 1; k <= 8; k++) {
			if (!tp_d8_inside(x, y, k, w, h, &nx, &ny))
				continue;
			j = (size_t)ny * (size_t)w + (size_t)nx;
			if ((lv[j] & (TAKEN | RAISED)) != RAISED)
				continue;
			lv[j] |= TAKEN;
			if (zl[j] < zl[i])
				zl[j] = zl[i];
			if (tp_kheap_radix_push(q, tp_kheap_key(zl[j], j), e) < 0)
				return -1;
		}
	}
	return 0;
}

int
tp_lake_level(const float *z, size_t zstride, const float *depth,
    size_t dstride, int64_t w, int64_t h, float *zl, tp_err *e)
{
	size_t n = (size_t)w * (size_t)h, i;
	const float *zr, *dr;
	tp_kheap_radix q;
	uint8_t *lv;
	int64_t x, y;
	int rc;

	if (n >> 32)
		return tp_err_set(e, "lakes: %zu cells is more than 2^32", n);
	if ((lv = calloc(n, 1)) == NULL)
		return tp_err_set(e, "out of memory: lake levels");
	for (y = 0; y < h; y++) {
		zr = z + (size_t)y * zstride;
		dr = depth + (size_t)y * dstride;
		for (x = 0; x < w; x++) {
			i = (size_t)y * (size_t)w + (size_t)x;
			lv[i] = dr[x] > 0 && !isnan(zr[x]) ? RAISED : 0;
			zl[i] = lv[i] ? zr[x] - dr[x] : zr[x];
		}
	}
	tp_kheap_radix_init(&q);
	rc = level_flood(zl, lv, w, h, &q, e);
	tp_kheap_radix_free(&q);
	free(lv);
	return rc;
}

/* --- labels --- */

typedef struct label_ctx {
	level_ctx l;
	uint8_t	*seen;		/* 1: a lake cell, 2: taken into a lake */
} label_ctx;

/* The lake of lake cell i (seen 1), taken (seen 2) into q: a search
 * through the 8-connected lake cells. Returns its size. */
static size_t
lake_grow(int64_t w, int64_t h, uint8_t *seen, size_t i, size_t *q)
{
	size_t head, nq = 1, j;
	int64_t x, y, nx, ny;
	int k;

	seen[i] = 2;
	q[0] = i;
	for (head = 0; head < nq; head++) {
		x = (int64_t)(q[head] % (size_t)w);
		y = (int64_t)(q[head] / (size_t)w);
		for (k = 1; k <= 8; k++) {
			if (!tp_d8_inside(x, y, k, w, h, &nx, &ny))
				continue;
			j = (size_t)ny * (size_t)w + (size_t)nx;
			if (seen[j] == 1) {
				seen[j] = 2;
				q[nq++] = j;
			}
		}
	}
	return nq;
}

/* Mark the lake cells (seen = 1); returns their count. */
static size_t
lake_cells(label_ctx *c, int64_t h)
{
	size_t i, nl = 0;
	const float *z, *d;
	int64_t x, y;
	float g;

	for (y = 0; y < h; y++) {
		z = c->l.z + (size_t)y * c->l.zs;
		d = c->l.depth + (size_t)y * c->l.ds;
		for (x = 0; x < c->l.w; x++) {
			i = (size_t)y * (size_t)c->l.w + (size_t)x;
			g = z[x] - d[x];
			c->seen[i] = d[x] > 0 && !isnan(z[x]) && g < c->l.zl[i];
			nl += c->seen[i];
		}
	}
	return nl;
}

/* The depth of the lake q[0..nq) at its deepest: level less ground. */
static double
lake_deepest(const label_ctx *c, const size_t *q, size_t nq)
{
	size_t i, x, y;
	double d, m = 0;
	float g;

	for (i = 0; i < nq; i++) {
		x = q[i] % (size_t)c->l.w;
		y = q[i] / (size_t)c->l.w;
		g = c->l.z[y * c->l.zs + x] - c->l.depth[y * c->l.ds + x];
		d = (double)c->l.zl[q[i]] - (double)g;
		m = d > m ? d : m;
	}
	return m;
}

int
tp_lake_label(const float *z, size_t zstride, const float *depth,
    size_t dstride, const float *zl, int64_t w, int64_t h,
    int64_t min_cells, double min_depth, uint8_t *wet, float *lake,
    size_t lstride, int64_t *nlakes, tp_err *e)
{
	label_ctx c = { { z, depth, zstride, dstride, w, zl }, NULL };
	size_t n = (size_t)w * (size_t)h, i, nl, nq, *q = NULL;
	int64_t x, y;
	float id;

	*nlakes = 0;
	if ((c.seen = malloc(n)) == NULL)
		return tp_err_set(e, "out of memory: lake cells");
	nl = lake_cells(&c, h);
	if (nl > 0 && (q = malloc(nl * sizeof *q)) == NULL) {
		free(c.seen);
		return tp_err_set(e, "out of memory: %zu lake cells", nl);
	}
	for (i = 0; i < n && wet != NULL; i++)
		wet[i] = c.seen[i] != 0;
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++)
			lake[(size_t)y * lstride + (size_t)x] =
			    isnan(z[(size_t)y * zstride + (size_t)x]) ? NAN : 0;
	for (i = 0; i < n; i++) {
		if (c.seen[i] != 1)
			continue;
		nq = lake_grow(w, h, c.seen, i, q);
		if ((int64_t)nq < min_cells || lake_deepest(&c, q, nq) <
		    min_depth)
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
