/* tp_fillbasin.c - flat filling through the basins' graph (tp_fillbasin.h). */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/tp_kheap.h"
#include "core/tp_num.h"
#include "core/tp_pairmin.h"
#include "core/tp_par.h"
#include "core/tp_simd.h"
#include "hydro/tp_d8.h"
#include "hydro/tp_fillbasin.h"

/* A cell's entry in the label plane: below RESOLVED, the index of the cell
 * it drains to (itself at a minimum's root); with RESOLVED set, its basin
 * in the low 31 bits. */
#define RESOLVED	0x80000000u
#define OUTLETS		RESOLVED	/* basin 0: the cells that reach a seed */
#define NONE		0xffffffffu	/* nodata or sea: in no basin */

/* The edge cache's entries: the pairs of a stretch of rows are few. */
#define CACHE		1024
/* Rows a band: the passes on threads share out bands. */
#define BAND		64

/* A lane, what one thread keeps: its counts, its row of codes, its
 * edges. */
typedef struct lane {
	tp_fill_stats st;
	int64_t	roots;		/* minima less the joins of plateaus */
	int32_t	*code;		/* a row's cells: the lower neighbour each
				 * drains to (0 to 7, NOLOWER none),
				 * OUTSIDE_NB */
	tp_pairmin ed;		/* the edges between basins: the lowest
				 * weight of each pair */
	uint64_t ckey[CACHE];	/* the latest pairs, kept before the hash */
	float	cwt[CACHE];
	int	failed;
	tp_err	e;
} lane;

typedef struct basins {
	float	*z;
	uint32_t *lab;
	int64_t	w, h;
	size_t	stride;
	float	sea;		/* tp_d8_sea_below(level) */
	uint32_t n;		/* basins, the outlets' included */
	float	*lev;		/* a basin's level: its lowest way out */
	lane	*wk;
	int	threads;
	int64_t	bands;
	int64_t	max_basins;	/* more: declined; 0 no limit */
	tp_simd_level simd;
	tp_progress_fn progress;	/* told by worker 0, the caller */
	void	*pctx;
	int64_t	cells;		/* width x height, the progress's total */
	int	pass;
	atomic_llong done;	/* bands of the pass done */
} basins;

/* The passes over the rows, for the progress. */
enum { PASS_LINK, PASS_LABEL, PASS_EDGES, PASS_RAISE, PASSES };

/* Row y of the labelling done (one thread). */
static void
tell(const basins *b, int64_t y)
{
	if (b->progress != NULL && y % (b->h / 100 + 1) == 0)
		b->progress(b->pctx, b->cells * PASS_LABEL / PASSES +
		    b->cells * y / b->h / PASSES, b->cells);
}

/* A band of a pass on threads done: worker 0 tells. */
static void
band_done(basins *b, int worker)
{
	int64_t d = atomic_fetch_add(&b->done, 1) + 1;

	if (worker == 0 && b->progress != NULL)
		b->progress(b->pctx, b->cells * b->pass / PASSES + b->cells *
		    d / b->bands / PASSES, b->cells);
}

/* The root of i's plateau, halving the path. */
static uint32_t
find(uint32_t *lab, uint32_t i)
{
	while (lab[i] != i) {
		lab[i] = lab[lab[i]];
		i = lab[i];
	}
	return i;
}

/* Join the plateaus of i and n, the lower index the root; 1 when they
 * were two. */
static int
unite(uint32_t *lab, uint32_t i, uint32_t n)
{
	uint32_t a = find(lab, i), r = find(lab, n);

	if (a == r)
		return 0;
	if (a < r)
		lab[r] = a;
	else
		lab[a] = r;
	return 1;
}

/* Whether cell n, linked already, has no lower neighbour: its parent is
 * itself or a cell of its plateau, of its own height, where a cell that
 * descends has a strictly lower one. */
static inline int
is_flat(const basins *b, size_t n)
{
	uint32_t p = b->lab[n];

	return !(p & RESOLVED) && b->z[p] == b->z[n];
}

/* The eight neighbours: first the four before a cell in row order,
 * resolved before it, then the four after it. */
static const int DX[8] = { -1, 0, 1, -1, 1, -1, 0, 1 };
static const int DY[8] = { -1, -1, -1, 0, 0, 1, 1, 1 };

#define NOLOWER		8	/* code: no neighbour lower than the cell */
#define OUTSIDE_NB	16	/* code: a neighbour is outside: a seed */

/* code[x] for the inner cells x of a row starting at p: the neighbour
 * the cell drains to, the lowest of those strictly below it among the
 * four before it, else among the four after it (the first of equal
 * lowest), or NOLOWER; with OUTSIDE_NB when one is NaN or sea. Any lower
 * neighbour leaves the surface as it is; one before the cell is labelled
 * when the cell is, which spares the labelling a walk. */
static void
code_row_scalar(const float *p, ptrdiff_t s, int64_t w, float sea,
    int32_t *code)
{
	int64_t x;
	float m, u;
	int k, a, out;

	for (x = 1; x < w - 1; x++) {
		m = p[x];
		a = NOLOWER;
		out = 0;
		for (k = 0; k < 8; k++) {
			u = p[x + DY[k] * s + DX[k]];
			out |= tp_d8_outside(u, sea);
			if (u < m && (k < 4 || a == NOLOWER || a >= 4)) {
				m = u;
				a = k;
			}
		}
		code[x] = a | (out ? OUTSIDE_NB : 0);
	}
}

#ifdef TP_HAVE_SSE2
/* code_row_scalar four cells at a time, compare by compare: the same
 * codes. */
static void
code_row_sse2(const float *p, ptrdiff_t s, int64_t w, float sea,
    int32_t *code)
{
	const __m128 vsea = _mm_set1_ps(sea), ninf = _mm_set1_ps(-INFINITY);
	const __m128i none = _mm_set1_epi32(NOLOWER);
	const __m128i onb = _mm_set1_epi32(OUTSIDE_NB);
	__m128 m, u, lt, out, before = _mm_setzero_ps();
	__m128i a;
	int64_t x;
	int k;

	for (x = 1; x + 4 <= w - 1; x += 4) {
		m = _mm_loadu_ps(p + x);
		a = none;
		out = _mm_setzero_ps();
		for (k = 0; k < 8; k++) {
			u = _mm_loadu_ps(p + x + DY[k] * s + DX[k]);
			out = _mm_or_ps(out, _mm_and_ps(_mm_cmpnge_ps(u, vsea),
			    _mm_cmpneq_ps(u, ninf)));
			if (k == 4)	/* a lower one before: the cell's */
				before = _mm_castsi128_ps(_mm_xor_si128(
				    _mm_cmpeq_epi32(a, none),
				    _mm_set1_epi32(-1)));
			lt = _mm_andnot_ps(before, _mm_cmplt_ps(u, m));
			m = _mm_or_ps(_mm_and_ps(lt, u), _mm_andnot_ps(lt, m));
			a = _mm_or_si128(_mm_and_si128(_mm_castps_si128(lt),
			    _mm_set1_epi32(k)), _mm_andnot_si128(
			    _mm_castps_si128(lt), a));
		}
		_mm_storeu_si128((__m128i *)(code + x), _mm_or_si128(a,
		    _mm_and_si128(_mm_castps_si128(out), onb)));
		before = _mm_setzero_ps();
	}
	if (x < w - 1)
		code_row_scalar(p + x - 1, s, w - x + 1, sea, code + x - 1);
}
#endif

/* A minimum i of height v: a root, joined to the plateaus of the equal
 * minima linked before it in its band (the neighbours before it in row
 * order, those in the row above only when that row is the band's, above;
 * across a band's first row, join_bands). A plateau is labelled whole or in parts alike, each part
 * reached without climbing; joined, it makes fewer basins. */
static void
link_minimum(basins *b, lane *wk, size_t i, float v, int above)
{
	const ptrdiff_t s = (ptrdiff_t)b->stride;
	size_t n;
	int k;

	b->lab[i] = (uint32_t)i;
	wk->roots++;
	for (k = above ? 0 : 3; k < 4; k++) {
		n = (size_t)((ptrdiff_t)i + DY[k] * s + DX[k]);
		if (b->z[n] == v && is_flat(b, n))
			wk->roots -= unite(b->lab, (uint32_t)i, (uint32_t)n);
	}
}

/* Link row y's cells (a band from row y0): a seed (on the border or
 * beside a cell outside) to the outlets, another to the lower neighbour
 * it drains to, a minimum into its plateau. */
static void
link_row(basins *b, lane *wk, int64_t y, int64_t y0)
{
	const ptrdiff_t s = (ptrdiff_t)b->stride;
	const float *p = b->z + (size_t)y * b->stride;
	tp_fill_stats *st = &wk->st;
	int inner = y > 0 && y < b->h - 1;
	int64_t x;
	size_t i;
	int32_t c;

	if (inner) {
#ifdef TP_HAVE_SSE2
		if (b->simd >= TP_SIMD_SSE2)
			code_row_sse2(p, s, b->w, b->sea, wk->code);
		else
#endif
			code_row_scalar(p, s, b->w, b->sea, wk->code);
	}
	for (x = 0; x < b->w; x++) {
		i = (size_t)y * b->stride + (size_t)x;
		if (tp_d8_outside(p[x], b->sea)) {
			b->lab[i] = NONE;
			if (!isnan(p[x])) {
				st->valid++;
				st->sea++;
			}
			continue;
		}
		st->valid++;
		c = inner && x > 0 && x < b->w - 1 ? wk->code[x] : OUTSIDE_NB;
		if (c & OUTSIDE_NB) {
			b->lab[i] = OUTLETS;
			st->seeds++;
		} else if (c != NOLOWER)
			b->lab[i] = (uint32_t)((ptrdiff_t)i + DY[c] * s + DX[c]);
		else
			link_minimum(b, wk, i, p[x], y > y0);
	}
}

static void
link_bands(void *ctx, int64_t begin, int64_t end, int worker)
{
	basins *b = ctx;
	int64_t k, y;

	for (k = begin; k < end; k++) {
		for (y = k * BAND; y < b->h && y < (k + 1) * BAND; y++)
			link_row(b, &b->wk[worker], y, k * BAND);
		band_done(b, worker);
	}
}

/* Join the plateaus across the first row of each band but the first
 * (its minima and the equal minima above them), which the threads left;
 * the joins made. */
static int64_t
join_bands(basins *b)
{
	const ptrdiff_t s = (ptrdiff_t)b->stride;
	int64_t k, x;
	size_t i, n;
	int64_t joins = 0;
	int d;

	for (k = 1; k < b->bands; k++)
		for (x = 1; x < b->w - 1; x++) {
			i = (size_t)(k * BAND) * b->stride + (size_t)x;
			if (!is_flat(b, i))
				continue;
			for (d = 0; d < 3; d++) {
				n = (size_t)((ptrdiff_t)i - s + DX[d]);
				if (b->z[n] == b->z[i] && is_flat(b, n))
					joins += unite(b->lab, (uint32_t)i,
					    (uint32_t)n);
			}
		}
	return joins;
}

/* Label i with the basin at the end of its links: a resolved cell, or a
 * root, which opens a new basin; then every cell on the way, from the
 * first PATH kept, or walked again when longer. */
#define PATH	64

static void
resolve(basins *b, uint32_t i)
{
	uint32_t *lab = b->lab, path[PATH], r = i, l, nx;
	int n = 0;

	while (!(lab[r] & RESOLVED) && lab[r] != r) {
		if (n < PATH)
			path[n] = r;
		n++;
		r = lab[r];
	}
	if (!(lab[r] & RESOLVED))
		lab[r] = RESOLVED | b->n++;
	l = lab[r];
	if (n <= PATH) {
		while (n > 0)
			lab[path[--n]] = l;
		return;
	}
	for (r = i; !(lab[r] & RESOLVED); r = nx) {
		nx = lab[r];
		lab[r] = l;
	}
}

static void
resolve_row(basins *b, int64_t y)
{
	uint32_t *lab = b->lab, p, q;
	size_t i = (size_t)y * b->stride, end = i + (size_t)b->w;

	for (; i < end; i++) {
		if ((p = lab[i]) & RESOLVED)
			continue;
		/* most cells drain to one labelled already */
		if ((q = lab[p]) & RESOLVED)
			lab[i] = q;
		else
			resolve(b, (uint32_t)i);
	}
}

/* Keep weight v for basins a and c if it is their lowest yet: through
 * the worker's cache, which a boundary's cells hit one after another, so
 * that its hash, larger than the processor's caches, is seldom touched. */
static int
add_edge(lane *wk, uint32_t a, uint32_t c, float v)
{
	uint64_t key = tp_pairmin_key(a, c);
	size_t k = (size_t)((key * 0x9e3779b97f4a7c15u) >> 54);

	if (wk->ckey[k] == key) {
		if (v < wk->cwt[k])
			wk->cwt[k] = v;
		return 0;
	}
	if (wk->ckey[k] != 0 && tp_pairmin_put(&wk->ed, wk->ckey[k],
	    wk->cwt[k], "the basins' edges", &wk->e) < 0)
		return -1;
	wk->ckey[k] = key;
	wk->cwt[k] = v;
	return 0;
}

/* The edge from cell i, labelled l, to neighbour n. */
static inline int
edge_to(const basins *b, lane *wk, size_t i, uint32_t l, size_t n)
{
	uint32_t m = b->lab[n];

	if (m == l || m == NONE)
		return 0;
	return add_edge(wk, l & ~RESOLVED, m & ~RESOLVED,
	    b->z[i] > b->z[n] ? b->z[i] : b->z[n]);
}

/* The edges from row y's cells to their east, south-west, south and
 * south-east neighbours in other basins, weighted by the higher cell;
 * the inner cells of a basin, most, found by one test. */
static int
edges_row(const basins *b, lane *wk, int64_t y)
{
	const uint32_t *lab = b->lab;
	const size_t s = b->stride;
	size_t i = (size_t)y * s, end = i + (size_t)b->w - 1, first = i;
	int bad = 0;
	uint32_t l;

	if (y == b->h - 1) {
		for (; i < end; i++)
			if ((l = lab[i]) != NONE)
				bad |= edge_to(b, wk, i, l, i + 1);
		return bad;
	}
	for (; i <= end; i++) {
		if ((l = lab[i]) == NONE)
			continue;
		if (i > first && i < end && lab[i + 1] == l &&
		    lab[i + s - 1] == l && lab[i + s] == l &&
		    lab[i + s + 1] == l)
			continue;
		if (i < end)
			bad |= edge_to(b, wk, i, l, i + 1) |
			    edge_to(b, wk, i, l, i + s + 1);
		if (i > first)
			bad |= edge_to(b, wk, i, l, i + s - 1);
		bad |= edge_to(b, wk, i, l, i + s);
		if (bad)
			return -1;
	}
	return 0;
}

static void
edges_bands(void *ctx, int64_t begin, int64_t end, int worker)
{
	basins *b = ctx;
	lane *wk = &b->wk[worker];
	int64_t k, y;

	for (k = begin; k < end && !wk->failed; k++) {
		for (y = k * BAND; y < b->h && y < (k + 1) * BAND; y++)
			if (edges_row(b, wk, y) < 0) {
				wk->failed = 1;
				break;
			}
		band_done(b, worker);
	}
}

/* Every worker's edges, cached or hashed, into worker 0's hash: the
 * lowest weight of each pair, whichever thread saw it. */
static int
edges_merge(basins *b, tp_err *e)
{
	lane *w0 = &b->wk[0], *wk;
	size_t j;
	int t;

	for (t = 0; t < b->threads; t++) {
		wk = &b->wk[t];
		if (wk->failed)
			return tp_err_set(e, "%s", wk->e.msg);
		for (j = 0; j < CACHE; j++)
			if (wk->ckey[j] != 0 && tp_pairmin_put(&w0->ed,
			    wk->ckey[j], wk->cwt[j], "the basins' edges", e) < 0)
				return -1;
		for (j = 0; t > 0 && j < wk->ed.cap; j++)
			if (wk->ed.key[j] != 0 && tp_pairmin_put(&w0->ed,
			    wk->ed.key[j], wk->ed.v[j], "the basins' edges",
			    e) < 0)
				return -1;
	}
	return 0;
}

/* The basins' edges as lists: basin a's neighbours are nb[off[a]] to
 * nb[off[a + 1]], with their weights in wt. */
typedef struct adj {
	size_t	*off;
	uint32_t *nb;
	float	*wt;
} adj;

static int
adj_build(const basins *b, adj *g, tp_err *e)
{
	const tp_pairmin *ed = &b->wk[0].ed;
	size_t j, *at;
	uint32_t lo, hi;

	g->off = calloc((size_t)b->n + 1, sizeof *g->off);
	g->nb = malloc((2 * ed->n + 1) * sizeof *g->nb);
	g->wt = malloc((2 * ed->n + 1) * sizeof *g->wt);
	if (g->off == NULL || g->nb == NULL || g->wt == NULL)
		return tp_err_set(e, "out of memory: %zu edges between basins",
		    ed->n);
	for (j = 0; j < ed->cap; j++)
		if (ed->key[j] != 0) {
			g->off[ed->key[j] >> 32]++;
			g->off[(uint32_t)ed->key[j]]++;
		}
	for (j = 1; j <= b->n; j++)
		g->off[j] += g->off[j - 1];
	/* off[a] is now the end of a's list: fill it backwards */
	at = g->off;
	for (j = 0; j < ed->cap; j++) {
		if (ed->key[j] == 0)
			continue;
		lo = (uint32_t)(ed->key[j] >> 32);
		hi = (uint32_t)ed->key[j];
		at[lo]--;
		g->nb[at[lo]] = hi;
		g->wt[at[lo]] = ed->v[j];
		at[hi]--;
		g->nb[at[hi]] = lo;
		g->wt[at[hi]] = ed->v[j];
	}
	return 0;
}

/* Each basin's level: the least, over ways out through other basins, of
 * the highest edge on the way (Dijkstra on bottlenecks from the outlets'
 * basin, whose level is -inf). */
static int
solve(basins *b, tp_err *e)
{
	adj g = { NULL, NULL, NULL };
	tp_kheap hp = { NULL, 0, 0 };
	uint32_t a, c;
	uint64_t k;
	size_t j;
	float v;
	int rc = -1;

	if (adj_build(b, &g, e) < 0)
		goto out;
	if (tp_kheap_push(&hp, tp_kheap_key(-INFINITY, 0), "the basins' queue",
	    e) < 0)
		goto out;
	while (hp.n > 0) {
		k = tp_kheap_pop(&hp);
		a = (uint32_t)k;
		if ((uint32_t)(k >> 32) != tp_kheap_fkey(b->lev[a]))
			continue;	/* lowered since */
		for (j = g.off[a]; j < g.off[a + 1]; j++) {
			c = g.nb[j];
			v = g.wt[j] > b->lev[a] ? g.wt[j] : b->lev[a];
			if (v < b->lev[c]) {
				b->lev[c] = v;
				if (tp_kheap_push(&hp, tp_kheap_key(v, c),
				    "the basins' queue", e) < 0)
					goto out;
			}
		}
	}
	rc = 0;
out:
	free(g.off);
	free(g.nb);
	free(g.wt);
	tp_kheap_free(&hp);
	return rc;
}

static void
raise_bands(void *ctx, int64_t begin, int64_t end, int worker)
{
	basins *b = ctx;
	size_t i, stop;
	int64_t k, y;
	uint32_t l;
	float v;

	for (k = begin; k < end; k++) {
		for (y = k * BAND; y < b->h && y < (k + 1) * BAND; y++) {
			i = (size_t)y * b->stride;
			for (stop = i + (size_t)b->w; i < stop; i++) {
				if ((l = b->lab[i]) == NONE || l == OUTLETS)
					continue;
				/* + 0.0f: a level of -0 raises to +0, as
				 * tp_fill_pf */
				v = b->lev[l & ~RESOLVED] + 0.0f;
				if (b->z[i] < v) {
					b->z[i] = v;
					b->wk[worker].st.raised++;
				}
			}
		}
		band_done(b, worker);
	}
}

/* One pass over the bands on the threads. */
static void
bands(basins *b, int pass, tp_par_fn fn)
{
	b->pass = pass;
	atomic_store(&b->done, 0);
	tp_par_for(b->threads, b->bands, 1, fn, b);
}

/* 0 done, 1 declined (z untouched), -1 an error. */
static int
run(basins *b, tp_err *e)
{
	int64_t y, roots;
	uint32_t a;
	int t;

	bands(b, PASS_LINK, link_bands);
	roots = -join_bands(b);
	for (t = 0; t < b->threads; t++)
		roots += b->wk[t].roots;
	if (b->max_basins > 0 && roots > b->max_basins)
		return 1;
	b->n = 1;
	for (y = 0; y < b->h; y++) {
		tell(b, y);
		resolve_row(b, y);
	}
	bands(b, PASS_EDGES, edges_bands);
	if (edges_merge(b, e) < 0)
		return -1;
	if ((b->lev = malloc((size_t)b->n * sizeof *b->lev)) == NULL)
		return tp_err_set(e, "out of memory: %u basins", b->n);
	b->lev[0] = -INFINITY;
	for (a = 1; a < b->n; a++)
		b->lev[a] = INFINITY;
	if (solve(b, e) < 0)
		return -1;
	bands(b, PASS_RAISE, raise_bands);
	if (b->progress != NULL)
		b->progress(b->pctx, b->cells, b->cells);
	return 0;
}

/* The workers, each with a row of codes. */
static int
workers_alloc(basins *b, tp_err *e)
{
	int t;

	if ((b->wk = calloc((size_t)b->threads, sizeof *b->wk)) == NULL)
		return tp_err_set(e, "out of memory");
	for (t = 0; t < b->threads; t++)
		if ((b->wk[t].code = malloc((size_t)b->w *
		    sizeof *b->wk[t].code)) == NULL)
			return tp_err_set(e, "out of memory");
	return 0;
}

static void
basins_free(basins *b)
{
	int t;

	for (t = 0; b->wk != NULL && t < b->threads; t++) {
		free(b->wk[t].code);
		tp_pairmin_free(&b->wk[t].ed);
	}
	free(b->wk);
	free(b->lab);
	free(b->lev);
}

/* The plane's checks, tp_fill.c's, and the memory the labels take. */
static int
check(int64_t w, int64_t h, size_t stride, double sea_level, size_t *span,
    tp_err *e)
{
	if (w < 1 || h < 1 || stride < (size_t)w)
		return tp_err_set(e, "bad plane %lldx%lld, stride %zu",
		    (long long)w, (long long)h, stride);
	if ((uint64_t)h > SIZE_MAX / stride)
		return tp_err_set(e, "plane too large");
	if (isnan(sea_level))
		return tp_err_set(e, "the sea level must be a number");
	*span = (size_t)(h - 1) * stride + (size_t)w;
	if ((uint64_t)*span > RESOLVED)
		return tp_err_set(e, "plane of %zu samples is too large to fill "
		    "(at most 2^31)", *span);
	/* beyond the machine's memory the labels would swap: refused, so
	 * that the caller floods, a bit a cell */
	return tp_num_check_mem((uint64_t)*span * (sizeof(float) +
	    sizeof(uint32_t)), "the basins' labels beside the heights", e);
}

int
tp_fillbasin_flat(float *z, int64_t w, int64_t h, size_t stride,
    double sea_level, int threads, int64_t max_basins, tp_fill_stats *st,
    tp_progress_fn progress, void *pctx, tp_err *e)
{
	tp_fill_stats dummy;
	basins b;
	size_t span = 0;
	int rc = -1, t;

	if (check(w, h, stride, sea_level, &span, e) < 0)
		return -1;
	if (st == NULL)
		st = &dummy;
	memset(st, 0, sizeof *st);
	memset(&b, 0, sizeof b);
	b.z = z;
	b.w = w;
	b.h = h;
	b.stride = stride;
	b.sea = tp_d8_sea_below(sea_level);
	b.bands = (h + BAND - 1) / BAND;
	b.max_basins = max_basins;
	b.threads = tp_par_threads(threads);
	if (b.threads > b.bands)
		b.threads = (int)b.bands;
	b.progress = progress;
	b.pctx = pctx;
	b.simd = tp_simd_probe();
	b.cells = w * h;
	if ((b.lab = malloc(span * sizeof *b.lab)) == NULL)
		tp_err_set(e, "out of memory: filling needs %.1f MiB",
		    span * 4.0 / 1048576.0);
	else if (workers_alloc(&b, e) == 0 && (rc = run(&b, e)) == 0)
		for (t = 0; t < b.threads; t++) {
			st->valid += b.wk[t].st.valid;
			st->sea += b.wk[t].st.sea;
			st->seeds += b.wk[t].st.seeds;
			st->raised += b.wk[t].st.raised;
		}
	basins_free(&b);
	return rc;
}
