/*
 * tp_carve.c - least-cost D8 directions on an unfilled surface.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/tp_num.h"
#include "hydro/tp_carve.h"
#include "hydro/tp_d8.h"

#define UNSEEN	0xff	/* dir byte of a cell the flood has not reached */
#define TAKEN	0x80	/* set on a cell's dir byte when the flood takes it */

/* A cell waiting in the flood: key (its height's order, then the order
 * it was pushed in) and index. Taken lowest key first. */
typedef struct ent {
	uint64_t key;
	uint64_t i;
} ent;

typedef struct flood {
	const float *z;
	int	rule;		/* TP_CARVE_* */
	uint32_t *order;	/* the cells as taken, or NULL */
	size_t	taken;
	int64_t	w, h;
	size_t	stride;
	uint8_t	*dir;
	double	*inv;		/* 9 per row: tp_flow_inv_dist */
	ent	*a;		/* 4-ary heap, a[0] its top */
	size_t	n, cap;
	uint32_t seq;		/* pushes so far: fewer than 2^32 cells */
} flood;

/* Heights as unsigned keys in the order of the floats, so one integer
 * comparison orders height, then push. */
static uint64_t
key_of(float v, uint32_t seq)
{
	return (uint64_t)tp_num_float_key(v) << 32 | seq;
}

/* The first rule's key: the height's level (tp_carve_level) as an
 * unsigned 32-bit integer in the order of the levels, then the push. */
static uint64_t
key_first(float v, uint32_t seq)
{
	return (uint64_t)((uint32_t)(int32_t)tp_carve_level(v) ^ 0x80000000u)
	    << 32 | seq;
}

static int
push(flood *f, size_t i, tp_err *e)
{
	float zi = f->z[(i / (size_t)f->w) * f->stride + i % (size_t)f->w];
	ent v = { f->rule == TP_CARVE_FIRST ? key_first(zi, f->seq) :
	    key_of(zi, f->seq), i };
	size_t c, p;

	f->seq++;
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 1024;
		ent *a = cap > SIZE_MAX / sizeof *a ? NULL :
		    realloc(f->a, cap * sizeof *a);

		if (a == NULL)
			return tp_err_set(e, "out of memory: the flood's front "
			    "holds %zu cells", f->n);
		f->a = a;
		f->cap = cap;
	}
	for (c = f->n++; c > 0 && v.key < f->a[p = (c - 1) / 4].key; c = p)
		f->a[c] = f->a[p];
	f->a[c] = v;
	return 0;
}

static size_t
pop(flood *f)
{
	size_t top = f->a[0].i, c = 0, k, m, end;
	ent last = f->a[--f->n];

	while ((k = 4 * c + 1) < f->n) {
		end = k + 4 < f->n ? k + 4 : f->n;
		for (m = k++; k < end; k++)
			if (f->a[k].key < f->a[m].key)
				m = k;
		if (!(f->a[m].key < last.key))
			break;
		f->a[c] = f->a[m];
		c = m;
	}
	f->a[c] = last;
	return top;
}

static float
zat(const flood *f, int64_t x, int64_t y)
{
	return f->z[(size_t)y * f->stride + (size_t)x];
}

/* The outlets, pushed in row-major order: sea cells (TP_D8_SEA), and
 * valid cells with a neighbour off the grid or NaN (TP_D8_OUT | the first
 * such neighbour). Every other valid cell is left UNSEEN, NaN NODATA. */
static int
seed(flood *f, float sea, tp_flow_stats *st, tp_err *e)
{
	int64_t x, y, nx, ny;
	int k, out;

	for (y = 0; y < f->h; y++)
		for (x = 0; x < f->w; x++) {
			size_t i = (size_t)y * (size_t)f->w + (size_t)x;
			float v = zat(f, x, y);

			if (isnan(v)) {
				f->dir[i] = TP_D8_NODATA;
				continue;
			}
			st->valid++;
			for (out = 0, k = 1; k <= 8 && out == 0; k++)
				if (!tp_d8_inside(x, y, k, f->w, f->h, &nx,
				    &ny) || isnan(zat(f, nx, ny)))
					out = k;
			if (tp_d8_is_sea(v, sea)) {
				f->dir[i] = TP_D8_SEA;
				st->sea++;
			} else if (out)
				f->dir[i] = (uint8_t)(TP_D8_OUT | out);
			else {
				f->dir[i] = UNSEEN;
				continue;
			}
			if (push(f, i, e) < 0)
				return -1;
		}
	return 0;
}

/* Take cell i: drain it down the steepest drop to a taken neighbour, if
 * any is lower, and reach its unseen neighbours, which drain back to it
 * until they are taken themselves. */
static int
take(flood *f, size_t i, tp_flow_stats *st, tp_err *e)
{
	int64_t x = (int64_t)(i % (size_t)f->w), y = (int64_t)(i / (size_t)f->w);
	int64_t nx, ny;
	const double *inv = f->inv + 9 * y;
	double zc = zat(f, x, y), best = 0;
	int k, bk = 0;

	for (k = 1; k <= 8; k++) {
		if (!tp_d8_inside(x, y, k, f->w, f->h, &nx, &ny))
			continue;
		size_t j = (size_t)ny * (size_t)f->w + (size_t)nx;

		if (f->dir[j] == UNSEEN) {
			f->dir[j] = (uint8_t)tp_d8_back(k);
			if (push(f, j, e) < 0)
				return -1;
		} else if (f->dir[j] & TAKEN) {
			double drop = (zc - (double)zat(f, nx, ny)) * inv[k];

			if (drop > best) {
				best = drop;
				bk = k;
			}
		}
	}
	if (f->dir[i] != TP_D8_SEA && bk)
		f->dir[i] = (uint8_t)bk;
	else if (!(f->dir[i] & TP_D8_OUT))
		st->flats++;
	f->dir[i] |= TAKEN;
	return 0;
}

/* 1 when neighbour j is valid and not yet taken: the first rule weighs the
 * slopes to such cells only, as a search that has not finished them. */
static int
open_cell(const flood *f, size_t j)
{
	return f->dir[j] == UNSEEN || (f->dir[j] != TP_D8_NODATA &&
	    !(f->dir[j] & TAKEN));
}

/* The rise from level a up to level b over a step of inverse length inv;
 * 0 where b is not higher. */
static double
rise(double a, double b, double inv)
{
	return b > a ? (b - a) * inv : 0;
}

/* The first rule on a diagonal neighbour (k even) of level zd above the
 * cell (x, y) of level zc: 1 when it is to wait, because it rises more
 * steeply from one of the two side neighbours it shares with the cell (a
 * valid one not yet taken) than from the cell itself. That side neighbour
 * will then reach it, and the search keeps no bias to diagonals. */
static int
wait_diagonal(const flood *f, int64_t x, int64_t y, int k, double zc,
    double zd, const double inv[9])
{
	double up = (zd - zc) * inv[k];
	int s, side[2] = { k - 1, k % 8 + 1 };
	int64_t nx, ny;

	for (s = 0; s < 2; s++) {
		if (!tp_d8_inside(x, y, side[s], f->w, f->h, &nx, &ny))
			continue;
		size_t j = (size_t)ny * (size_t)f->w + (size_t)nx;

		/* the step from that side cell to the diagonal runs along
		 * the other side's axis */
		if (open_cell(f, j) && up < rise(tp_carve_level(zat(f, nx, ny)),
		    zd, inv[side[1 - s]]))
			return 1;
	}
	return 0;
}

/* Take cell i by the first rule: it keeps the direction to the neighbour
 * that reached it; it reaches its unseen neighbours in the order S, N, W,
 * E, NE, SW, SE, NW (a diagonal one above it may wait, wait_diagonal). */
static int
take_first(flood *f, size_t i, tp_flow_stats *st, tp_err *e)
{
	static const int visit[8] = { TP_D8_S, TP_D8_N, TP_D8_W, TP_D8_E,
	    TP_D8_NE, TP_D8_SW, TP_D8_SE, TP_D8_NW };
	int64_t x = (int64_t)(i % (size_t)f->w), y = (int64_t)(i / (size_t)f->w);
	int64_t nx, ny;
	const double *inv = f->inv + 9 * y;
	double zc = tp_carve_level(zat(f, x, y));
	int n, k;

	for (n = 0; n < 8; n++) {
		k = visit[n];
		if (!tp_d8_inside(x, y, k, f->w, f->h, &nx, &ny))
			continue;
		size_t j = (size_t)ny * (size_t)f->w + (size_t)nx;
		double zn = tp_carve_level(zat(f, nx, ny));

		if (f->dir[j] != UNSEEN || (k % 2 == 0 && zn > zc &&
		    wait_diagonal(f, x, y, k, zc, zn, inv)))
			continue;
		f->dir[j] = (uint8_t)tp_d8_back(k);
		if (push(f, j, e) < 0)
			return -1;
	}
	k = f->dir[i];
	if (!(k & TP_D8_OUT) && tp_carve_level(zat(f, x + tp_d8_dx[k],
	    y + tp_d8_dy[k])) >= zc)
		st->flats++;
	f->dir[i] |= TAKEN;
	return 0;
}

int
tp_carve_rule(const float *z, int64_t w, int64_t h, size_t stride,
    const tp_geo_grid *g, double sea_level, int rule, uint8_t *dir,
    uint32_t *order, tp_flow_stats *st, tp_err *e)
{
	flood f = { .z = z, .w = w, .h = h, .stride = stride, .dir = dir,
	    .rule = rule, .order = order };
	tp_flow_stats dummy;
	size_t i, n;
	int rc = -1;
	int64_t y;

	if (st == NULL)
		st = &dummy;
	memset(st, 0, sizeof *st);
	if (tp_flow_check_plane(w, h, stride, g, e) < 0)
		return -1;
	if ((uint64_t)w * (uint64_t)h >= (uint64_t)1 << 32)
		return tp_err_set(e, "least-cost routing: %lldx%lld is 2^32 "
		    "cells or more", (long long)w, (long long)h);
	if ((size_t)h > SIZE_MAX / (9 * sizeof *f.inv) ||
	    (f.inv = malloc((size_t)h * 9 * sizeof *f.inv)) == NULL)
		return tp_err_set(e, "out of memory: %lld rows of distances",
		    (long long)h);
	for (y = 0; y < h; y++)
		tp_flow_inv_dist(g, y, f.inv + 9 * y);
	if (seed(&f, tp_d8_sea_below(sea_level), st, e) < 0)
		goto out;
	while (f.n > 0) {
		i = pop(&f);
		if (order != NULL)
			order[f.taken++] = (uint32_t)i;
		if ((rule == TP_CARVE_FIRST ? take_first(&f, i, st, e) :
		    take(&f, i, st, e)) < 0)
			goto out;
	}
	n = (size_t)w * (size_t)h;
	for (i = 0; i < n; i++) {
		if (dir[i] != TP_D8_NODATA)
			dir[i] &= (uint8_t)~TAKEN;
		st->outlets += (dir[i] & TP_D8_OUT) != 0;
	}
	rc = 0;
out:
	free(f.a);
	free(f.inv);
	return rc;
}
