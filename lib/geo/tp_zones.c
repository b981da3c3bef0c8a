/*
 * tp_zones.c - zonal statistics, one pass over the rows (tp_zones.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geo/tp_zones.h"

#define ZONE_MAX 4611686018427387904.0	/* 2^62 */

int
tp_zones_init(tp_zones *z, const tp_header *h, int band, int geo_rule,
    tp_err *e)
{
	memset(z, 0, sizeof *z);
	if (band < 0 || band >= h->nbands)
		return tp_err_set(e, "zones: no band %d", band);
	z->band = band;
	z->nbands = h->nbands;
	z->width = h->width;
	z->geo = tp_geo_grid_of(h, geo_rule);
	z->nslot = 1024;
	if ((z->slot = calloc(z->nslot, sizeof *z->slot)) == NULL)
		return tp_err_set(e, "out of memory for zones");
	return 0;
}

void
tp_zones_free(tp_zones *z)
{
	for (size_t i = 0; i < z->nzones; i++)
		free(z->zone[i].acc);
	free(z->zone);
	free(z->slot);
	memset(z, 0, sizeof *z);
}

static size_t
hash(int64_t id, size_t nslot)
{
	uint64_t x = (uint64_t)id * 0x9e3779b97f4a7c15u;

	return (size_t)(x ^ x >> 29) & (nslot - 1);
}

/* Double the hash table and place every zone again. */
static int
rehash(tp_zones *z, tp_err *e)
{
	size_t n = z->nslot * 2, i, s;
	int64_t *slot = n > SIZE_MAX / sizeof *slot ? NULL :
	    calloc(n, sizeof *slot);

	if (slot == NULL)
		return tp_err_set(e, "out of memory: %zu zones", z->nzones);
	for (i = 0; i < z->nzones; i++) {
		for (s = hash(z->zone[i].id, n); slot[s] != 0; s = (s + 1) &
		    (n - 1))
			;
		slot[s] = (int64_t)i + 1;
	}
	free(z->slot);
	z->slot = slot;
	z->nslot = n;
	return 0;
}

/* A new zone id at hash slot s. */
static tp_zones_zone *
add(tp_zones *z, int64_t id, size_t s, tp_err *e)
{
	tp_zones_zone *q;

	if (z->nzones == z->cap) {
		size_t cap = z->cap ? 2 * z->cap : 64;
		tp_zones_zone *a = cap > SIZE_MAX / sizeof *a ? NULL :
		    realloc(z->zone, cap * sizeof *a);

		if (a == NULL)
			goto oom;
		z->zone = a;
		z->cap = cap;
	}
	q = &z->zone[z->nzones];
	memset(q, 0, sizeof *q);
	q->id = id;
	q->row = -1;
	if ((q->acc = malloc((size_t)z->nbands * sizeof *q->acc)) == NULL)
		goto oom;
	for (int b = 0; b < z->nbands; b++)
		q->acc[b] = (tp_zones_acc){ .min = NAN, .max = NAN, .mean =
		    NAN };
	z->slot[s] = (int64_t)++z->nzones;
	if (2 * z->nzones > z->nslot && rehash(z, e) < 0)
		return NULL;
	return &z->zone[z->nzones - 1];
oom:
	tp_err_set(e, "out of memory: %zu zones", z->nzones);
	return NULL;
}

/* The zone of id, made when new. */
static tp_zones_zone *
find(tp_zones *z, int64_t id, tp_err *e)
{
	size_t s;

	for (s = hash(id, z->nslot); z->slot[s] != 0; s = (s + 1) &
	    (z->nslot - 1))
		if (z->zone[z->slot[s] - 1].id == id)
			return &z->zone[z->slot[s] - 1];
	return add(z, id, s, e);
}

static void
acc_add(tp_zones_acc *a, float f)
{
	double v = f, d;

	if (isnan(f)) {
		a->nodata++;
		return;
	}
	if (isinf(f)) {
		a->ninf++;
		return;
	}
	if (a->n++ == 0) {
		a->min = a->max = a->mean = v;
		a->m2 = 0;
	} else {
		a->min = v < a->min ? v : a->min;
		a->max = v > a->max ? v : a->max;
		d = v - a->mean;
		a->mean += d / (double)a->n;
		a->m2 += d * (v - a->mean);
	}
	a->sum += v;
}

/* Close the row being summed into q's area. */
static void
flush_row(tp_zones_zone *q)
{
	q->area += (double)q->rowcells * q->rowarea;
	q->rowcells = 0;
}

int
tp_zones_row(tp_zones *z, int64_t y, const float *row, tp_err *e)
{
	size_t w = (size_t)z->width;
	const float *zb = row + (size_t)z->band * w;
	tp_zones_zone *q = NULL;
	double dx, dy;

	tp_geo_spacing(&z->geo, y, &dx, &dy);
	for (size_t x = 0; x < w; x++) {
		double v = zb[x];

		if (!(fabs(v) < ZONE_MAX)) {
			z->skipped++;
			continue;
		}
		/* runs of one zone along a row skip the hash */
		if (q == NULL || q->id != (int64_t)trunc(v))
			if ((q = find(z, (int64_t)trunc(v), e)) == NULL)
				return -1;
		if (q->row != y) {
			flush_row(q);
			q->row = y;
			q->rowarea = dx * dy;
		}
		q->rowcells++;
		q->cells++;
		for (int b = 0; b < z->nbands; b++)
			acc_add(&q->acc[b], row[(size_t)b * w + x]);
	}
	return 0;
}

static int
cmp_zone(const void *a, const void *b)
{
	int64_t x = ((const tp_zones_zone *)a)->id,
	    y = ((const tp_zones_zone *)b)->id;

	return (x > y) - (x < y);
}

void
tp_zones_finish(tp_zones *z)
{
	for (size_t i = 0; i < z->nzones; i++)
		flush_row(&z->zone[i]);
	/* the hash no longer finds the sorted zones: no rows after this */
	qsort(z->zone, z->nzones, sizeof *z->zone, cmp_zone);
	memset(z->slot, 0, z->nslot * sizeof *z->slot);
}

int
tp_zones_read(tp_zones *z, tp_reader *r, tp_progress_fn progress,
    void *pctx, tp_err *e)
{
	size_t per = tp_row_floats(&r->h);
	int64_t rows = tp_batch_rows(per * sizeof(float), r->h.height), got;
	float *buf = malloc((size_t)rows * per * sizeof *buf);

	if (buf == NULL)
		return tp_err_set(e, "out of memory for %lld rows",
		    (long long)rows);
	while (r->row < r->h.height) {
		int64_t y0 = r->row;

		if (tp_reader_rows(r, buf, rows, &got, e) < 0)
			goto fail;
		for (int64_t y = 0; y < got; y++)
			if (tp_zones_row(z, y0 + y, buf + (size_t)y * per,
			    e) < 0)
				goto fail;
		if (progress != NULL)
			progress(pctx, r->row, r->h.height);
	}
	free(buf);
	if (tp_reader_finish(r, e) < 0)
		return -1;
	tp_zones_finish(z);
	return 0;
fail:
	free(buf);
	return -1;
}

double
tp_zones_stddev(const tp_zones_acc *a)
{
	if (a->n == 0)
		return NAN;
	return sqrt(a->m2 / (double)a->n);
}
