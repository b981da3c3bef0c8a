/*
 * tp_order.c - Strahler and Shreve order by in-degree counting.
 */
#include <math.h>
#include <stdlib.h>

#include "tp_d8.h"
#include "tp_order.h"

#define DONE	0xff	/* in-degree byte: not a river cell, or passed on */

/* A river cell waiting for its donors holds, for Strahler, the highest
 * order seen so far above 4 bits counting how many donors had it (0, 1, or
 * 2 for two or more), for Shreve the sum so far; once its donors are all
 * in, finish() turns that into its order. */
static inline uint32_t
finish(int kind, uint32_t v)
{
	if (kind == TP_ORDER_SHREVE)
		return v ? v : 1;
	switch (v & 0xf) {
	case 0:
		return 1;		/* a source */
	case 1:
		return v >> 4;
	default:
		return (v >> 4) + 1;	/* two or more of the highest */
	}
}

/* Donor order o reaches a cell holding v. */
static inline uint32_t
merge(int kind, uint32_t v, uint32_t o)
{
	uint32_t m = v >> 4, c = v & 0xf;

	if (kind == TP_ORDER_SHREVE)
		return v + o;
	if (o > m)
		return o << 4 | 1;
	return m << 4 | (o == m && c < 2 ? c + 1 : c);
}

static inline int
is_river(const uint8_t *dir, const float *river, size_t i, size_t at)
{
	float r = river[at];

	return dir[i] != TP_D8_NODATA && r != 0 && !isnan(r);
}

/* deg[i]: how many river cells drain into river cell i; DONE on the rest. */
static void
indegrees(const uint8_t *dir, const float *river, int64_t w, int64_t h,
    size_t stride, const ptrdiff_t off[9], uint8_t *deg)
{
	size_t x, y, i;
	uint8_t d;

	for (y = 0; y < (size_t)h; y++)
		for (x = 0; x < (size_t)w; x++) {
			i = y * (size_t)w + x;
			deg[i] = is_river(dir, river, i, y * stride + x) ?
			    0 : DONE;
		}
	for (i = 0; i < (size_t)w * (size_t)h; i++) {
		d = dir[i];
		if (deg[i] != DONE && d >= 1 && d <= 8 &&
		    deg[i + (size_t)off[d]] != DONE)
			deg[i + (size_t)off[d]]++;
	}
}

/* From source i walk downstream while each cell reached has heard from
 * all its river donors. A river cell's downstream neighbour is never
 * DONE before it is passed on, so DONE there means "not a river cell". */
static void
walk(const uint8_t *dir, const ptrdiff_t off[9], int kind, uint8_t *deg,
    uint32_t *v, size_t i)
{
	size_t t, u;
	uint32_t o;
	uint8_t d;

	for (t = i;; t = u) {
		v[t] = o = finish(kind, v[t]);
		deg[t] = DONE;
		d = dir[t];
		if (d < 1 || d > 8)
			return;
		u = t + (size_t)off[d];
		if (deg[u] == DONE)
			return;
		v[u] = merge(kind, v[u], o);
		if (--deg[u] != 0)
			return;
	}
}

int
tp_order(const uint8_t *dir, const float *river, int64_t w, int64_t h,
    size_t stride, int kind, float *order, tp_err *e)
{
	size_t n, i, x, y;
	ptrdiff_t off[9];
	uint8_t *deg;
	uint32_t *v;

	if (w < 1 || h < 1 || stride < (size_t)w)
		return tp_err_set(e, "bad plane %lldx%lld, stride %zu",
		    (long long)w, (long long)h, stride);
	if ((uint64_t)w * (uint64_t)h > UINT32_MAX)
		return tp_err_set(e, "stream order: %lldx%lld is 2^32 cells "
		    "or more", (long long)w, (long long)h);
	n = (size_t)w * (size_t)h;
	deg = malloc(n);
	v = calloc(n, sizeof *v);
	if (deg == NULL || v == NULL) {
		free(deg);
		free(v);
		return tp_err_set(e, "out of memory: stream order needs "
		    "%.1f MiB", (double)n * 5 / 1048576.0);
	}
	tp_d8_offsets((ptrdiff_t)w, off);
	indegrees(dir, river, w, h, stride, off, deg);
	for (i = 0; i < n; i++)
		if (deg[i] == 0)
			walk(dir, off, kind, deg, v, i);
	for (y = 0; y < (size_t)h; y++)
		for (x = 0; x < (size_t)w; x++) {
			i = y * (size_t)w + x;
			order[y * stride + x] = dir[i] == TP_D8_NODATA ? NAN :
			    is_river(dir, river, i, y * stride + x) ?
			    (float)v[i] : 0.0f;
		}
	free(deg);
	free(v);
	return 0;
}
