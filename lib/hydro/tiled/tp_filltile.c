/*
 * tp_filltile.c - depression filling tile by tile (see tp_filltile.h for
 * why the bytes equal the whole-grid fill).
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_d8.h"
#include "hydro/tiled/tp_filltile.h"
#include "core/tp_kheap.h"
#include "core/tp_par.h"

int
tp_filltile_init(tp_filltile_tiling *g, int64_t w, int64_t h, int64_t tw,
    int64_t th, const tp_fill_opts *o, double sea_level, tp_err *e)
{
	memset(g, 0, sizeof *g);
	if (w < 1 || h < 1 || tw < 1 || th < 1)
		return tp_err_set(e, "bad tiling %lldx%lld by %lldx%lld",
		    (long long)w, (long long)h, (long long)tw, (long long)th);
	if ((tw + 2) > INT32_MAX / (th + 2))
		return tp_err_set(e, "tiles of %lldx%lld are too large (at most "
		    "2^31 cells with the halo)", (long long)tw, (long long)th);
	if (isnan(sea_level))
		return tp_err_set(e, "the sea level must be a number");
	g->width = w;
	g->height = h;
	g->tw = tw < w ? tw : w;
	g->th = th < h ? th : h;
	g->cols = (w + g->tw - 1) / g->tw;
	g->rows = (h + g->th - 1) / g->th;
	g->o = *o;
	g->sea_level = sea_level;
	return 0;
}

void
tp_filltile_rect(const tp_filltile_tiling *g, int64_t row, int64_t col,
    int64_t *x0, int64_t *y0, int64_t *w, int64_t *h)
{
	*x0 = col * g->tw;
	*y0 = row * g->th;
	*w = g->width - *x0 < g->tw ? g->width - *x0 : g->tw;
	*h = g->height - *y0 < g->th ? g->height - *y0 : g->th;
}

int64_t
tp_filltile_ring_len(const tp_filltile_tiling *g, int64_t row, int64_t col)
{
	int64_t x0, y0, w, h;

	tp_filltile_rect(g, row, col, &x0, &y0, &w, &h);
	return 2 * w + 2 * h;
}

/* The tile's heights from src into dst, a plane with the halo: NaN
 * beyond the grid (an outlet), +inf toward another tile (unknown). */
static void
halo_copy(const tp_filltile_tile *t, const tp_filltile_tiling *g,
    const float *src, size_t stride, float *dst)
{
	size_t ps = (size_t)t->w + 2;
	int64_t x, y;
	float v;

	for (y = -1; y <= t->h; y++) {
		for (x = -1; x <= t->w; x++) {
			if (x >= 0 && y >= 0 && x < t->w && y < t->h)
				v = src[(size_t)y * stride + (size_t)x];
			else if (t->x0 + x < 0 || t->y0 + y < 0 ||
			    t->x0 + x >= g->width || t->y0 + y >= g->height)
				v = NAN;
			else
				v = INFINITY;
			dst[(size_t)(y + 1) * ps + (size_t)(x + 1)] = v;
		}
	}
}

/* Tile (row, col) with its surface allocated, and its heights too unless
 * it is a view of src. */
static int
tile_alloc(tp_filltile_tile *t, const tp_filltile_tiling *g, int64_t row,
    int64_t col, int own, tp_err *e)
{
	size_t n;

	memset(t, 0, sizeof *t);
	tp_filltile_rect(g, row, col, &t->x0, &t->y0, &t->w, &t->h);
	n = ((size_t)t->w + 2) * (size_t)(t->h + 2);
	t->f = malloc(n * sizeof *t->f);
	if (own)
		t->z = malloc(n * sizeof *t->z);
	if (t->f == NULL || (own && t->z == NULL)) {
		tp_filltile_tile_free(t);
		return tp_err_set(e, "out of memory: a tile needs %.1f MiB",
		    (double)n * (own ? 8 : 4) / 1048576.0);
	}
	return 0;
}

int
tp_filltile_tile_load(tp_filltile_tile *t, const tp_filltile_tiling *g,
    int64_t row, int64_t col, const float *src, size_t stride, tp_err *e)
{
	if (tile_alloc(t, g, row, col, 1, e) < 0)
		return -1;
	halo_copy(t, g, src, stride, t->z);
	return 0;
}

int
tp_filltile_tile_view(tp_filltile_tile *t, const tp_filltile_tiling *g,
    int64_t row, int64_t col, const float *src, size_t stride, tp_err *e)
{
	if (tile_alloc(t, g, row, col, 0, e) < 0)
		return -1;
	t->src = src;
	t->sstride = stride;
	return 0;
}

void
tp_filltile_tile_free(tp_filltile_tile *t)
{
	free(t->z);
	free(t->f);
	t->z = t->f = NULL;
}

int
tp_filltile_tile_prepare(tp_filltile_tile *t, const tp_filltile_tiling *g,
    tp_fill_stats *st, tp_err *e)
{
	size_t ps = (size_t)t->w + 2, n = ps * (size_t)(t->h + 2);

	if (t->z != NULL)
		memcpy(t->f, t->z, n * sizeof *t->f);
	else
		halo_copy(t, g, t->src, t->sstride, t->f);
	return tp_fill_pf_halo(t->f, t->w + 2, t->h + 2, ps, &g->o,
	    g->sea_level, st, e);
}

/* The height of cell (x, y) of a view (-1 .. w, -1 .. h): halo_copy's
 * value, read where the relax needs it. */
static inline float
view_z(const tp_filltile_tile *t, const tp_filltile_tiling *g, int64_t x,
    int64_t y)
{
	if (x >= 0 && y >= 0 && x < t->w && y < t->h)
		return t->src[(size_t)y * t->sstride + (size_t)x];
	if (t->x0 + x < 0 || t->y0 + y < 0 || t->x0 + x >= g->width ||
	    t->y0 + y >= g->height)
		return NAN;
	return INFINITY;
}

/* Cell (x, y) of halo index i, ps = w + 2 and rps its inverse: a product
 * where a division would cost as much as the visit, put right when it
 * rounds across a row (i < 2^32: off by one at most). */
static inline void
halo_xy(size_t i, size_t ps, double rps, int64_t *x, int64_t *y)
{
	size_t q = (size_t)((double)i * rps);

	if (q * ps > i)
		q--;
	else if ((q + 1) * ps <= i)
		q++;
	*y = (int64_t)q - 1;
	*x = (int64_t)(i - q * ps) - 1;
}

/* The relax's queue: a radix heap, as tp_fill.c's flood has, with a FIFO
 * for the cells raised to the step of the cell taken. Every key pushed is
 * above the one taken (a cell on the heap is above the step, which is
 * above the cell taken; the seeds are pushed before the first is taken),
 * so cells leave in non-decreasing order as the radix heap needs. */
typedef struct relax_q {
	tp_kheap_radix h;
	tp_kheap_fifo f;
} relax_q;

/* The next key into *top: the FIFO's head unless the heap's is lower. */
static int
relax_pop(relax_q *q, uint64_t *top, tp_err *e)
{
	if (q->f.n > 0 && (q->h.n == 0 || (uint32_t)(q->f.a[q->f.head] >>
	    32) <= tp_kheap_radix_min(&q->h))) {
		*top = tp_kheap_fifo_pop(&q->f);
		return 0;
	}
	return tp_kheap_radix_pop(&q->h, top, e);
}

/* Dijkstra from what is queued, lowering f only: a neighbour n takes
 * max(z(n), step(f(c))), z(n) itself on a tie, as tp_fill.c's visit. The
 * halo's z is NaN (skipped) or +inf (never lower than its f, +inf). A
 * neighbour raised to the step waits in the FIFO: the steps of cells
 * taken in key order come in key order. */
static int
relax_run(tp_filltile_tile *t, const tp_filltile_tiling *g, relax_q *q,
    size_t *lo, size_t *hi, tp_err *e)
{
	ptrdiff_t off[9], soff[9];
	const ptrdiff_t *zoff;
	float sea = tp_d8_sea_below(g->sea_level), s, zn, c;
	size_t i, n, ps = (size_t)t->w + 2;
	double rps = 1 / (double)ps;
	const float *zc;
	int64_t x = 0, y = 0;
	uint64_t top, v;
	int k, edge, r = 0;

	tp_d8_offsets((ptrdiff_t)ps, off);
	tp_d8_offsets((ptrdiff_t)t->sstride, soff);
	while (r == 0 && q->h.n + q->f.n > 0) {
		if (relax_pop(q, &top, e) < 0)
			return -1;
		i = (size_t)(uint32_t)top;
		if (tp_kheap_fkey(t->f[i]) != (uint32_t)(top >> 32))
			continue;	/* lowered again since */
		s = tp_fill_step(&g->o, t->f[i]);
		edge = 0;
		zoff = off;
		if (t->z != NULL) {
			zc = t->z + i;
		} else {
			halo_xy(i, ps, rps, &x, &y);
			edge = x < 1 || y < 1 || x >= t->w - 1 || y >= t->h - 1;
			zc = t->src + (size_t)y * t->sstride + (size_t)x;
			zoff = soff;
		}
		for (k = 1; k <= 8 && r == 0; k++) {
			n = (size_t)((ptrdiff_t)i + off[k]);
			zn = !edge ? zc[zoff[k]] : view_z(t, g, x + tp_d8_dx[k],
			    y + tp_d8_dy[k]);
			if (tp_d8_outside(zn, sea))
				continue;
			c = zn < s ? s : zn;
			if (c < t->f[n]) {
				t->f[n] = c;
				*lo = n < *lo ? n : *lo;
				*hi = n > *hi ? n : *hi;
				v = tp_kheap_key(c, n);
				r = c == s ?
				    tp_kheap_fifo_push(&q->f, v, "the relax queue",
				    e) : tp_kheap_radix_push(&q->h, v, e);
			}
		}
	}
	return r;
}

int
tp_filltile_tile_relax(tp_filltile_tile *t, const tp_filltile_tiling *g,
    const tp_filltile_seed *s, int64_t n, tp_err *e)
{
	size_t ps = (size_t)t->w + 2, i;
	relax_q q = { .f = { NULL, 0, 0, 0 } };
	size_t lo = SIZE_MAX, hi = 0;
	int64_t k;
	int r = 0;

	tp_kheap_radix_init(&q.h);
	for (k = 0; k < n && r == 0; k++) {
		i = (size_t)(s[k].y + 1) * ps + (size_t)(s[k].x + 1);
		if (s[k].v < t->f[i]) {
			t->f[i] = s[k].v;
			lo = i < lo ? i : lo;
			hi = i > hi ? i : hi;
			r = tp_kheap_radix_push(&q.h, tp_kheap_key(s[k].v, i),
			    e);
		}
	}
	if (r == 0)
		r = relax_run(t, g, &q, &lo, &hi, e);
	t->low0 = lo == SIZE_MAX ? t->h : (int64_t)(lo / ps) - 1;
	t->low1 = lo == SIZE_MAX ? -1 : (int64_t)(hi / ps) - 1;
	tp_kheap_radix_free(&q.h);
	tp_kheap_fifo_free(&q.f);
	return r;
}

void
tp_filltile_tile_store(const tp_filltile_tile *t, float *dst, size_t stride)
{
	size_t ps = (size_t)t->w + 2;
	int64_t y;

	for (y = 0; y < t->h; y++)
		memcpy(dst + (size_t)y * stride, t->f + (size_t)(y + 1) * ps + 1,
		    (size_t)t->w * sizeof *dst);
}

int
tp_filltile_ring_alloc(tp_filltile_ring *r, int64_t w, int64_t h, tp_err *e)
{
	size_t n = (size_t)(2 * w + 2 * h);

	r->w = w;
	r->h = h;
	r->z = malloc(n * sizeof *r->z);
	r->f = malloc(n * sizeof *r->f);
	if (r->z == NULL || r->f == NULL) {
		tp_filltile_ring_free(r);
		return tp_err_set(e, "out of memory for a tile's ring");
	}
	return 0;
}

void
tp_filltile_ring_free(tp_filltile_ring *r)
{
	free(r->z);
	free(r->f);
	r->z = r->f = NULL;
}

size_t
tp_filltile_ring_at(int64_t w, int64_t h, int64_t x, int64_t y)
{
	if (y == 0)
		return (size_t)x;
	if (y == h - 1)
		return (size_t)(w + x);
	if (x == 0)
		return (size_t)(2 * w + y);
	return (size_t)(2 * w + h + y);
}

void
tp_filltile_ring_cell(int64_t w, int64_t h, int64_t i, int64_t *x, int64_t *y)
{
	*x = i < 2 * w ? i % w : i < 2 * w + h ? 0 : w - 1;
	*y = i < w ? 0 : i < 2 * w ? h - 1 : i < 2 * w + h ? i - 2 * w :
	    i - 2 * w - h;
}

/* The height of inner cell (x, y) of a tile, held or viewed. */
static inline float
inner_z(const tp_filltile_tile *t, int64_t x, int64_t y)
{
	return t->z != NULL ? t->z[(size_t)(y + 1) * ((size_t)t->w + 2) +
	    (size_t)x + 1] : t->src[(size_t)y * t->sstride + (size_t)x];
}

void
tp_filltile_ring_get(tp_filltile_ring *r, const tp_filltile_tile *t)
{
	size_t ps = (size_t)t->w + 2, p;
	int64_t x, y;

	for (x = 0; x < t->w; x++) {
		p = ps + (size_t)x + 1;
		r->z[x] = inner_z(t, x, 0);
		r->f[x] = t->f[p];
		p = (size_t)t->h * ps + (size_t)x + 1;
		r->z[t->w + x] = inner_z(t, x, t->h - 1);
		r->f[t->w + x] = t->f[p];
	}
	for (y = 0; y < t->h; y++) {
		p = (size_t)(y + 1) * ps + 1;
		r->z[2 * t->w + y] = inner_z(t, 0, y);
		r->f[2 * t->w + y] = t->f[p];
		p += (size_t)t->w - 1;
		r->z[2 * t->w + t->h + y] = inner_z(t, t->w - 1, y);
		r->f[2 * t->w + t->h + y] = t->f[p];
	}
}

/* The lowest candidate for border cell (x, y) of tile (row, col), w x h,
 * from the cells of other tiles around it; +inf when none. Neighbours in
 * the tile itself are told by its size, without a division. */
static float
candidate(const tp_filltile_tiling *g, const tp_filltile_ring *rings,
    int64_t row, int64_t col, int64_t w, int64_t h, int64_t x, int64_t y,
    float zp, float sea)
{
	const tp_filltile_ring *nr;
	int64_t x0 = col * g->tw, y0 = row * g->th, nx, ny, nc, nrow;
	float best = INFINITY, zn, fn, s, c;
	size_t i;
	int k;

	for (k = 1; k <= 8; k++) {
		nx = x + tp_d8_dx[k];
		ny = y + tp_d8_dy[k];
		if (nx >= 0 && ny >= 0 && nx < w && ny < h)
			continue;
		if (x0 + nx < 0 || y0 + ny < 0 || x0 + nx >= g->width ||
		    y0 + ny >= g->height)
			continue;	/* the halo's NaN seeded it */
		nc = col + (nx < 0 ? -1 : nx >= w);
		nrow = row + (ny < 0 ? -1 : ny >= h);
		nr = &rings[nrow * g->cols + nc];
		i = tp_filltile_ring_at(nr->w, nr->h, x0 + nx - nc * g->tw,
		    y0 + ny - nrow * g->th);
		zn = nr->z[i];
		fn = nr->f[i];
		if (tp_d8_outside(zn, sea))
			c = zp;
		else if (fn == INFINITY)
			continue;
		else {
			s = tp_fill_step(&g->o, fn);
			c = zp < s ? s : zp;
		}
		if (c < best)
			best = c;
	}
	return best;
}

/* The candidates of the border cells (x, y) of tile (row, col) with
 * xa <= x < xb and ya <= y < yb into s (may be NULL: count only); *low
 * is lowered to the lowest one below the tile's own ring value. */
static int64_t
scan_rect(const tp_filltile_tiling *g, const tp_filltile_ring *rings,
    int64_t row, int64_t col, int64_t xa, int64_t xb, int64_t ya, int64_t yb,
    tp_filltile_seed *s, float *low)
{
	const tp_filltile_ring *r = &rings[row * g->cols + col];
	float sea = tp_d8_sea_below(g->sea_level), c, zp;
	int64_t x, y, n = 0, step;
	size_t i;

	for (y = ya; y < yb; y++) {
		/* the border cells of row y: all of rows 0 and h - 1, else
		 * the two ends */
		step = (y == 0 || y == r->h - 1) ? 1 : (r->w > 1 ? r->w - 1 : 1);
		for (x = step == 1 ? xa : 0; x < xb; x += step) {
			if (x < xa)
				continue;
			i = tp_filltile_ring_at(r->w, r->h, x, y);
			zp = r->z[i];
			if (tp_d8_outside(zp, sea))
				continue;
			c = candidate(g, rings, row, col, r->w, r->h, x, y, zp,
			    sea);
			if (c == INFINITY)
				continue;
			if (s != NULL) {
				s[n].x = (int32_t)x;
				s[n].y = (int32_t)y;
				s[n].v = c;
			}
			n++;
			if (c < r->f[i] && c < *low)
				*low = c;
		}
	}
	return n;
}

/* The candidates of tile (row, col) into s (may be NULL: count only);
 * *low = the lowest one below the tile's own ring value, +inf if none. */
static int64_t
scan(const tp_filltile_tiling *g, const tp_filltile_ring *rings, int64_t row,
    int64_t col, tp_filltile_seed *s, float *low)
{
	const tp_filltile_ring *r = &rings[row * g->cols + col];

	*low = INFINITY;
	return scan_rect(g, rings, row, col, 0, r->w, 0, r->h, s, low);
}

int64_t
tp_filltile_incoming(const tp_filltile_tiling *g, const tp_filltile_ring *rings,
    int64_t row, int64_t col, tp_filltile_seed *s, int *lower)
{
	float low;
	int64_t n = scan(g, rings, row, col, s, &low);

	*lower = low < INFINITY;
	return n;
}

/* One thread: always relax the tile whose lowest pending candidate is
 * the lowest of all, so levels spread outward from the outlets roughly in
 * order and a tile is seldom relaxed twice. */
static int
solve_seq(const tp_filltile_tiling *g, tp_filltile_ring *rings,
    tp_filltile_tile_fn fn, void *ctx, int64_t *relaxed, tp_err *e)
{
	int64_t t, n = g->rows * g->cols, best, dr, dc, nr, nc, k;
	float *low = malloc((size_t)n * sizeof *low);
	tp_filltile_seed *s = malloc((size_t)(2 * g->tw + 2 * g->th) *
	    sizeof *s);
	int r = -1;

	if (low == NULL || s == NULL) {
		tp_err_set(e, "out of memory for the solve");
		goto out;
	}
	for (t = 0; t < n; t++)
		scan(g, rings, t / g->cols, t % g->cols, NULL, &low[t]);
	for (*relaxed = 0;; (*relaxed)++) {
		for (best = -1, t = 0; t < n; t++)
			if (low[t] < INFINITY && (best < 0 || low[t] < low[best]))
				best = t;
		if (best < 0)
			break;
		k = scan(g, rings, best / g->cols, best % g->cols, s, &low[best]);
		if (fn(ctx, best / g->cols, best % g->cols, s, k, &rings[best],
		    e) < 0)
			goto out;
		for (dr = -1; dr <= 1; dr++)
			for (dc = -1; dc <= 1; dc++) {
				nr = best / g->cols + dr;
				nc = best % g->cols + dc;
				if (nr >= 0 && nc >= 0 && nr < g->rows &&
				    nc < g->cols)
					scan(g, rings, nr, nc, NULL,
					    &low[nr * g->cols + nc]);
			}
	}
	r = 0;
out:
	free(low);
	free(s);
	return r;
}

/* The solve on several threads: each worker takes the tile whose lowest
 * pending candidate is the lowest of the tiles not being relaxed, as
 * solve_seq does, relaxes it outside the lock into a ring of its own and
 * puts that ring in place under the lock, where the candidates are read.
 * Any order of lowering reaches the same fixed point, so only the count
 * of relaxations depends on the threads' timing. */
typedef struct solve_ctx {
	const tp_filltile_tiling *g;
	tp_filltile_ring *rings;
	tp_filltile_tile_fn fn;
	void	*ctx;
	float	*low;		/* per tile: scan's lowest candidate */
	unsigned char *busy;	/* per tile: being relaxed */
	tp_kheap todo;		/* (low, tile) as low was set; stale ones
				   are dropped when they come up */
	int	nbusy, failed;
	int64_t	relaxed;
	tp_err	err;		/* the first failure */
	pthread_mutex_t mu;
	pthread_cond_t cv;	/* a relaxation ended */
} solve_ctx;

/* 1 when a tile next to t (or t) is being relaxed. */
static int
near_busy(const solve_ctx *c, int64_t t)
{
	int64_t r = t / c->g->cols, k = t % c->g->cols, dr, dc;

	for (dr = -1; dr <= 1; dr++)
		for (dc = -1; dc <= 1; dc++)
			if (r + dr >= 0 && r + dr < c->g->rows && k + dc >= 0 &&
			    k + dc < c->g->cols &&
			    c->busy[(r + dr) * c->g->cols + k + dc])
				return 1;
	return 0;
}

/* Queue tile t at its pending candidate, if any. */
static void
note(solve_ctx *c, int64_t t)
{
	tp_err e;

	if (c->low[t] < INFINITY && tp_kheap_push(&c->todo,
	    tp_kheap_key(c->low[t], (uint64_t)t), "the solve's tiles", &e) < 0 &&
	    !c->failed) {
		c->failed = 1;
		c->err = e;
	}
}

/* The tile to relax next, -1 for none: the lowest pending candidate away
 * from the tiles being relaxed (whose new rings would lower it again), or
 * beside them when there is no other. Entries whose tile is busy or whose
 * low has changed since are dropped (a busy tile is queued again when its
 * relax ends); those beside busy tiles are set aside and put back. */
static int64_t
pick(solve_ctx *c)
{
	uint64_t aside[16], k;
	int64_t t, best = -1;
	int na = 0, i, near = -1;

	while (c->todo.n > 0 && best < 0 && na < 16) {
		k = tp_kheap_pop(&c->todo);
		t = (int64_t)(uint32_t)k;
		if (c->busy[t] || !(c->low[t] < INFINITY) ||
		    tp_kheap_fkey(c->low[t]) != (uint32_t)(k >> 32))
			continue;
		if (!near_busy(c, t))
			best = t;
		else {
			if (near < 0)
				near = na;
			aside[na++] = k;
		}
	}
	if (best < 0 && near >= 0)
		best = (int64_t)(uint32_t)aside[near];
	for (i = 0; i < na; i++)	/* room: they were in the heap */
		if (i != near || best != (int64_t)(uint32_t)aside[i])
			(void)tp_kheap_push(&c->todo, aside[i], NULL, NULL);
	return best;
}

/* After tile t's relaxation: the pending candidates of t, and those of
 * the tiles around it on their side toward t, the only ones t's new ring
 * can lower (their own rings are as they were). */
static void
rescan(solve_ctx *c, int64_t t)
{
	const tp_filltile_tiling *g = c->g;
	int64_t r = t / g->cols, k = t % g->cols, dr, dc, u, w, h;

	scan(g, c->rings, r, k, NULL, &c->low[t]);
	note(c, t);
	for (dr = -1; dr <= 1; dr++)
		for (dc = -1; dc <= 1; dc++) {
			if ((dr == 0 && dc == 0) || r + dr < 0 ||
			    r + dr >= g->rows || k + dc < 0 || k + dc >= g->cols)
				continue;
			u = (r + dr) * g->cols + k + dc;
			w = c->rings[u].w;
			h = c->rings[u].h;
			scan_rect(g, c->rings, r + dr, k + dc,
			    dc < 0 ? w - 1 : 0, dc > 0 ? 1 : w,
			    dr < 0 ? h - 1 : 0, dr > 0 ? 1 : h, NULL, &c->low[u]);
			note(c, u);
		}
}

/* Relax tile t with its candidates s[0..n) into own (a worker's ring),
 * outside the lock; put own in place under it. */
static void
relax_one(solve_ctx *c, int64_t t, const tp_filltile_seed *s, int64_t n,
    tp_filltile_ring *own)
{
	tp_filltile_ring *r = &c->rings[t];
	size_t len = (size_t)(2 * r->w + 2 * r->h);
	tp_err e;
	int rc;

	own->w = r->w;
	own->h = r->h;
	pthread_mutex_unlock(&c->mu);
	rc = c->fn(c->ctx, t / c->g->cols, t % c->g->cols, s, n, own, &e);
	pthread_mutex_lock(&c->mu);
	if (rc < 0 && !c->failed) {
		c->failed = 1;
		c->err = e;
	}
	if (rc == 0) {
		memcpy(r->f, own->f, len * sizeof *r->f);
		c->relaxed++;
	}
	c->busy[t] = 0;
	c->nbusy--;
	rescan(c, t);
	pthread_cond_broadcast(&c->cv);
}

static void
solve_worker(void *vctx, int64_t begin, int64_t end, int worker)
{
	solve_ctx *c = vctx;
	int64_t room = 2 * c->g->tw + 2 * c->g->th, t, n;
	tp_filltile_seed *s = malloc((size_t)room * sizeof *s);
	tp_filltile_ring own = { 0, 0, NULL, NULL };
	int ok = s != NULL &&
	    tp_filltile_ring_alloc(&own, c->g->tw, c->g->th, &c->err) == 0;

	(void)begin;
	(void)end;
	(void)worker;
	pthread_mutex_lock(&c->mu);
	if (!ok && !c->failed) {
		c->failed = 1;
		tp_err_set(&c->err, "out of memory for the solve");
	}
	while (ok && !c->failed) {
		if ((t = pick(c)) < 0) {
			if (c->nbusy == 0)
				break;
			pthread_cond_wait(&c->cv, &c->mu);
			continue;
		}
		c->busy[t] = 1;
		c->nbusy++;
		n = scan(c->g, c->rings, t / c->g->cols, t % c->g->cols, s,
		    &c->low[t]);
		relax_one(c, t, s, n, &own);
	}
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
	tp_filltile_ring_free(&own);
	free(s);
}

static int
solve_par(const tp_filltile_tiling *g, tp_filltile_ring *rings,
    tp_filltile_tile_fn fn, void *ctx, int threads, int64_t *relaxed,
    tp_err *e)
{
	int64_t t, n = g->rows * g->cols;
	solve_ctx c = { g, rings, fn, ctx, malloc((size_t)n * sizeof(float)),
	    calloc((size_t)n, 1), { NULL, 0, 0 }, 0, 0, 0, { { 0 } },
	    PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER };

	if (c.low == NULL || c.busy == NULL) {
		free(c.low);
		free(c.busy);
		return tp_err_set(e, "out of memory for the solve");
	}
	for (t = 0; t < n && !c.failed; t++) {
		scan(g, rings, t / g->cols, t % g->cols, NULL, &c.low[t]);
		note(&c, t);
	}
	if (!c.failed)
		tp_par_for(threads, threads, 1, solve_worker, &c);
	tp_kheap_free(&c.todo);
	free(c.low);
	free(c.busy);
	pthread_mutex_destroy(&c.mu);
	pthread_cond_destroy(&c.cv);
	*relaxed = c.relaxed;
	if (c.failed)
		*e = c.err;
	return c.failed ? -1 : 0;
}

int
tp_filltile_solve(const tp_filltile_tiling *g, tp_filltile_ring *rings,
    tp_filltile_tile_fn fn, void *ctx, int threads, int64_t *rounds, tp_err *e)
{
	int64_t dummy;

	if (rounds == NULL)
		rounds = &dummy;
	if (threads <= 1)
		return solve_seq(g, rings, fn, ctx, rounds, e);
	return solve_par(g, rings, fn, ctx, threads, rounds, e);
}
