/*
 * tp_flat.c - directions across flats: Barnes et al. (2014), or toward the
 * nearest cell of the low edge.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_flat.h"
#include "hydro/tp_d8.h"

#define DIR_NEW		0x40	/* set during the nearest pass on fresh cells */
#define RING		0x80	/* found in the ring being built */


typedef struct flat_plane {
	const float *z;
	int64_t	w, h;
	size_t	stride;
	uint8_t	*dir;
} flat_plane;

static inline float
height(const flat_plane *p, int64_t x, int64_t y)
{
	return p->z[(size_t)y * p->stride + (size_t)x];
}

int
tp_flat_rule(const char *s)
{
	if (strcmp(s, "converge") == 0)
		return TP_FLAT_CONVERGE;
	if (strcmp(s, "nearest") == 0)
		return TP_FLAT_NEAREST;
	if (strcmp(s, "middle") == 0)
		return TP_FLAT_MIDDLE;
	return -1;
}

/* --- nearest: rings from the low edge, directions set as they grow --- */

/* Flat cell j, found from cell i by step k (i to j), one ring further out:
 * new, it takes the way back to i; found before in this ring, the first
 * such way in code order (so the rule is one of the distances alone, not
 * of the queue's order). */
static inline int
near_reach(uint8_t *dir, size_t j, int k)
{
	uint8_t back = (uint8_t)tp_d8_back(k);

	if (dir[j] == TP_D8_SINK) {
		dir[j] = (uint8_t)(back | DIR_NEW | RING);
		return 1;
	}
	if ((dir[j] & RING) && back < (dir[j] & 0x0f))
		dir[j] = (uint8_t)(back | DIR_NEW | RING);
	return 0;
}

/* Ring after ring of the flats from the seeds q[0..nq): returns the flat
 * cells in q, each ring's cells after the previous ring's. */
static size_t
near_rings(const flat_plane *p, size_t *q, size_t nq)
{
	size_t head = 0, end, i, j, r, w = (size_t)p->w;
	int64_t x, y, nx, ny;
	float zu;
	int k;

	while (head < nq) {
		for (end = nq; head < end; head++) {
			i = q[head];
			x = (int64_t)(i % w);
			y = (int64_t)(i / w);
			zu = height(p, x, y);
			for (k = 1; k <= 8; k++) {
				if (!tp_d8_inside(x, y, k, p->w, p->h, &nx, &ny))
					continue;
				j = (size_t)ny * w + (size_t)nx;
				if (height(p, nx, ny) == zu &&
				    near_reach(p->dir, j, k))
					q[nq++] = j;
			}
		}
		for (r = end; r < nq; r++)
			p->dir[q[r]] &= (uint8_t)~RING;
	}
	return nq;
}

/* Distance 1: a flat cell next to a cell of its height that drains takes
 * the direction to the first such neighbour; at d >= 2 the first
 * neighbour in code order at d - 1. */
static size_t
near_resolve(const flat_plane *p, size_t *q)
{
	size_t n = (size_t)p->w * (size_t)p->h, i, nq = 0, head;
	int64_t x, y, nx, ny;
	uint8_t dn;
	int k;

	for (i = 0; i < n; i++) {
		if (p->dir[i] != TP_D8_SINK)
			continue;
		x = (int64_t)(i % (size_t)p->w);
		y = (int64_t)(i / (size_t)p->w);
		for (k = 1; k <= 8; k++) {
			if (!tp_d8_inside(x, y, k, p->w, p->h, &nx, &ny))
				continue;
			dn = p->dir[(size_t)ny * (size_t)p->w + (size_t)nx];
			if (dn != TP_D8_SINK && !(dn & DIR_NEW) &&
			    height(p, nx, ny) == height(p, x, y)) {
				p->dir[i] = (uint8_t)(k | DIR_NEW);
				q[nq++] = i;
				break;
			}
		}
	}
	nq = near_rings(p, q, nq);
	for (head = 0; head < nq; head++)
		p->dir[q[head]] &= (uint8_t)~DIR_NEW;
	return nq;
}

/* --- converge: two breadth-first distances, then one choice per cell --- */

/* RichDEM's neighbour order, W first, clockwise: ties go to the first. */
static const int conv_order[8] = { TP_D8_W, TP_D8_NW, TP_D8_N, TP_D8_NE,
    TP_D8_E, TP_D8_SE, TP_D8_S, TP_D8_SW };

#define LOW	0x01	/* fl: next to a cell of its height that drains */
#define HIGH	0x02	/* fl: next to a higher cell */
#define SEEN	0x04	/* fl: taken into its flat's list */

/* A binary min-heap of (cost, cell), lowest cost first, the lower cell on
 * a tie: the lake routes' costs span the rim's 1 to the middle's 1/d^4,
 * past a float's precision, so they are doubles. */
typedef struct wentry {
	double	c;
	uint32_t i;
} wentry;

typedef struct wheap {
	wentry	*a;
	size_t	n, cap;
} wheap;

static inline int
wheap_less(wentry x, wentry y)
{
	return x.c < y.c || (x.c == y.c && x.i < y.i);
}

static int
wheap_push(wheap *h, double c, uint32_t i, tp_err *e)
{
	wentry v = { c, i }, *na;
	size_t k, p, cap;

	if (h->n == h->cap) {
		cap = h->cap ? 2 * h->cap : 4096;
		if ((na = realloc(h->a, cap * sizeof *na)) == NULL)
			return tp_err_set(e, "out of memory: the lake routes");
		h->a = na;
		h->cap = cap;
	}
	for (k = h->n++; k > 0 && wheap_less(v, h->a[p = (k - 1) / 2]); k = p)
		h->a[k] = h->a[p];
	h->a[k] = v;
	return 0;
}

/* Take the lowest entry; the heap holds one. */
static wentry
wheap_pop(wheap *h)
{
	wentry top = h->a[0], last = h->a[--h->n];
	size_t k = 0, ch;

	while ((ch = 2 * k + 1) < h->n) {
		if (ch + 1 < h->n && wheap_less(h->a[ch + 1], h->a[ch]))
			ch++;
		if (!wheap_less(h->a[ch], last))
			break;
		h->a[k] = h->a[ch];
		k = ch;
	}
	h->a[k] = last;
	return top;
}

/* The work of the converging rule. A flat is resolved whole before the
 * next, its cells listed in l: the searches stay in the few rows it
 * covers, in cache, instead of sweeping the grid ring by ring. */
typedef struct conv {
	const flat_plane *p;
	ptrdiff_t oc[9];	/* neighbour steps in the compact planes */
	uint8_t	*nb;		/* bit k - 1: neighbour k is of the flat */
	uint8_t	*fl;		/* LOW, HIGH, SEEN */
	uint32_t *a, *b;	/* steps from the low and the high edge */
	size_t	*l, *q;		/* a flat's cells; a search's queue */
	const uint8_t *wet;	/* lake cells, or NULL */
	int	middle;		/* every flat routed as water is */
	double	*c;		/* with wet: the lake routes' costs */
	float	*wt;		/* and the cells' weights */
	wheap	hp;		/* and their queue */
} conv;

/* Flat cell i's links (nb) and edges (fl). A flat cell is never on the
 * border (it would drain off the grid), so its neighbours need no bounds
 * checks. */
static void
conv_links(conv *cv, size_t i, const float *zp, const ptrdiff_t oz[9])
{
	int k;

	for (k = 1; k <= 8; k++) {
		if (zp[oz[k]] > zp[0])
			cv->fl[i] |= HIGH;
		else if (zp[oz[k]] != zp[0])
			continue;
		else if (cv->p->dir[i + (size_t)cv->oc[k]] == TP_D8_SINK)
			cv->nb[i] |= (uint8_t)(1u << (k - 1));
		else
			cv->fl[i] |= LOW;
	}
}

static void
conv_scan(conv *cv)
{
	const flat_plane *p = cv->p;
	ptrdiff_t oz[9];
	int64_t x, y;
	size_t i;

	tp_d8_offsets((ptrdiff_t)p->stride, oz);
	for (y = 1; y < p->h - 1; y++)
		for (x = 1; x < p->w - 1; x++) {
			i = (size_t)y * (size_t)p->w + (size_t)x;
			if (p->dir[i] == TP_D8_SINK)
				conv_links(cv, i, p->z + (size_t)y * p->stride +
				    (size_t)x, oz);
		}
}

/* The flat of cell i into l (a search along nb); its size. */
static size_t
conv_collect(conv *cv, size_t i)
{
	size_t m = 1, head, j;
	unsigned bits;

	cv->fl[i] |= SEEN;
	cv->l[0] = i;
	for (head = 0; head < m; head++)
		for (bits = cv->nb[cv->l[head]]; bits; bits &= bits - 1) {
			j = cv->l[head] + (size_t)cv->oc[__builtin_ctz(bits) + 1];
			if (!(cv->fl[j] & SEEN)) {
				cv->fl[j] |= SEEN;
				cv->l[m++] = j;
			}
		}
	return m;
}

/* The distances d from the flat's cells flagged `edge` (d = 1), spread
 * along nb; returns the cells reached. */
static size_t
conv_spread(conv *cv, size_t m, uint8_t edge, uint32_t *d)
{
	size_t nq = 0, head, i, j;
	unsigned bits;

	for (i = 0; i < m; i++)
		if (cv->fl[cv->l[i]] & edge) {
			d[cv->l[i]] = 1;
			cv->q[nq++] = cv->l[i];
		}
	for (head = 0; head < nq; head++) {
		i = cv->q[head];
		for (bits = cv->nb[i]; bits; bits &= bits - 1) {
			j = i + (size_t)cv->oc[__builtin_ctz(bits) + 1];
			if (d[j] == 0) {
				d[j] = d[i] + 1;
				cv->q[nq++] = j;
			}
		}
	}
	return nq;
}

/* The direction of a flat cell next to the low edge: into it, its first
 * such neighbour in conv_order, a cell on the border first (it drains off
 * the grid: RichDEM raises the low edge inside the grid, never the
 * border, so its D8 takes the border cell). */
static int
conv_into_edge(const flat_plane *p, size_t i)
{
	int64_t x = (int64_t)(i % (size_t)p->w), y = (int64_t)(i / (size_t)p->w);
	int64_t nx, ny;
	int o, k, bk = 0;

	for (o = 0; o < 8; o++) {
		k = conv_order[o];
		tp_d8_inside(x, y, k, p->w, p->h, &nx, &ny);
		if (height(p, nx, ny) != height(p, x, y) ||
		    p->dir[(size_t)ny * (size_t)p->w + (size_t)nx] == TP_D8_SINK)
			continue;
		if (nx == 0 || ny == 0 || nx == p->w - 1 || ny == p->h - 1)
			return k;
		if (bk == 0)
			bk = k;
	}
	return bk;
}

/* The direction of drainable flat cell i: into the low edge, else to the
 * flat neighbour of least 2a - b, the first in conv_order on a tie. */
static int
conv_choose(const conv *cv, size_t i)
{
	int64_t key, best = INT64_MAX;
	size_t j;
	int o, k, bk = 0;

	if (cv->fl[i] & LOW)
		return conv_into_edge(cv->p, i);
	for (o = 0; o < 8; o++) {
		k = conv_order[o];
		if (!(cv->nb[i] & (1u << (k - 1))))
			continue;
		j = i + (size_t)cv->oc[k];
		key = 2 * (int64_t)cv->a[j] - (int64_t)cv->b[j];
		if (key < best) {
			best = key;
			bk = k;
		}
	}
	return bk;
}

/* The choice k of cell i, kept in fl's high bits until the flat is done
 * (a cell that has its direction would look like the low edge). */
static inline void
conv_keep(conv *cv, size_t i, int k)
{
	cv->fl[i] = (uint8_t)((cv->fl[i] & 0x0f) | k << 4);
}

/* --- water: a flat holding a lake, routed along its middle --- */

#define DONE	0x08	/* fl: its least cost is known */

/* A cell's weight, 1/b^4: the middle of a lake is so much cheaper than
 * the cells beside it that paths merge there (at 1/b they ran side by
 * side down a wide lake, each a little off the middle). */
static double
wet_weight(uint32_t b)
{
	double d = b;

	return b ? 1 / (d * d * d * d) : 1;
}

/* The steps from cell i to the flat's rim, higher or lower: its middle is
 * farthest from both. */
static inline uint32_t
wet_rim(const conv *cv, size_t i)
{
	uint32_t a = cv->a[i], b = cv->b[i];

	return b != 0 && b < a ? b : a;
}

/* A cell's roughness, 1 to 2, from a hash of its index: without it the
 * least-cost paths across a wide flat are straight lines, rulers again;
 * with it they wander as a river on a plain does. */
static inline double
wet_rough(size_t i)
{
	uint64_t x = (uint64_t)i * 0x9e3779b97f4a7c15u;

	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9u;
	x ^= x >> 29;
	return 1 + (double)(x >> 11) * 0x1p-53;
}

/* Relax the neighbours of cell i, taken from the heap at cost c[i]: one
 * reached cheaper drains to i. A step costs its length times the mean of
 * its ends' weights, so a path pays least far from the shore. */
static int
wet_relax(conv *cv, size_t i, tp_err *e)
{
	unsigned bits;
	size_t j;
	double v;
	int k;

	for (bits = cv->nb[i]; bits; bits &= bits - 1) {
		k = __builtin_ctz(bits) + 1;
		j = i + (size_t)cv->oc[k];
		if (cv->fl[j] & DONE)
			continue;
		v = cv->c[i] + (k % 2 ? 0.5 : 0.5 * M_SQRT2) *
		    ((double)cv->wt[i] + (double)cv->wt[j]);
		if (v < cv->c[j]) {
			cv->c[j] = v;
			conv_keep(cv, j, tp_d8_back(k));
			if (wheap_push(&cv->hp, v, (uint32_t)j, e) < 0)
				return -1;
		}
	}
	return 0;
}

/* A cell next to the low edge: cost 0, draining into the edge. */
static int
wet_seed(conv *cv, size_t i, tp_err *e)
{
	cv->c[i] = 0;
	conv_keep(cv, i, conv_choose(cv, i));
	return wheap_push(&cv->hp, 0, (uint32_t)i, e);
}

/* The flat l[0..m), holding water, drains along its least-cost paths to
 * the low edge (Dijkstra from the cells next to it, which drain into it
 * as conv_choose says): paths leave the shore for the middle and follow
 * it to the outlet, where the paths from the inlets merge into one. */
static int
wet_route(conv *cv, size_t m, tp_err *e)
{
	wentry top;
	size_t i;

	for (i = 0; i < m; i++) {
		cv->c[cv->l[i]] = INFINITY;
		cv->wt[cv->l[i]] = (float)(wet_weight(wet_rim(cv, cv->l[i])) *
		    wet_rough(cv->l[i]));
	}
	for (i = 0; i < m; i++)
		if ((cv->fl[cv->l[i]] & LOW) && wet_seed(cv, cv->l[i], e) < 0)
			return -1;
	while (cv->hp.n > 0) {
		top = wheap_pop(&cv->hp);
		i = top.i;
		if ((cv->fl[i] & DONE) || top.c != cv->c[i])
			continue;	/* taken already, at a lower cost */
		cv->fl[i] |= DONE;
		if (wet_relax(cv, i, e) < 0)
			return -1;
	}
	return 0;
}

/* Resolve the flat of cell i; *done += its drainable cells. */
static int
conv_flat(conv *cv, size_t i, size_t *done, tp_err *e)
{
	size_t m = conv_collect(cv, i), na, j;
	int wet = 0;

	if ((na = conv_spread(cv, m, LOW, cv->a)) == 0)
		return 0;	/* no way out: a sink */
	conv_spread(cv, m, HIGH, cv->b);
	wet = cv->middle;
	for (j = 0; j < m && cv->wet != NULL && !wet; j++)
		wet = cv->wet[cv->l[j]];
	if (wet && wet_route(cv, m, e) < 0)
		return -1;
	for (j = 0; j < m && !wet; j++)
		conv_keep(cv, cv->l[j], conv_choose(cv, cv->l[j]));
	for (j = 0; j < m; j++)
		cv->p->dir[cv->l[j]] = (uint8_t)(cv->fl[cv->l[j]] >> 4);
	*done += na;
	return 0;
}

static void
conv_free(conv *cv)
{
	free(cv->nb);
	free(cv->fl);
	free(cv->a);
	free(cv->b);
	free(cv->q);
	free(cv->c);
	free(cv->wt);
	free(cv->hp.a);
}

/* Each flat in turn, in the order of its first cell; l holds nf cells. */
static int
conv_resolve(const flat_plane *p, const uint8_t *wet, int middle, size_t *l,
    size_t nf, size_t *done, tp_err *e)
{
	size_t n = (size_t)p->w * (size_t)p->h, i;
	conv cv = { .p = p, .l = l, .wet = wet, .middle = middle };
	int rc = 0;

	tp_d8_offsets((ptrdiff_t)p->w, cv.oc);
	cv.nb = calloc(n, 1);
	cv.fl = calloc(n, 1);
	cv.a = calloc(n, sizeof *cv.a);
	cv.b = calloc(n, sizeof *cv.b);
	cv.q = malloc(nf * sizeof *cv.q);
	if (wet != NULL || middle) {
		cv.c = malloc(n * sizeof *cv.c);
		cv.wt = malloc(n * sizeof *cv.wt);
	}
	if (!cv.nb || !cv.fl || !cv.a || !cv.b || !cv.q ||
	    ((wet || middle) && (!cv.c || !cv.wt))) {
		conv_free(&cv);
		return tp_err_set(e, "out of memory: flat distances of %zu "
		    "cells", n);
	}
	conv_scan(&cv);
	for (i = 0; i < n && rc == 0; i++)
		if (p->dir[i] == TP_D8_SINK && !(cv.fl[i] & SEEN))
			rc = conv_flat(&cv, i, done, e);
	conv_free(&cv);
	return rc;
}

int
tp_flat_resolve(const float *z, int64_t w, int64_t h, size_t stride, int rule,
    const uint8_t *wet, uint8_t *dir, int64_t *resolved, tp_err *e)
{
	flat_plane p = { .z = z, .w = w, .h = h, .stride = stride, .dir = dir };
	size_t n = (size_t)w * (size_t)h, i, nf = 0, done = 0, *q;

	for (i = 0; i < n; i++)
		nf += dir[i] == TP_D8_SINK;
	if (resolved)
		*resolved = 0;
	if (nf == 0)
		return 0;
	if ((q = malloc(nf * sizeof *q)) == NULL)
		return tp_err_set(e, "out of memory: %zu flat cells", nf);
	if (rule == TP_FLAT_NEAREST)
		done = near_resolve(&p, q);
	else if ((size_t)w * (size_t)h >> 32 && rule == TP_FLAT_MIDDLE) {
		free(q);	/* the routes' heap keys hold a 32-bit index */
		return tp_err_set(e, "the middle rule takes grids of fewer "
		    "than 2^32 cells");
	} else if (conv_resolve(&p, (size_t)w * (size_t)h >> 32 ? NULL : wet,
	    rule == TP_FLAT_MIDDLE, q, nf, &done, e) < 0) {
		free(q);
		return -1;
	}
	free(q);
	if (resolved)
		*resolved = (int64_t)done;
	return 0;
}
