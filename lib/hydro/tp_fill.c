/*
 * tp_fill.c - Priority-Flood and Planchon-Darboux depression filling.
 *
 * Why both give the same bytes: step() is monotone and step(v) >= v, so the
 * filled height of a cell is the minimum, over all paths from a seed to the
 * cell, of the value v_k built along the path by v_0 = z(seed),
 * v_i = max(z(p_i), step(v_{i-1})). Priority-Flood is Dijkstra's algorithm
 * for that minimum (the heap and the FIFO are merged by value, so cells
 * leave in non-decreasing order); Planchon-Darboux lowers a surface from
 * +inf until nothing changes, which stops at the greatest fixed point of
 * F(c) = max(z(c), min_n step(F(n))), and every fixed point lies below the
 * path minimum, which is itself one. Where a cell equals step() of its
 * neighbour both keep the cell's own value, so not even the sign of a zero
 * differs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_d8.h"
#include "hydro/tp_fill.h"
#include "core/tp_kheap.h"

/* Heap entries carry this bit on cells of the grid border, whose
 * neighbours need bounds checks (only seeds are on the border). */
#define EDGE_BIT	UINT32_C(0x80000000)
#define PREFETCH_AHEAD	8	/* FIFO entries ahead to prefetch */
#define AHEAD	8		/* heap entries taken ahead, likewise */

float
tp_fill_next_up(float v)
{
	uint32_t b;

	if (isnan(v) || v == INFINITY)
		return v;
	if (v == 0)
		b = 1;		/* the smallest subnormal, above +-0 */
	else {
		memcpy(&b, &v, sizeof b);
		if (b == 0x80000001u)
			return 0.0f;	/* -denorm_min goes to +0, never -0 */
		b = (b & 0x80000000u) ? b - 1 : b + 1;
	}
	memcpy(&v, &b, sizeof v);
	return v;
}

float
tp_fill_step(const tp_fill_opts *o, float v)
{
	switch (o->rule) {
	case TP_FILL_EPSILON:
		return v + o->epsilon;
	case TP_FILL_FLAT:
		return v + 0.0f;	/* -0 becomes +0 */
	default:
		return tp_fill_next_up(v);
	}
}

/* A FIFO ring of indices, capacity a power of two. */
typedef struct ring {
	uint32_t *a;
	size_t	head, n, cap;
} ring;

static int
ring_reserve(ring *q, size_t more, tp_err *e)
{
	size_t cap = q->cap ? q->cap : 4096, i;
	uint32_t *a;

	if (q->n + more <= q->cap)
		return 0;
	while (cap < q->n + more)
		cap *= 2;
	if ((a = malloc(cap * sizeof *a)) == NULL)
		return tp_err_set(e, "out of memory: the fill queue needs %.1f MiB",
		    cap * sizeof *a / 1048576.0);
	for (i = 0; i < q->n; i++)
		a[i] = q->a[(q->head + i) & (q->cap - 1)];
	free(q->a);
	q->a = a;
	q->head = 0;
	q->cap = cap;
	return 0;
}

static inline void
ring_push(ring *q, uint32_t v)
{
	q->a[(q->head + q->n++) & (q->cap - 1)] = v;
}

static inline uint32_t
ring_pop(ring *q)
{
	uint32_t v = q->a[q->head];

	q->head = (q->head + 1) & (q->cap - 1);
	q->n--;
	return v;
}

static int
check_plane(int64_t w, int64_t h, size_t stride, const tp_fill_opts *o,
    double sea_level, tp_err *e)
{
	if (w < 1 || h < 1 || stride < (size_t)w)
		return tp_err_set(e, "bad plane %lldx%lld, stride %zu",
		    (long long)w, (long long)h, stride);
	if ((uint64_t)h > SIZE_MAX / stride)
		return tp_err_set(e, "plane too large");
	if (o->rule == TP_FILL_EPSILON &&
	    !(o->epsilon > 0 && isfinite(o->epsilon)))
		return tp_err_set(e, "epsilon must be positive and finite");
	if (isnan(sea_level))
		return tp_err_set(e, "the sea level must be a number");
	return 0;
}

/* The closed set, one bit per sample of the plane: queued, done or NaN;
 * bit i & 7 of byte i >> 3, so that three cells of a row are one 16-bit
 * load. */
static inline int
is_closed(const uint8_t *cl, size_t i)
{
	return (cl[i >> 3] >> (i & 7)) & 1;
}

static inline void
set_closed(uint8_t *cl, size_t i)
{
	cl[i >> 3] |= (uint8_t)(1u << (i & 7));
}

/* The work lists and the plane of one flood. */
typedef struct flood_q {
	float	*z;
	uint8_t	*cl;		/* closed bits */
	int64_t	w, h;
	size_t	stride;
	const tp_fill_opts *o;
	float	sea;		/* tp_d8_is_sea threshold */
	tp_kheap_digits hp;		/* cells on slopes, by height */
	uint64_t win[AHEAD];	/* the heap's next entries, taken ahead */
	int	wh, wn;		/* the window's first and length */
	tp_kheap low;		/* entries pushed below the heap's last */
	ring	q;		/* cells inside depressions, FIFO */
	int64_t	raised;
	tp_progress_fn progress;	/* told of the land cells flooded */
	void	*pctx;
	int64_t	flooded, land, tick;	/* next report at tick flooded */
} flood_q;

/* Push a slope cell's entry: on the byte radix heap, or, when the window
 * has taken keys above it from there already, on the binary heap beside
 * it. */
static inline int
push_slope(flood_q *f, uint64_t v, tp_err *e)
{
	if ((uint32_t)(v >> 32) < f->hp.last)
		return tp_kheap_push(&f->low, v, "the fill queue", e);
	return tp_kheap_digits_push(&f->hp, v, e);
}

static inline int
push_cell(flood_q *f, size_t i, uint32_t edge, tp_err *e)
{
	set_closed(f->cl, i);
	return push_slope(f, tp_kheap_key(f->z[i], i) | edge, e);
}

/* Close NaN and sea cells, which are outside, and seed the border;
 * *out = 1 if any cell is outside. */
static int
seed_border(flood_q *f, tp_fill_stats *st, int *out, tp_err *e)
{
	const float sea = f->sea;	/* a local: stores cannot alias it */
	int64_t x, y;
	size_t i;

	*out = 0;
	for (y = 0; y < f->h; y++) {
		for (x = 0; x < f->w; x++) {
			i = (size_t)y * f->stride + (size_t)x;
			if (tp_d8_outside(f->z[i], sea)) {
				set_closed(f->cl, i);
				*out = 1;
				if (!isnan(f->z[i])) {
					st->valid++;
					st->sea++;
				}
				continue;
			}
			st->valid++;
			if (x == 0 || y == 0 || x == f->w - 1 || y == f->h - 1) {
				if (push_cell(f, i, EDGE_BIT, e) < 0)
					return -1;
				st->seeds++;
			}
		}
	}
	return 0;
}

/* Seed the land cells next to NaN or sea cells (the border ones are in). */
static int
seed_nan(flood_q *f, tp_fill_stats *st, tp_err *e)
{
	int64_t x, y, nx, ny;
	size_t n;
	float v;
	int k;

	for (y = 0; y < f->h; y++) {
		for (x = 0; x < f->w; x++) {
			v = f->z[(size_t)y * f->stride + (size_t)x];
			if (!tp_d8_outside(v, f->sea))
				continue;
			for (k = 1; k <= 8; k++) {
				if (!tp_d8_inside(x, y, k, f->w, f->h, &nx, &ny))
					continue;
				n = (size_t)ny * f->stride + (size_t)nx;
				if (is_closed(f->cl, n))
					continue;
				if (push_cell(f, n, 0, e) < 0)
					return -1;
				st->seeds++;
			}
		}
	}
	return 0;
}

/* always_inline: the flood is one loop per rule, with step() folded in;
 * as separate functions GCC also finds the prefetches free of side
 * effects and drops the calls. */
#define ALWAYS_INLINE	static inline __attribute__((always_inline))

/* tp_fill_step for a rule known where it is inlined. */
ALWAYS_INLINE float
step_of(tp_fill_rule rule, float eps, float v)
{
	if (rule == TP_FILL_FLAT)
		return v + 0.0f;
	if (rule == TP_FILL_EPSILON)
		return v + eps;
	return tp_fill_next_up(v);
}

/* Visit neighbour n of a cell whose step value is s: a cell at or below s
 * is in a depression (raised to s, FIFO), one above it on a slope (heap).
 * The FIFO has room for 8; returns -1 when the heap cannot grow. */
ALWAYS_INLINE int
visit(flood_q *f, size_t n, float s, tp_err *e)
{
	float zn;

	if (is_closed(f->cl, n))
		return 0;
	zn = f->z[n];
	if (zn <= s) {
		set_closed(f->cl, n);
		if (zn < s) {
			f->z[n] = s;
			f->raised++;
		}
		ring_push(&f->q, (uint32_t)n);
		return 0;
	}
	return push_cell(f, n, 0, e);
}

/* The closed bits of cells p - 1, p and p + 1 of a row (bits 0 to 2),
 * which are then all closed: the two bytes that hold them are loaded and
 * stored together (GCC and Clang merge the byte accesses into one), at
 * the same address for most cells that follow one another, so that the
 * store is forwarded to the next load. */
ALWAYS_INLINE unsigned
close_row(uint8_t *cl, size_t p)
{
	size_t q = p - 1;
	uint8_t *b = cl + (q >> 3);
	unsigned sh = (unsigned)(q & 7), v = b[0] | (unsigned)b[1] << 8;
	unsigned was = (v >> sh) & 7;

	v |= 7u << sh;
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
	return was;
}

/* Every neighbour of cell c, whose step value is s; -1 when the heap
 * cannot grow. Off the border the open neighbours are found from three
 * loads of closed bits, one a row, and only they are visited. Only seeds
 * are on the border (every border cell is one, or outside), and only
 * they need bounds checks. */
ALWAYS_INLINE int
visit_all(flood_q *f, size_t c, uint32_t edge, float s, tp_err *e)
{
	const size_t st = f->stride;
	int64_t x, y, nx, ny;
	unsigned open;
	size_t n;
	float zn;
	int k, bad = 0;

	if (edge) {
		x = (int64_t)(c % f->stride);
		y = (int64_t)(c / f->stride);
		for (k = 1; k <= 8; k++)
			if (tp_d8_inside(x, y, k, f->w, f->h, &nx, &ny))
				bad |= visit(f, (size_t)ny * f->stride +
				    (size_t)nx, s, e);
		return bad;
	}
	open = ~(close_row(f->cl, c - st) | close_row(f->cl, c) << 3 |
	    close_row(f->cl, c + st) << 6 | 1u << 4) & 0x1ff;
	while (open) {
		k = __builtin_ctz(open);
		open &= open - 1;
		n = c - st - 1 + (size_t)(k / 3) * st + (size_t)(k % 3);
		zn = f->z[n];
		if (zn <= s) {
			if (zn < s) {
				f->z[n] = s;
				f->raised++;
			}
			ring_push(&f->q, (uint32_t)n);
		} else
			bad |= push_slope(f, tp_kheap_key(zn, n), e);
	}
	return bad;
}

/* Start loading the rows around a cell taken a few cells from now: one
 * from the heap's window (below) or a FIFO entry some places on. The
 * flood is bound by these cache misses more than by the queues. */
ALWAYS_INLINE void
prefetch_cell(const flood_q *f, size_t c)
{
	const float *p = f->z + c;

	__builtin_prefetch(p);
	__builtin_prefetch(p + f->stride);
	__builtin_prefetch(f->cl + (c >> 3));
	__builtin_prefetch(f->cl + ((c + f->stride) >> 3));
	if (c >= f->stride) {
		__builtin_prefetch(p - f->stride);
		__builtin_prefetch(f->cl + ((c - f->stride) >> 3));
	}
}

ALWAYS_INLINE void
prefetch_fifo(const flood_q *f)
{
	if (f->q.n > PREFETCH_AHEAD)
		prefetch_cell(f, f->q.a[(f->q.head + PREFETCH_AHEAD) &
		    (f->q.cap - 1)]);
}

/* The window: the heap's next AHEAD entries, popped early so that their
 * cells' rows are loaded by the time they are taken (a cell from
 * the heap lies anywhere in the grid); a key pushed meanwhile below the
 * heap's last (which it cannot take) goes on f->low, and the next entry
 * is the lower of the window's first and low's top. Fill the window; -1
 * when the heap fails. */
ALWAYS_INLINE int
window_fill(flood_q *f, tp_err *e)
{
	uint64_t v;

	while (f->wn < AHEAD && f->hp.n > 0) {
		if (tp_kheap_digits_pop(&f->hp, &v, e) < 0)
			return -1;
		f->win[(f->wh + f->wn++) % AHEAD] = v;
		prefetch_cell(f, (uint32_t)v & ~EDGE_BIT);
	}
	return 0;
}

/* The next entry of the window and low, UINT64_MAX when both are empty
 * (no entry is: its key would be a NaN's); *from_low says where. */
ALWAYS_INLINE uint64_t
window_top(const flood_q *f, int *from_low)
{
	*from_low = f->low.n > 0 && (f->wn == 0 ||
	    f->low.a[0] >> 32 < f->win[f->wh] >> 32);
	if (*from_low)
		return f->low.a[0];
	return f->wn > 0 ? f->win[f->wh] : UINT64_MAX;
}

ALWAYS_INLINE void
window_drop(flood_q *f, int from_low)
{
	if (from_low)
		(void)tp_kheap_pop(&f->low);
	else {
		f->wh = (f->wh + 1) % AHEAD;
		f->wn--;
	}
}

/* The next cell: the FIFO's head when no heap key is lower, else the
 * heap's. Returns 1, 0 when both are empty, or -1. */
ALWAYS_INLINE int
next_cell(flood_q *f, size_t *c, uint32_t *edge, tp_err *e)
{
	uint64_t v;
	int from_low;

	if (window_fill(f, e) < 0)
		return -1;
	v = window_top(f, &from_low);
	if (f->q.n > 0 && (v == UINT64_MAX ||
	    tp_kheap_fkey(f->z[f->q.a[f->q.head]]) <= (uint32_t)(v >> 32))) {
		*c = ring_pop(&f->q);
		*edge = 0;
		return 1;
	}
	if (v == UINT64_MAX)
		return 0;
	window_drop(f, from_low);
	*c = (uint32_t)v & ~EDGE_BIT;
	*edge = (uint32_t)v & EDGE_BIT;
	return 1;
}

/* Tell f's progress of the cells flooded; the next report a hundredth of
 * the land on. */
static void
report(flood_q *f)
{
	f->progress(f->pctx, f->flooded, f->land);
	f->tick += f->land / 100 + 1;
}

/* The height whose tp_kheap_fkey is k: the key's value without a load
 * of the cell. */
static inline float
key_height(uint32_t k)
{
	uint32_t b = (k & 0x80000000u) ? k & 0x7fffffffu : ~k;
	float v;

	memcpy(&v, &b, sizeof v);
	return v;
}

/* One cell taken at step value s: the progress, then visit_all(). */
ALWAYS_INLINE int
take(flood_q *f, size_t c, uint32_t edge, float s, tp_err *e)
{
	if (f->progress != NULL && ++f->flooded >= f->tick)
		report(f);
	return visit_all(f, c, edge, s, e);
}

/* The flood under one rule: cells leave the heap and the FIFO in
 * non-decreasing height; each land cell leaves once. */
ALWAYS_INLINE int
flood_rule(flood_q *f, tp_fill_rule rule, float eps, tp_err *e)
{
	size_t c;
	uint32_t edge;
	int r;

	while ((r = next_cell(f, &c, &edge, e)) > 0) {
		if (f->q.cap - f->q.n < 8 && ring_reserve(&f->q, 8, e) < 0)
			return -1;
		prefetch_fifo(f);
		if (take(f, c, edge, step_of(rule, eps, f->z[c]), e))
			return -1;
	}
	return r;
}

/* The flood under the flat rule: a cell taken from the heap (the window)
 * at level L, its own height, raises to L the whole depression it
 * borders, through the FIFO, before the heap is looked at again; under
 * this rule every cell in the FIFO is at L, and every key pushed lies
 * above L. */
static int
flood_flat(flood_q *f, tp_err *e)
{
	uint64_t v;
	float s;
	int from_low;

	for (;;) {
		if (window_fill(f, e) < 0)
			return -1;
		if ((v = window_top(f, &from_low)) == UINT64_MAX)
			return 0;
		window_drop(f, from_low);
		s = key_height((uint32_t)(v >> 32)) + 0.0f;
		if (f->q.cap - f->q.n < 8 && ring_reserve(&f->q, 8, e) < 0)
			return -1;
		if (take(f, (uint32_t)v & ~EDGE_BIT, (uint32_t)v & EDGE_BIT, s,
		    e))
			return -1;
		while (f->q.n > 0) {
			if (f->q.cap - f->q.n < 8 &&
			    ring_reserve(&f->q, 8, e) < 0)
				return -1;
			prefetch_fifo(f);
			if (take(f, ring_pop(&f->q), 0, s, e))
				return -1;
		}
	}
}

static int
flood(flood_q *f, tp_err *e)
{
	switch (f->o->rule) {
	case TP_FILL_FLAT:
		return flood_flat(f, e);
	case TP_FILL_EPSILON:
		return flood_rule(f, TP_FILL_EPSILON, f->o->epsilon, e);
	default:
		return flood_rule(f, TP_FILL_NEXT, 0, e);
	}
}

int
tp_fill_pf(float *z, int64_t w, int64_t h, size_t stride,
    const tp_fill_opts *o, tp_fill_stats *st, tp_err *e)
{
	return tp_fill_pf_sea(z, w, h, stride, o, -INFINITY, st, e);
}

/* The queue of a Priority-Flood over plane z, with no cell closed yet:
 * the plane checked, its closed bits allocated. */
static int
flood_init(flood_q *f, float *z, int64_t w, int64_t h, size_t stride,
    const tp_fill_opts *o, double sea_level, tp_err *e)
{
	size_t span;

	if (check_plane(w, h, stride, o, sea_level, e) < 0)
		return -1;
	span = (size_t)(h - 1) * stride + (size_t)w;
	if ((uint64_t)span > EDGE_BIT)
		return tp_err_set(e, "plane of %zu samples is too large to fill "
		    "(at most 2^31)", span);
	memset(f, 0, sizeof *f);
	/* a byte over, for the two-byte accesses of close_row() */
	if ((f->cl = calloc(span / 8 + 2, 1)) == NULL)
		return tp_err_set(e, "out of memory: filling needs %.1f MiB",
		    span / 8 / 1048576.0);
	f->z = z;
	f->w = w;
	f->h = h;
	f->stride = stride;
	f->o = o;
	f->sea = tp_d8_sea_below(sea_level);
	tp_kheap_digits_init(&f->hp);
	return 0;
}

int
tp_fill_pf_sea(float *z, int64_t w, int64_t h, size_t stride,
    const tp_fill_opts *o, double sea_level, tp_fill_stats *st, tp_err *e)
{
	return tp_fill_pf_progress(z, w, h, stride, o, sea_level, st, NULL,
	    NULL, e);
}

int
tp_fill_pf_progress(float *z, int64_t w, int64_t h, size_t stride,
    const tp_fill_opts *o, double sea_level, tp_fill_stats *st,
    tp_progress_fn progress, void *pctx, tp_err *e)
{
	tp_fill_stats dummy;
	flood_q f;
	int r = -1, out;

	if (st == NULL)
		st = &dummy;
	memset(st, 0, sizeof *st);
	if (flood_init(&f, z, w, h, stride, o, sea_level, e) < 0)
		return -1;
	if (ring_reserve(&f.q, 4096, e) < 0 ||
	    seed_border(&f, st, &out, e) < 0 ||
	    (out && seed_nan(&f, st, e) < 0))
		goto out;
	f.progress = progress;
	f.pctx = pctx;
	f.land = st->valid - st->sea;
	r = flood(&f, e);
	if (r == 0 && progress != NULL)
		progress(pctx, f.land, f.land);
	st->raised = f.raised;
out:
	free(f.cl);
	tp_kheap_digits_free(&f.hp);
	tp_kheap_free(&f.low);
	free(f.q.a);
	return r;
}

/* Planchon-Darboux. */

/* One cell: lower w[c] toward max(z, min over neighbours of step(w(n))).
 * Returns 1 when w[c] changed. */
static int
pd_cell(const float *z, float *wk, const uint8_t *kind, int64_t w, int64_t h,
    size_t stride, int64_t x, int64_t y, const tp_fill_opts *o)
{
	size_t c = (size_t)y * (size_t)w + (size_t)x;
	float zc = z[(size_t)y * stride + (size_t)x], wc = wk[c], s;
	int64_t nx, ny;
	int k;

	if (kind[c] != 0 || wc == zc)
		return 0;
	for (k = 1; k <= 8; k++) {
		if (!tp_d8_inside(x, y, k, w, h, &nx, &ny) ||
		    kind[(size_t)ny * (size_t)w + (size_t)nx] == 2)
			continue;
		s = tp_fill_step(o, wk[(size_t)ny * (size_t)w + (size_t)nx]);
		if (zc >= s) {
			wc = zc;
			break;
		}
		if (wc > s)
			wc = s;
	}
	if (wc == wk[c])
		return 0;
	wk[c] = wc;
	return 1;
}

/* kind: 0 inner cell, 1 seed, 2 outside (NaN or sea, kept as it is);
 * wk: z on seeds and outside, +inf inside. */
static void
pd_init(const float *z, float *wk, uint8_t *kind, int64_t w, int64_t h,
    size_t stride, float sea, tp_fill_stats *st)
{
	int64_t x, y, nx, ny;
	size_t c;
	float v;
	int k;

	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			v = z[(size_t)y * stride + (size_t)x];
			kind[(size_t)y * (size_t)w + (size_t)x] =
			    isnan(v) || tp_d8_is_sea(v, sea) ? 2 : 0;
		}
	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			c = (size_t)y * (size_t)w + (size_t)x;
			wk[c] = z[(size_t)y * stride + (size_t)x];
			if (!isnan(wk[c]))
				st->valid++;
			if (kind[c] == 2) {
				st->sea += !isnan(wk[c]);
				continue;
			}
			for (k = 1; k <= 8; k++)
				if (!tp_d8_inside(x, y, k, w, h, &nx, &ny) ||
				    kind[(size_t)ny * (size_t)w + (size_t)nx] == 2)
					break;
			if (k <= 8) {
				kind[c] = 1;
				st->seeds++;
			} else
				wk[c] = INFINITY;
		}
	}
}

int
tp_fill_pd(float *z, int64_t w, int64_t h, size_t stride,
    const tp_fill_opts *o, tp_fill_stats *st, tp_err *e)
{
	return tp_fill_pd_sea(z, w, h, stride, o, -INFINITY, st, e);
}

int
tp_fill_pd_sea(float *z, int64_t w, int64_t h, size_t stride,
    const tp_fill_opts *o, double sea_level, tp_fill_stats *st, tp_err *e)
{
	tp_fill_stats dummy;
	float *wk;
	uint8_t *kind;
	int64_t i, j, x, y;
	size_t n, c;
	int changed, pass = 0;

	if (st == NULL)
		st = &dummy;
	memset(st, 0, sizeof *st);
	if (check_plane(w, h, stride, o, sea_level, e) < 0)
		return -1;
	if ((uint64_t)w > SIZE_MAX / 8 / (uint64_t)h)
		return tp_err_set(e, "plane too large");
	n = (size_t)w * (size_t)h;
	wk = malloc(n * sizeof *wk);
	kind = malloc(n);
	if (wk == NULL || kind == NULL) {
		free(wk);
		free(kind);
		return tp_err_set(e, "out of memory: filling needs %.1f MiB",
		    n * 5 / 1048576.0);
	}
	pd_init(z, wk, kind, w, h, stride, tp_d8_sea_below(sea_level), st);
	/* Sweep in alternating raster orders until nothing moves. */
	do {
		changed = 0;
		for (j = 0; j < h; j++) {
			y = pass & 1 ? h - 1 - j : j;
			for (i = 0; i < w; i++) {
				x = pass & 2 ? w - 1 - i : i;
				changed |= pd_cell(z, wk, kind, w, h, stride,
				    x, y, o);
			}
		}
		pass++;
	} while (changed);
	st->sweeps = pass;
	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			c = (size_t)y * (size_t)w + (size_t)x;
			if (kind[c] == 0 && wk[c] != z[(size_t)y * stride + x]) {
				z[(size_t)y * stride + (size_t)x] = wk[c];
				st->raised++;
			}
		}
	}
	free(wk);
	free(kind);
	return 0;
}

void
tp_fill_depth(const float *z, float *d, int64_t w, int64_t h, size_t stride)
{
	int64_t x, y;
	size_t i;

	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			i = (size_t)y * stride + (size_t)x;
			d[i] = z[i] - d[i];
		}
	}
}

/* Tiles: a plane with a halo (tp_fill_pf_halo). */

/* Close the halo and the NaN and sea cells; count the inner ones. */
static void
close_halo(flood_q *f, tp_fill_stats *st)
{
	int64_t x, y;
	size_t i;

	for (y = 0; y < f->h; y++) {
		for (x = 0; x < f->w; x++) {
			i = (size_t)y * f->stride + (size_t)x;
			if (x == 0 || y == 0 || x == f->w - 1 || y == f->h - 1) {
				set_closed(f->cl, i);
				continue;
			}
			if (!isnan(f->z[i]))
				st->valid++;
			if (tp_d8_outside(f->z[i], f->sea)) {
				set_closed(f->cl, i);
				st->sea += !isnan(f->z[i]);
			}
		}
	}
}

/* Inner land cells the flood never reached: +inf, "not known yet". */
static void
mark_unreached(flood_q *f)
{
	int64_t x, y;
	size_t i;

	for (y = 1; y < f->h - 1; y++) {
		for (x = 1; x < f->w - 1; x++) {
			i = (size_t)y * f->stride + (size_t)x;
			if (!is_closed(f->cl, i))
				f->z[i] = INFINITY;
		}
	}
}

int
tp_fill_pf_halo(float *z, int64_t w, int64_t h, size_t stride,
    const tp_fill_opts *o, double sea_level, tp_fill_stats *st, tp_err *e)
{
	tp_fill_stats dummy;
	flood_q f;
	int r = -1;

	if (st == NULL)
		st = &dummy;
	memset(st, 0, sizeof *st);
	if (w < 3 || h < 3)
		return tp_err_set(e, "a plane with a halo needs 3x3 cells");
	if (flood_init(&f, z, w, h, stride, o, sea_level, e) < 0)
		return -1;
	close_halo(&f, st);
	if (ring_reserve(&f.q, 4096, e) < 0 || seed_nan(&f, st, e) < 0)
		goto out;
	if ((r = flood(&f, e)) == 0)
		mark_unreached(&f);
	st->raised = f.raised;
out:
	free(f.cl);
	tp_kheap_digits_free(&f.hp);
	tp_kheap_free(&f.low);
	free(f.q.a);
	return r;
}
