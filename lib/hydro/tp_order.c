/*
 * tp_order.c - Strahler and Shreve order by in-degree counting.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_d8.h"
#include "hydro/tp_order.h"

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
is_river(uint8_t d, float r)
{
	return d != TP_D8_NODATA && r != 0 && !isnan(r);
}

typedef struct order_ctx {
	const uint8_t *dir;
	const float *river;
	int64_t	w, h;
	size_t	stride;
	int	kind;
	float	*order;		/* the output: also each waiting river cell's
				 * value (finish), as 32 bits in its float */
	uint8_t	*deg;
	ptrdiff_t off[9], soff[9];	/* index steps, compact and strided */
} order_ctx;

static inline uint32_t
held(const float *p)
{
	uint32_t u;

	memcpy(&u, p, sizeof u);
	return u;
}

static inline void
hold(float *p, uint32_t u)
{
	memcpy(p, &u, sizeof u);
}

/* Row y: river cells get in-degree 0 and value 0, the other cells DONE
 * and their final order, 0 or NaN on nodata. The value 0 and the order
 * 0.0f are the same bytes, so only nodata stands apart: no branch on
 * whether a cell is a river cell. */
static void
start_row(order_ctx *c, int64_t y)
{
	const uint8_t *dir = c->dir + (size_t)y * (size_t)c->w;
	const float *river = c->river + (size_t)y * c->stride;
	float *order = c->order + (size_t)y * c->stride;
	uint8_t *deg = c->deg + (size_t)y * (size_t)c->w;
	int64_t x;

	for (x = 0; x < c->w; x++) {
		deg[x] = is_river(dir[x], river[x]) ? 0 : DONE;
		order[x] = dir[x] == TP_D8_NODATA ? NAN : 0.0f;
	}
}

/* In-degrees: each river cell counts the river cells that drain into it.
 * One pass, each row started one row ahead of the donors that reach it. */
static void
indegrees(order_ctx *c)
{
	size_t i = 0, u;
	int64_t x, y;
	uint8_t d;

	start_row(c, 0);
	for (y = 0; y < c->h; y++) {
		if (y + 1 < c->h)
			start_row(c, y + 1);
		for (x = 0; x < c->w; x++, i++) {
			d = c->dir[i];
			if (c->deg[i] == DONE || d < 1 || d > 8)
				continue;
			u = i + (size_t)c->off[d];
			if (c->deg[u] != DONE)
				c->deg[u]++;
		}
	}
}

/* From source t (at in the planes) walk downstream while each cell
 * reached has heard from all its river donors, writing each order as it
 * is settled. A river cell's downstream neighbour is never DONE before it
 * is passed on, so DONE there means "not a river cell". */
static void
walk(order_ctx *c, size_t t, size_t at)
{
	uint32_t o;
	uint8_t d;

	for (;;) {
		o = finish(c->kind, held(c->order + at));
		c->order[at] = (float)o;
		c->deg[t] = DONE;
		d = c->dir[t];
		if (d < 1 || d > 8)
			return;
		t += (size_t)c->off[d];
		at += (size_t)c->soff[d];
		if (c->deg[t] == DONE)
			return;
		hold(c->order + at, merge(c->kind, held(c->order + at), o));
		if (--c->deg[t] != 0)
			return;
	}
}

int
tp_order(const uint8_t *dir, const float *river, int64_t w, int64_t h,
    size_t stride, int kind, float *order, tp_err *e)
{
	order_ctx c = { .dir = dir, .river = river, .w = w, .h = h,
	    .stride = stride, .kind = kind, .order = order };
	size_t i;
	int64_t x, y;

	if (w < 1 || h < 1 || stride < (size_t)w)
		return tp_err_set(e, "bad plane %lldx%lld, stride %zu",
		    (long long)w, (long long)h, stride);
	if ((uint64_t)w * (uint64_t)h > UINT32_MAX)
		return tp_err_set(e, "stream order: %lldx%lld is 2^32 cells "
		    "or more", (long long)w, (long long)h);
	if ((c.deg = malloc((size_t)w * (size_t)h)) == NULL)
		return tp_err_set(e, "out of memory: stream order needs "
		    "%.1f MiB", (double)w * (double)h / 1048576.0);
	tp_d8_offsets((ptrdiff_t)w, c.off);
	tp_d8_offsets((ptrdiff_t)stride, c.soff);
	indegrees(&c);
	for (y = 0, i = 0; y < h; y++)
		for (x = 0; x < w; x++, i++)
			if (c.deg[i] == 0)
				walk(&c, i, (size_t)y * stride + (size_t)x);
	free(c.deg);
	return 0;
}
