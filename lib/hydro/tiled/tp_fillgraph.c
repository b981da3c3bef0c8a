/* tp_fillgraph.c - ring graphs of tiles and the flat fill's solve on them
 * (see tp_fillgraph.h for why it is exact). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_d8.h"
#include "hydro/tiled/tp_fillgraph.h"
#include "core/tp_kheap.h"
#include "core/tp_pairmin.h"

/* Labels: a ring place, DONE added once the cell is taken out. */
enum { HALO = -2, OPEN = -1, DONE = 0x40000000 };

static int
edge_cmp(const void *x, const void *y)
{
	const tp_fillgraph_edge *a = x, *b = y;

	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return (a->b > b->b) - (a->b < b->b);
}

/* The lowest level at which each two labels meet, as sorted edges. */
static int
pairs_edges(const tp_pairmin *p, tp_fillgraph *gr, tp_err *e)
{
	size_t i, k = 0;

	gr->n = 0;
	gr->e = NULL;
	if (p->n == 0)
		return 0;
	if ((gr->e = malloc(p->n * sizeof *gr->e)) == NULL)
		return tp_err_set(e, "out of memory: a ring graph of %zu edges",
		    p->n);
	for (i = 0; i < p->cap; i++)
		if (p->key[i] != 0) {
			gr->e[k].a = (int32_t)(p->key[i] >> 32);
			gr->e[k].b = (int32_t)(uint32_t)p->key[i];
			gr->e[k++].s = p->v[i];
		}
	qsort(gr->e, k, sizeof *gr->e, edge_cmp);
	gr->n = (int64_t)k;
	return 0;
}

/* ---- one tile: the flood from every ring cell at once ---- */

/* The flood's queue: cells on slopes in a radix heap by level, cells a
 * depression takes at the level of the cell that took them in a FIFO
 * (their levels come in order); the lowest first, the FIFO on a tie. */
typedef struct rqueue {
	tp_kheap_radix h;
	tp_kheap_fifo f;
} rqueue;

#define AHEAD	8	/* FIFO places prefetched ahead */

/* Labels over the halo plane: HALO for the halo and the cells outside
 * (NaN, sea), each ring cell its own place, OPEN the rest; ring cells
 * queued at their heights. */
static int
seed_ring(const tp_filltile_tile *t, float sea, int32_t *lab, rqueue *q,
    tp_err *e)
{
	size_t ps = (size_t)t->w + 2, n = ps * (size_t)(t->h + 2), i;
	int64_t x, y, step;

	for (i = 0; i < n; i++)
		lab[i] = HALO;
	for (y = 0; y < t->h; y++)
		for (x = 0; x < t->w; x++) {
			i = (size_t)(y + 1) * ps + (size_t)x + 1;
			if (!tp_d8_outside(t->z[i], sea))
				lab[i] = OPEN;
		}
	for (y = 0; y < t->h; y++) {
		step = (y == 0 || y == t->h - 1) ? 1 :
		    (t->w > 1 ? t->w - 1 : 1);
		for (x = 0; x < t->w; x += step) {
			i = (size_t)(y + 1) * ps + (size_t)x + 1;
			if (lab[i] != OPEN)
				continue;
			lab[i] = (int32_t)tp_filltile_ring_at(t->w, t->h, x, y);
			if (tp_kheap_radix_push(&q->h, tp_kheap_key(t->z[i], i),
			    e) < 0)
				return -1;
		}
	}
	return 0;
}

/* A key's float again (tp_kheap_fkey's inverse). */
static inline float
key_level(uint64_t k)
{
	uint32_t b = (uint32_t)(k >> 32);
	float v;

	b = (b & 0x80000000u) ? (b & 0x7fffffffu) : ~b;
	memcpy(&v, &b, sizeof v);
	return v;
}

/* Start loading the rows around a cell likely to come soon: the flood is
 * bound by these cache misses, not by its queue. */
static inline void
prefetch(const tp_filltile_tile *t, const int32_t *lab, size_t c)
{
	ptrdiff_t ps = (ptrdiff_t)t->w + 2, at;

	/* c is inside the tile, so the rows above and below are the
	 * halo's at worst */
	for (int k = -1; k <= 1; k++) {
		at = (ptrdiff_t)c + k * ps;
		__builtin_prefetch(lab + at);
		__builtin_prefetch(t->z + at);
	}
}

static inline int
next(const tp_filltile_tile *t, const int32_t *lab, rqueue *q, uint64_t *top,
    tp_err *e)
{
	if (q->f.n > AHEAD)
		prefetch(t, lab, (uint32_t)q->f.a[(q->f.head + AHEAD) &
		    (q->f.cap - 1)]);
	if (q->f.n > 0 && (q->h.n == 0 ||
	    (uint32_t)(q->f.a[q->f.head] >> 32) <= tp_kheap_radix_min(&q->h))) {
		*top = tp_kheap_fifo_pop(&q->f);
		return 0;
	}
	if (tp_kheap_radix_pop(&q->h, top, e) < 0)
		return -1;
	if (q->h.n > 0)
		prefetch(t, lab, (uint32_t)tp_kheap_radix_peek(&q->h));
	return 0;
}

/* The flood. A cell's level is its key's; a cell taken at the level of
 * the cell that took it waits in the FIFO, the rest in the heap. Two
 * neighbours of different labels meet at the level of the one taken out
 * later, found when it is taken out (the other is DONE then). */
static int
flood(const tp_filltile_tile *t, int32_t *lab, rqueue *q, tp_pairmin *p,
    tp_err *e)
{
	ptrdiff_t off[9];
	uint64_t top;
	size_t i, nb;
	int32_t L, me;
	float lev;
	int k, r;

	tp_d8_offsets((ptrdiff_t)(t->w + 2), off);
	while (q->h.n + q->f.n > 0) {
		if (next(t, lab, q, &top, e) < 0)
			return -1;
		i = (size_t)(uint32_t)top;
		lev = key_level(top);
		me = lab[i];
		lab[i] = me | DONE;
		for (k = 1; k <= 8; k++) {
			nb = (size_t)((ptrdiff_t)i + off[k]);
			if ((L = lab[nb]) == HALO)
				continue;
			if (L == OPEN) {
				lab[nb] = me;
				r = t->z[nb] > lev ? tp_kheap_radix_push(&q->h,
				    tp_kheap_key(t->z[nb], nb), e) :
				    tp_kheap_fifo_push(&q->f, tp_kheap_key(lev,
				        nb),
				    "the ring flood", e);
				if (r < 0)
					return -1;
			} else if ((L & DONE) && (L & ~DONE) != me &&
			    tp_pairmin_put(p, tp_pairmin_key((uint32_t)me,
			    (uint32_t)(L & ~DONE)), lev, "a ring graph", e) < 0)
				return -1;
		}
	}
	return 0;
}

int
tp_fillgraph_build(const tp_filltile_tile *t, double sea_level,
    tp_fillgraph *gr, tp_err *e)
{
	size_t ps = (size_t)t->w + 2, n = ps * (size_t)(t->h + 2);
	float sea = tp_d8_sea_below(sea_level);
	int32_t *lab;
	rqueue q;
	tp_pairmin p = { NULL, NULL, 0, 0 };
	int r = -1;

	gr->e = NULL;
	gr->n = 0;
	if (n >= (size_t)1 << 32 || 2 * (t->w + t->h) >= DONE)
		return tp_err_set(e, "a tile of %lldx%lld cells is too large "
		    "for a ring graph", (long long)t->w, (long long)t->h);
	tp_kheap_radix_init(&q.h);
	memset(&q.f, 0, sizeof q.f);
	if ((lab = malloc(n * sizeof *lab)) == NULL)
		tp_err_set(e, "out of memory: a ring graph needs %.1f MiB",
		    (double)n * 4 / 1048576.0);
	else if (seed_ring(t, sea, lab, &q, e) == 0 &&
	    flood(t, lab, &q, &p, e) == 0)
		r = pairs_edges(&p, gr, e);
	free(lab);
	tp_pairmin_free(&p);
	tp_kheap_radix_free(&q.h);
	tp_kheap_fifo_free(&q.f);
	return r;
}

void
tp_fillgraph_free(tp_fillgraph *gr)
{
	free(gr->e);
	gr->e = NULL;
	gr->n = 0;
}

/* ---- the solve over all tiles ---- */

typedef struct solve {
	const tp_filltile_tiling *g;
	tp_filltile_ring *rings;
	int64_t	*off;		/* tile t's ring cells: off[t] .. off[t+1] */
	int64_t	*first;		/* node u's arcs: first[u] .. first[u+1] */
	uint32_t *to;		/* arc targets, nodes */
	float	*w;		/* arc levels */
	float	*dist;		/* per node: NaN where no node (outside, or a
				   corner's second place) */
	float	sea;
	tp_kheap h;
} solve;

/* The tile holding node u. */
static int64_t
tile_of(const solve *s, int64_t u)
{
	int64_t lo = 0, hi = s->g->rows * s->g->cols - 1, mid;

	while (lo < hi) {
		mid = (lo + hi + 1) / 2;
		if (s->off[mid] <= u)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* Calls fn(s, u, zu, v, zv) for every neighbour v (height zv) of node u
 * (height zu) in another tile; v = -1 when that cell is outside (NaN or
 * sea). */
typedef int (*cross_fn)(solve *s, int64_t u, float zu, int64_t v, float zv,
    tp_err *e);

static int
cross(solve *s, int64_t u, cross_fn fn, tp_err *e)
{
	const tp_filltile_tiling *g = s->g;
	int64_t t = tile_of(s, u), x, y, gx, gy, nc, nr, nt, j;
	const tp_filltile_ring *r = &s->rings[t], *nrg;
	int k;

	tp_filltile_ring_cell(r->w, r->h, u - s->off[t], &x, &y);
	for (k = 1; k <= 8; k++) {
		gx = (t % g->cols) * g->tw + x + tp_d8_dx[k];
		gy = (t / g->cols) * g->th + y + tp_d8_dy[k];
		if (gx < 0 || gy < 0 || gx >= g->width || gy >= g->height)
			continue;	/* prepare's halo saw the edge */
		nc = gx / g->tw;
		nr = gy / g->th;
		if ((nt = nr * g->cols + nc) == t)
			continue;
		nrg = &s->rings[nt];
		j = (int64_t)tp_filltile_ring_at(nrg->w, nrg->h,
		    gx - nc * g->tw, gy - nr * g->th);
		if (fn(s, u, r->z[u - s->off[t]], tp_d8_outside(nrg->z[j], s->sea) ?
		    -1 : s->off[nt] + j, nrg->z[j], e) < 0)
			return -1;
	}
	return 0;
}

/* A ring cell beside an outside cell of another tile is a seed. */
static int
seed_cross(solve *s, int64_t u, float zu, int64_t v, float zv, tp_err *e)
{
	(void)zv;
	(void)e;
	if (v < 0 && zu < s->dist[u])
		s->dist[u] = zu;
	return 0;
}

static int
lower(solve *s, int64_t v, float c, tp_err *e)
{
	if (!(c < s->dist[v]))
		return 0;
	s->dist[v] = c;
	return tp_kheap_push(&s->h, tp_kheap_key(c, (uint64_t)v),
	    "the ring solve", e);
}

/* A step into v takes max(z(v), level of u), as tp_fill's flat rule. */
static int
step_cross(solve *s, int64_t u, float zu, int64_t v, float zv, tp_err *e)
{
	(void)zu;
	if (v < 0)
		return 0;
	return lower(s, v, zv > s->dist[u] ? zv : s->dist[u], e);
}

/* The nodes: each ring cell inside at its first place, at its height in
 * the tile filled alone, or its own height beside an outside cell. */
static int
init_nodes(solve *s, tp_err *e)
{
	int64_t t, i, x, y, T = s->g->rows * s->g->cols;
	const tp_filltile_ring *r;

	for (t = 0; t < T; t++) {
		r = &s->rings[t];
		for (i = 0; i < 2 * r->w + 2 * r->h; i++) {
			size_t at;

			tp_filltile_ring_cell(r->w, r->h, i, &x, &y);
			at = tp_filltile_ring_at(r->w, r->h, x, y);
			s->dist[s->off[t] + i] = at == (size_t)i &&
			    !tp_d8_outside(r->z[i], s->sea) ? r->f[i] : NAN;
		}
	}
	for (i = 0; i < s->off[T]; i++)
		if (!isnan(s->dist[i]) && cross(s, i, seed_cross, e) < 0)
			return -1;
	return 0;
}

/* The arcs of every tile's graph, both ways, in compressed rows. */
static int
build_arcs(solve *s, const tp_fillgraph *gr, tp_err *e)
{
	int64_t t, k, u, v, N = s->off[s->g->rows * s->g->cols], T;
	int64_t arcs = 0, *fill;

	T = s->g->rows * s->g->cols;
	if ((s->first = calloc((size_t)N + 1, sizeof *s->first)) == NULL)
		return tp_err_set(e, "out of memory for %lld ring cells",
		    (long long)N);
	for (t = 0; t < T; t++)
		for (k = 0; k < gr[t].n; k++) {
			s->first[s->off[t] + gr[t].e[k].a + 1]++;
			s->first[s->off[t] + gr[t].e[k].b + 1]++;
			arcs += 2;
		}
	for (u = 0; u < N; u++)
		s->first[u + 1] += s->first[u];
	s->to = malloc((size_t)(arcs > 0 ? arcs : 1) * sizeof *s->to);
	s->w = malloc((size_t)(arcs > 0 ? arcs : 1) * sizeof *s->w);
	fill = malloc((size_t)N * sizeof *fill + 1);
	if (s->to == NULL || s->w == NULL || fill == NULL) {
		free(fill);
		return tp_err_set(e, "out of memory for %lld ring graph arcs",
		    (long long)arcs);
	}
	memcpy(fill, s->first, (size_t)N * sizeof *fill);
	for (t = 0; t < T; t++)
		for (k = 0; k < gr[t].n; k++) {
			u = s->off[t] + gr[t].e[k].a;
			v = s->off[t] + gr[t].e[k].b;
			s->to[fill[u]] = (uint32_t)v;
			s->w[fill[u]++] = gr[t].e[k].s;
			s->to[fill[v]] = (uint32_t)u;
			s->w[fill[v]++] = gr[t].e[k].s;
		}
	free(fill);
	return 0;
}

/* Dijkstra on minimax levels from every node's first bound. */
static int
flood_rings(solve *s, tp_err *e)
{
	int64_t u, a, N = s->off[s->g->rows * s->g->cols];
	uint64_t top;
	float c;

	for (u = 0; u < N; u++)
		if (s->dist[u] < INFINITY && tp_kheap_push(&s->h,
		    tp_kheap_key(s->dist[u], (uint64_t)u), "the ring solve",
		    e) < 0)
			return -1;
	while (s->h.n > 0) {
		top = tp_kheap_pop(&s->h);
		u = (int64_t)(uint32_t)top;
		if (tp_kheap_fkey(s->dist[u]) != (uint32_t)(top >> 32))
			continue;	/* lowered since */
		for (a = s->first[u]; a < s->first[u + 1]; a++) {
			c = s->w[a] > s->dist[u] ? s->w[a] : s->dist[u];
			if (lower(s, s->to[a], c, e) < 0)
				return -1;
		}
		if (cross(s, u, step_cross, e) < 0)
			return -1;
	}
	return 0;
}

/* The levels back into the rings, a corner's second place too. */
static void
store(solve *s)
{
	int64_t t, i, x, y, T = s->g->rows * s->g->cols;
	tp_filltile_ring *r;

	for (t = 0; t < T; t++) {
		r = &s->rings[t];
		for (i = 0; i < 2 * r->w + 2 * r->h; i++) {
			tp_filltile_ring_cell(r->w, r->h, i, &x, &y);
			int64_t c = (int64_t)tp_filltile_ring_at(r->w, r->h, x,
			    y);

			if (!isnan(s->dist[s->off[t] + c]))
				r->f[i] = s->dist[s->off[t] + c];
		}
	}
}

int
tp_fillgraph_solve(const tp_filltile_tiling *g, tp_filltile_ring *rings,
    const tp_fillgraph *graphs, tp_err *e)
{
	int64_t t, T = g->rows * g->cols;
	solve s = { g, rings, NULL, NULL, NULL, NULL, NULL,
	    tp_d8_sea_below(g->sea_level), { NULL, 0, 0 } };
	int r = -1;

	if ((s.off = malloc((size_t)(T + 1) * sizeof *s.off)) == NULL)
		return tp_err_set(e, "out of memory for %lld tiles",
		    (long long)T);
	s.off[0] = 0;
	for (t = 0; t < T; t++)
		s.off[t + 1] = s.off[t] + 2 * rings[t].w + 2 * rings[t].h;
	if (s.off[T] >= INT64_C(1) << 32)
		tp_err_set(e, "%lld ring cells are too many for one solve: "
		    "use larger tiles", (long long)s.off[T]);
	else if ((s.dist = malloc((size_t)s.off[T] * sizeof *s.dist + 1)) ==
	    NULL)
		tp_err_set(e, "out of memory for %lld ring cells",
		    (long long)s.off[T]);
	else if (init_nodes(&s, e) == 0 && build_arcs(&s, graphs, e) == 0 &&
	    flood_rings(&s, e) == 0) {
		store(&s);
		r = 0;
	}
	free(s.off);
	free(s.first);
	free(s.to);
	free(s.w);
	free(s.dist);
	tp_kheap_free(&s.h);
	return r;
}
