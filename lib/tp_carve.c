/*
 * tp_carve.c - least-cost D8 directions on an unfilled surface.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tp_carve.h"
#include "tp_d8.h"

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
	int64_t	w, h;
	size_t	stride;
	uint8_t	*dir;
	double	*inv;		/* 9 per row: tp_flow_inv_dist */
	ent	*a;		/* 4-ary heap, a[0] its top */
	size_t	n, cap;
	uint32_t seq;		/* pushes so far: fewer than 2^32 cells */
} flood;

/* Heights as unsigned keys in the order of the floats (-0 as +0, which
 * compare equal), so one integer comparison orders height, then push. */
static uint64_t
key_of(float v, uint32_t seq)
{
	uint32_t u;

	v += 0.0f;
	memcpy(&u, &v, sizeof u);
	u = u & 0x80000000u ? ~u : u | 0x80000000u;
	return (uint64_t)u << 32 | seq;
}

static int
push(flood *f, size_t i, tp_err *e)
{
	ent v = { key_of(f->z[(i / (size_t)f->w) * f->stride +
	    i % (size_t)f->w], f->seq++), i };
	size_t c, p;

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

int
tp_carve_d8(const float *z, int64_t w, int64_t h, size_t stride,
    const tp_geo_grid *g, double sea_level, uint8_t *dir,
    tp_flow_stats *st, tp_err *e)
{
	flood f = { .z = z, .w = w, .h = h, .stride = stride, .dir = dir };
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
	while (f.n > 0)
		if (take(&f, pop(&f), st, e) < 0)
			goto out;
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
