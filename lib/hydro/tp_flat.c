/*
 * tp_flat.c - directions across flats: Barnes et al. (2014), or toward the
 * nearest cell of the low edge.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_flat.h"
#include "core/tp_kheap.h"
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

/* The flats' cells and their edges, in one pass: nb[i] has bit k - 1 set
 * for each neighbour k of flat cell i that is a flat cell of its height;
 * a[i] = 1 next to a cell of its height that drains (the low edge's
 * seeds, listed in q), b[i] = 1 next to a higher cell. A flat cell is
 * never on the border (it would drain off the grid), so its neighbours
 * need no bounds checks. Returns the seeds of a. */
static size_t
conv_scan(const flat_plane *p, uint8_t *nb, uint32_t *a, uint32_t *b,
    size_t *q)
{
	ptrdiff_t oz[9], oc[9];
	size_t w = (size_t)p->w, nq = 0, i;
	int64_t x, y;
	const float *zp;
	int k, low, high;

	tp_d8_offsets((ptrdiff_t)p->stride, oz);
	tp_d8_offsets((ptrdiff_t)w, oc);
	for (y = 1; y < p->h - 1; y++)
		for (x = 1; x < p->w - 1; x++) {
			i = (size_t)y * w + (size_t)x;
			if (p->dir[i] != TP_D8_SINK)
				continue;
			zp = p->z + (size_t)y * p->stride + (size_t)x;
			for (k = 1, low = high = 0; k <= 8; k++) {
				if (zp[oz[k]] > zp[0])
					high = 1;
				else if (zp[oz[k]] != zp[0])
					continue;
				else if (p->dir[i + (size_t)oc[k]] == TP_D8_SINK)
					nb[i] |= (uint8_t)(1u << (k - 1));
				else
					low = 1;
			}
			b[i] = (uint32_t)high;
			if (low) {
				a[i] = 1;
				q[nq++] = i;
			}
		}
	return nq;
}

/* Spread the distances d from the seeds q[0..nq) (d = 1 there) through
 * the flats' links nb; returns the cells in q. */
static size_t
conv_spread(const flat_plane *p, const uint8_t *nb, uint32_t *d, size_t *q,
    size_t nq)
{
	ptrdiff_t oc[9];
	size_t head, i, j;
	unsigned m;
	int k;

	tp_d8_offsets((ptrdiff_t)p->w, oc);
	for (head = 0; head < nq; head++) {
		i = q[head];
		for (m = nb[i]; m != 0; m &= m - 1) {
			k = __builtin_ctz(m) + 1;
			j = i + (size_t)oc[k];
			if (d[j] == 0) {
				d[j] = d[i] + 1;
				q[nq++] = j;
			}
		}
	}
	return nq;
}

/* The high edge's seeds (b = 1 on a flat cell) into q; their count. */
static size_t
conv_high_seeds(const flat_plane *p, const uint32_t *b, size_t *q)
{
	size_t n = (size_t)p->w * (size_t)p->h, i, nq = 0;

	for (i = 0; i < n; i++)
		if (b[i] == 1 && p->dir[i] == TP_D8_SINK)
			q[nq++] = i;
	return nq;
}

/* The direction of a flat cell next to the low edge: into it, its first
 * such neighbour in conv_order, a cell on the border first (it drains off
 * the grid: RichDEM raises the low edge inside the grid, never the
 * border, so its D8 takes the border cell). */
static int
conv_into_edge(const flat_plane *p, const uint32_t *a, int64_t x, int64_t y)
{
	int64_t nx, ny;
	int i, k, bk = 0;

	for (i = 0; i < 8; i++) {
		k = conv_order[i];
		tp_d8_inside(x, y, k, p->w, p->h, &nx, &ny);
		if (height(p, nx, ny) != height(p, x, y) ||
		    a[(size_t)ny * (size_t)p->w + (size_t)nx] != 0)
			continue;
		if (nx == 0 || ny == 0 || nx == p->w - 1 || ny == p->h - 1)
			return k;
		if (bk == 0)
			bk = k;
	}
	return bk;
}

/* The direction of drainable flat cell i: into the low edge, else to the
 * flat neighbour (nb) of least 2a - b, the first in conv_order on a tie. */
static int
conv_choose(const flat_plane *p, const uint8_t *nb, const uint32_t *a,
    const uint32_t *b, size_t i)
{
	size_t w = (size_t)p->w, j;
	int64_t key, best = INT64_MAX;
	int o, k, bk = 0;

	if (a[i] == 1)
		return conv_into_edge(p, a, (int64_t)(i % w), (int64_t)(i / w));
	for (o = 0; o < 8; o++) {
		k = conv_order[o];
		if (!(nb[i] & (1u << (k - 1))))
			continue;
		j = (size_t)((ptrdiff_t)i + tp_d8_dx[k] +
		    tp_d8_dy[k] * (ptrdiff_t)w);
		key = 2 * (int64_t)a[j] - (int64_t)b[j];
		if (key < best) {
			best = key;
			bk = k;
		}
	}
	return bk;
}

/* --- water: a flat holding a lake, routed along its middle --- */

/* Mark (m = 1) every cell of the flats that hold a wet cell: a search
 * along the flats' links nb from each wet flat cell. q has room for every
 * flat cell. */
static void
wet_mark(const flat_plane *p, const uint8_t *wet, const uint8_t *nb,
    const uint32_t *a, uint8_t *m, size_t *q)
{
	size_t n = (size_t)p->w * (size_t)p->h, i, j, o, nq;
	ptrdiff_t oc[9];
	unsigned bits;

	tp_d8_offsets((ptrdiff_t)p->w, oc);
	for (i = 0; i < n; i++) {
		if (!wet[i] || a[i] == 0 || m[i])
			continue;
		m[i] = 1;
		q[0] = i;
		for (nq = 1; nq > 0;) {
			j = q[--nq];
			for (bits = nb[j]; bits != 0; bits &= bits - 1) {
				o = j + (size_t)oc[__builtin_ctz(bits) + 1];
				if (!m[o]) {
					m[o] = 1;
					q[nq++] = o;
				}
			}
		}
	}
}

/* A cell's weight, 1/b^4: the middle of a lake is so much cheaper than
 * the cells beside it that paths merge there (at 1/b they ran side by
 * side down a wide lake, each a little off the middle). */
static double
wet_weight(uint32_t b)
{
	double d = b;

	return b ? 1 / (d * d * d * d) : 1;
}

/* A step's cost: its length times the mean of its ends' weights, so a
 * path pays least far from the shore. */
static double
wet_step(const uint32_t *b, size_t i, size_t j, int k)
{
	double wi = wet_weight(b[i]), wj = wet_weight(b[j]);

	return (k % 2 ? 1.0 : M_SQRT2) * 0.5 * (wi + wj);
}

/* Relax the neighbours of cell i, taken from the heap at cost c[i]: a
 * marked flat neighbour (nb) reached cheaper drains to i. */
static int
wet_relax(const flat_plane *p, const uint8_t *nb, const uint32_t *b,
    const uint8_t *m, float *c, size_t i, tp_kheap *hp, tp_err *e)
{
	ptrdiff_t oc[9];
	unsigned bits;
	size_t j;
	float v;
	int k;

	tp_d8_offsets((ptrdiff_t)p->w, oc);
	for (bits = nb[i]; bits != 0; bits &= bits - 1) {
		k = __builtin_ctz(bits) + 1;
		j = i + (size_t)oc[k];
		if (m[j] != 1)
			continue;
		v = (float)((double)c[i] + wet_step(b, i, j, k));
		if (v < c[j]) {
			c[j] = v;
			p->dir[j] = (uint8_t)tp_d8_back(k);
			if (tp_kheap_push(hp, tp_kheap_key(v, j), "the lake "
			    "routes", e) < 0)
				return -1;
		}
	}
	return 0;
}

/* The marked flats' cells drain along their least-cost paths to the low
 * edge (Dijkstra from the cells next to it, which drain into it as
 * conv_choose says): paths leave the shore for the middle and follow it
 * to the outlet, one line through the lake instead of a fan. */
static int
wet_route(const flat_plane *p, const uint8_t *nb, const uint32_t *a,
    const uint32_t *b, uint8_t *m, tp_err *e)
{
	size_t n = (size_t)p->w * (size_t)p->h, i;
	float *c = malloc(n * sizeof *c);
	tp_kheap hp = { 0 };
	uint64_t key;
	int rc = 0;

	if (c == NULL)
		return tp_err_set(e, "out of memory: lake routes");
	for (i = 0; i < n && rc == 0; i++) {
		c[i] = INFINITY;
		if (m[i] && a[i] == 1) {
			c[i] = 0;
			p->dir[i] = (uint8_t)conv_choose(p, nb, a, b, i);
			rc = tp_kheap_push(&hp, tp_kheap_key(0, i), "the lake "
			    "routes", e);
		}
	}
	while (rc == 0 && hp.n > 0) {
		key = tp_kheap_pop(&hp);
		i = (size_t)(key & 0xffffffffu);
		if (m[i] != 1 || (uint32_t)(key >> 32) != tp_kheap_fkey(c[i]))
			continue;	/* taken already, at a lower cost */
		m[i] = 2;
		rc = wet_relax(p, nb, b, m, c, i, &hp, e);
	}
	tp_kheap_free(&hp);
	free(c);
	return rc;
}

/* Both distances, then each drainable flat cell's choice; q holds nf
 * cells. The choices read a, b and nb, not dir, so the order they are
 * made in does not matter. */
static int
conv_resolve(const flat_plane *p, const uint8_t *wet, size_t *q,
    size_t *resolved, tp_err *e)
{
	size_t n = (size_t)p->w * (size_t)p->h, i;
	uint32_t *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);
	uint8_t *nb = calloc(n, 1), *m = NULL;
	int rc = 0;

	if (a == NULL || b == NULL || nb == NULL || (wet != NULL &&
	    (m = calloc(n, 1)) == NULL)) {
		free(a);
		free(b);
		free(nb);
		return tp_err_set(e, "out of memory: flat distances of %zu "
		    "cells", n);
	}
	*resolved = conv_spread(p, nb, a, q, conv_scan(p, nb, a, b, q));
	conv_spread(p, nb, b, q, conv_high_seeds(p, b, q));
	if (m != NULL) {
		wet_mark(p, wet, nb, a, m, q);
		rc = wet_route(p, nb, a, b, m, e);
		free(m);
	}
	for (i = 0; i < n && rc == 0; i++)
		if (p->dir[i] == TP_D8_SINK && a[i] != 0)
			p->dir[i] = (uint8_t)conv_choose(p, nb, a, b, i);
	free(a);
	free(b);
	free(nb);
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
	else if (conv_resolve(&p, (size_t)w * (size_t)h >> 32 ? NULL : wet, q,
	    &done, e) < 0) {
		free(q);
		return -1;
	}
	free(q);
	if (resolved)
		*resolved = (int64_t)done;
	return 0;
}
