/*
 * tp_flat.c - directions across flats: Barnes et al. (2014), or toward the
 * nearest cell of the low edge.
 */
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

/* Spread the distances d from the seeds q[0..nq) (d = 1 there) through the
 * flat cells (TP_D8_SINK) of the seeds' heights; returns the cells in q. */
static size_t
conv_spread(const flat_plane *p, uint32_t *d, size_t *q, size_t nq)
{
	size_t head, j, w = (size_t)p->w;
	int64_t x, y, nx, ny;
	float zu;
	int k;

	for (head = 0; head < nq; head++) {
		x = (int64_t)(q[head] % w);
		y = (int64_t)(q[head] / w);
		zu = height(p, x, y);
		for (k = 1; k <= 8; k++) {
			if (!tp_d8_inside(x, y, k, p->w, p->h, &nx, &ny))
				continue;
			j = (size_t)ny * w + (size_t)nx;
			if (d[j] == 0 && p->dir[j] == TP_D8_SINK &&
			    height(p, nx, ny) == zu) {
				d[j] = d[q[head]] + 1;
				q[nq++] = j;
			}
		}
	}
	return nq;
}

/* 1 when flat cell (x, y) is an edge of its flat: next to a cell of its
 * height that drains (low = 1), or to a higher cell (low = 0). */
static int
conv_is_edge(const flat_plane *p, int64_t x, int64_t y, int low)
{
	int64_t nx, ny;
	float zu = height(p, x, y), zn;
	int k;

	for (k = 1; k <= 8; k++) {
		if (!tp_d8_inside(x, y, k, p->w, p->h, &nx, &ny))
			continue;
		zn = height(p, nx, ny);
		if (low ? zn == zu && p->dir[(size_t)ny * (size_t)p->w +
		    (size_t)nx] != TP_D8_SINK : zn > zu)
			return 1;
	}
	return 0;
}

/* The seeds of one distance: every flat cell on the low (or high) edge. */
static size_t
conv_seeds(const flat_plane *p, int low, uint32_t *d, size_t *q)
{
	size_t n = (size_t)p->w * (size_t)p->h, i, nq = 0, w = (size_t)p->w;

	for (i = 0; i < n; i++)
		if (p->dir[i] == TP_D8_SINK &&
		    conv_is_edge(p, (int64_t)(i % w), (int64_t)(i / w), low)) {
			d[i] = 1;
			q[nq++] = i;
		}
	return nq;
}

/* The direction of drainable flat cell (x, y): into the low edge, a cell
 * on the border first (it drains off the grid: RichDEM leaves it where it
 * is, below the raised flat), else to the least 2a - b. */
static int
conv_choose(const flat_plane *p, const uint32_t *a, const uint32_t *b,
    int64_t x, int64_t y)
{
	int64_t nx, ny, key, best = INT64_MAX;
	size_t j, w = (size_t)p->w;
	float zu = height(p, x, y);
	int i, k, bk = 0, rank, brank = 3;

	for (i = 0; i < 8; i++) {
		k = conv_order[i];
		if (!tp_d8_inside(x, y, k, p->w, p->h, &nx, &ny) ||
		    height(p, nx, ny) != zu)
			continue;
		j = (size_t)ny * w + (size_t)nx;
		if (a[j] == 0)		/* not flat: the low edge */
			rank = nx == 0 || ny == 0 || nx == p->w - 1 ||
			    ny == p->h - 1 ? 0 : 1;
		else
			rank = 2;
		key = rank == 2 ? 2 * (int64_t)a[j] - (int64_t)b[j] : 0;
		if (rank < brank || (rank == brank && key < best)) {
			brank = rank;
			best = key;
			bk = k;
		}
	}
	return bk;
}

/* Both distances, then each drainable flat cell's choice; q holds nf
 * cells. The choices read a and b, not dir, so the order they are made in
 * does not matter. */
static int
conv_resolve(const flat_plane *p, size_t *q, size_t *resolved, tp_err *e)
{
	size_t n = (size_t)p->w * (size_t)p->h, i, w = (size_t)p->w;
	uint32_t *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);

	if (a == NULL || b == NULL) {
		free(a);
		free(b);
		return tp_err_set(e, "out of memory: flat distances of %zu "
		    "cells", n);
	}
	*resolved = conv_spread(p, a, q, conv_seeds(p, 1, a, q));
	conv_spread(p, b, q, conv_seeds(p, 0, b, q));
	for (i = 0; i < n; i++)
		if (p->dir[i] == TP_D8_SINK && a[i] != 0)
			p->dir[i] = (uint8_t)conv_choose(p, a, b,
			    (int64_t)(i % w), (int64_t)(i / w));
	free(a);
	free(b);
	return 0;
}

int
tp_flat_resolve(const float *z, int64_t w, int64_t h, size_t stride, int rule,
    uint8_t *dir, int64_t *resolved, tp_err *e)
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
	else if (conv_resolve(&p, q, &done, e) < 0) {
		free(q);
		return -1;
	}
	free(q);
	if (resolved)
		*resolved = (int64_t)done;
	return 0;
}
