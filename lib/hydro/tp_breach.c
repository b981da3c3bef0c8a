/*
 * tp_breach.c - least-cost breaching (tp_breach.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/tp_num.h"
#include "hydro/tp_breach.h"
#include "hydro/tp_d8.h"

/* Bits of a cell's state byte. */
enum {
	VALID = 1,	/* not NaN */
	OUTLET = 2,	/* sea, or land on the border or next to NaN or sea */
	DRAINS = 4,	/* a strictly descending path to an outlet */
	FLAT = 8,	/* a descending or level path to one (DRAINS implies) */
	DONE = 16	/* taken by the current search */
};

/* A cell waiting in the search: its cost, then the order it was pushed. */
typedef struct ent {
	double	cost;
	uint64_t seq;
	uint32_t i;
	uint32_t end;	/* 1: the search ends when this is taken */
} ent;

typedef struct breach {
	float	*z;
	int64_t	w, h;
	size_t	stride;
	const tp_fill_opts *f;
	const tp_breach_opts *o;
	float	sea;		/* tp_d8_sea_below of the sea level */
	float	*orig;		/* the heights before any cut, w * h */
	uint8_t	*st;		/* state bits, w * h */
	uint8_t	*link;		/* the search: direction to the cell that
				 * reached it, 0 unseen, 9 the pit */
	double	*cost;		/* the search: least cost found */
	uint32_t *len;		/* the search: cells cut up to here */
	uint32_t *q;		/* queue of cells that came to drain */
	size_t	qn;
	uint32_t *touched;	/* the cells the search reached */
	size_t	tn;
	ent	*a;		/* binary heap, a[0] its top */
	size_t	an, acap;
	uint64_t seq;
	float	*lv;		/* the levels of the current pit */
	size_t	lvn, lvcap;
} breach;

static float *
zp(const breach *b, uint32_t i)
{
	return b->z + (size_t)(i / (uint64_t)b->w) * b->stride +
	    (size_t)(i % (uint64_t)b->w);
}

static float
next_down(float v)
{
	return -tp_fill_next_up(-v);
}

float
tp_breach_down(const tp_fill_opts *f, float v)
{
	float d, u;

	if (f->rule == TP_FILL_FLAT || isnan(v) || v == -INFINITY)
		return v + 0.0f;
	if (f->rule == TP_FILL_NEXT)
		return next_down(v);
	d = v - f->epsilon;
	while (d > -INFINITY && (d >= v || tp_fill_step(f, d) > v))
		d = next_down(d);
	/* float rounding: v - epsilon may lie a float or two low */
	while ((u = tp_fill_next_up(d)) < v && tp_fill_step(f, u) <= v)
		d = u;
	return d;
}

/* Neighbour k of cell i, as an index; -1 off the grid. */
static int64_t
nb(const breach *b, uint32_t i, int k)
{
	int64_t x = (int64_t)(i % (uint64_t)b->w), y = (int64_t)(i /
	    (uint64_t)b->w), nx, ny;

	if (!tp_d8_inside(x, y, k, b->w, b->h, &nx, &ny))
		return -1;
	return ny * b->w + nx;
}

/* The state bits: VALID, OUTLET, and DRAINS and FLAT on the outlets,
 * which start the queue. */
static void
classify(breach *b, float sea)
{
	uint32_t i, n = (uint32_t)(b->w * b->h);
	int64_t j;
	int k;

	for (i = 0; i < n; i++) {
		b->orig[i] = *zp(b, i);
		b->st[i] = isnan(b->orig[i]) ? 0 : VALID;
	}
	for (i = 0; i < n; i++) {
		if (!(b->st[i] & VALID))
			continue;
		int out = tp_d8_is_sea(b->orig[i], sea);

		for (k = 1; k <= 8 && !out; k++)
			out = (j = nb(b, i, k)) < 0 || !(b->st[j] & VALID) ||
			    tp_d8_is_sea(b->orig[j], sea);
		if (out) {
			b->st[i] |= OUTLET | DRAINS | FLAT;
			b->q[b->qn++] = i;
		}
	}
}

/* Spread DRAINS and FLAT from the queued cells to every cell that drains
 * into one of them: up the heights, strictly by the step rule for DRAINS,
 * level or up for FLAT. Each cell is queued at most twice in all. */
static void
spread(breach *b)
{
	size_t h = 0;
	int k;

	while (h < b->qn) {
		uint32_t i = b->q[h++];
		float zi = *zp(b, i), s = tp_fill_step(b->f, zi);
		uint8_t bits = b->st[i] & (DRAINS | FLAT);

		for (k = 1; k <= 8; k++) {
			int64_t j = nb(b, i, k);
			uint8_t add = 0;

			if (j < 0 || !(b->st[j] & VALID))
				continue;
			float zj = *zp(b, (uint32_t)j);

			if ((bits & DRAINS) && !(b->st[j] & DRAINS) && zj >= s)
				add = DRAINS | FLAT;
			else if (!(b->st[j] & FLAT) && zj >= zi)
				add = FLAT;
			if (add) {
				b->st[j] |= add;
				b->q[b->qn++] = (uint32_t)j;
			}
		}
	}
	b->qn = 0;
}

static int
heap_push(breach *b, double cost, uint32_t i, int end, tp_err *e)
{
	ent v = { cost, b->seq++, i, (uint32_t)end };
	size_t c, p;

	if (b->an == b->acap) {
		size_t cap = b->acap ? 2 * b->acap : 256;
		ent *a = cap > SIZE_MAX / sizeof *a ? NULL :
		    realloc(b->a, cap * sizeof *a);

		if (a == NULL)
			return tp_err_set(e, "out of memory: a breach search "
			    "of %zu cells", b->an);
		b->a = a;
		b->acap = cap;
	}
	for (c = b->an++; c > 0; c = p) {
		p = (c - 1) / 2;
		if (b->a[p].cost < v.cost || (b->a[p].cost == v.cost &&
		    b->a[p].seq < v.seq))
			break;
		b->a[c] = b->a[p];
	}
	b->a[c] = v;
	return 0;
}

static int
less(const ent *x, const ent *y)
{
	return x->cost < y->cost || (x->cost == y->cost && x->seq < y->seq);
}

static ent
heap_pop(breach *b)
{
	ent top = b->a[0], last = b->a[--b->an];
	size_t c = 0, m;

	while ((m = 2 * c + 1) < b->an) {
		if (m + 1 < b->an && less(&b->a[m + 1], &b->a[m]))
			m++;
		if (!less(&b->a[m], &last))
			break;
		b->a[c] = b->a[m];
		c = m;
	}
	b->a[c] = last;
	return top;
}

/* level(l) of the current pit, the table grown as the search goes. */
static int
level(breach *b, uint32_t l, float *out, tp_err *e)
{
	while (b->lvn <= l) {
		if (b->lvn == b->lvcap) {
			size_t cap = b->lvcap ? 2 * b->lvcap : 64;
			float *a = realloc(b->lv, cap * sizeof *a);

			if (a == NULL)
				return tp_err_set(e, "out of memory: a breach "
				    "path of %zu cells", b->lvn);
			b->lv = a;
			b->lvcap = cap;
		}
		b->lv[b->lvn] = tp_breach_down(b->f, b->lv[b->lvn - 1]);
		b->lvn++;
	}
	*out = b->lv[l];
	return 0;
}

/* The search reaching neighbour j of cell i (cost c, l cells cut): j is
 * the end when it drains and lies at its level or below, or is an outlet
 * (cut there); else a cell to cut, within the limits. */
static int
reach(breach *b, uint32_t i, int k, uint32_t j, double c, tp_err *e)
{
	uint32_t l = b->len[i] + 1;
	float lj = 0, zj = *zp(b, j);
	int end;
	double cj;

	if (level(b, l, &lj, e) < 0)
		return -1;
	end = (b->st[j] & DRAINS) && zj <= lj;
	/* a cell at its level that does not drain lies in a lower depression
	 * left to the fill, which would raise the path out of it; and land
	 * cut below the sea level would turn into sea */
	if (!end && (zj <= lj || tp_d8_is_sea(lj, b->sea) ||
	    (b->o->length > 0 && (int64_t)l > b->o->length) ||
	    (double)b->orig[j] - lj > b->o->depth))
		return 0;
	end |= (b->st[j] & OUTLET) != 0;
	cj = c + (zj > lj ? (double)zj - lj : 0);
	if (b->link[j] != 0 && !(cj < b->cost[j]))
		return 0;
	if (b->link[j] == 0)
		b->touched[b->tn++] = j;
	b->link[j] = (uint8_t)tp_d8_back(k);
	b->cost[j] = cj;
	b->len[j] = l;
	return heap_push(b, cj, j, end, e);
}

/* Lower the path that ends at cell t to its levels, and let its cells
 * and the pit spread their drainage. */
static void
cut(breach *b, uint32_t t, tp_breach_stats *st)
{
	uint32_t i = t;

	for (;;) {
		float *zi = zp(b, i);

		int lowered = *zi > b->lv[b->len[i]];

		if (lowered) {
			*zi = b->lv[b->len[i]];
			st->cut++;
		}
		/* a lowered cell may take in neighbours that did not drain */
		if (lowered || !(b->st[i] & DRAINS))
			b->q[b->qn++] = i;
		b->st[i] |= DRAINS | FLAT;
		if (b->link[i] == 9)
			break;
		i = (uint32_t)nb(b, i, b->link[i]);
	}
	spread(b);
}

/* Search from pit p; cut the path found, if any. */
static int
search(breach *b, uint32_t p, tp_breach_stats *st, tp_err *e)
{
	int found = 0, k;

	b->lv[0] = *zp(b, p);
	b->lvn = 1;
	b->an = 0;
	b->link[p] = 9;
	b->cost[p] = 0;
	b->len[p] = 0;
	b->touched[b->tn++] = p;
	if (heap_push(b, 0, p, 0, e) < 0)
		return -1;
	while (b->an > 0 && !found) {
		ent v = heap_pop(b);

		if ((b->st[v.i] & DONE) || v.cost > b->cost[v.i])
			continue;
		b->st[v.i] |= DONE;
		if ((found = (int)v.end))
			cut(b, v.i, st);
		for (k = 1; k <= 8 && !found; k++) {
			int64_t j = nb(b, v.i, k);

			if (j >= 0 && (b->st[j] & VALID) && !(b->st[j] & DONE) &&
			    reach(b, v.i, k, (uint32_t)j, v.cost, e) < 0)
				return -1;
		}
	}
	st->breached += found;
	while (b->tn > 0) {
		uint32_t i = b->touched[--b->tn];

		b->link[i] = 0;
		b->st[i] &= (uint8_t)~DONE;
	}
	return 0;
}

/* Heights as unsigned keys in the order of the floats, above the index. */
static uint64_t
pit_key(float v, uint32_t i)
{
	return (uint64_t)tp_num_float_key(v) << 32 | i;
}

static int
cmp_key(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, c = *(const uint64_t *)y;

	return (a > c) - (a < c);
}

/* The pits, lowest first, into *pits (to free). */
static int
find_pits(breach *b, uint64_t **pits, size_t *np, tp_err *e)
{
	uint32_t i, n = (uint32_t)(b->w * b->h);
	size_t c = 0;
	int k;

	*pits = NULL;
	for (int pass = 0; pass < 2; pass++) {
		for (i = 0, c = 0; i < n; i++) {
			int pit = (b->st[i] & (VALID | FLAT)) == VALID;

			for (k = 1; k <= 8 && pit; k++) {
				int64_t j = nb(b, i, k);

				pit = !(j >= 0 && *zp(b, (uint32_t)j) <
				    *zp(b, i));
			}
			if (pit && pass)
				(*pits)[c] = pit_key(*zp(b, i), i);
			c += (size_t)pit;
		}
		if (pass == 0 && (*pits = malloc((c ? c : 1) *
		    sizeof **pits)) == NULL)
			return tp_err_set(e, "out of memory: %zu pits", c);
	}
	qsort(*pits, c, sizeof **pits, cmp_key);
	*np = c;
	return 0;
}

static int
alloc(breach *b, tp_err *e)
{
	size_t n = (size_t)(b->w * b->h);

	b->orig = malloc(n * sizeof *b->orig);
	b->st = calloc(n, 1);
	b->link = calloc(n, 1);
	b->cost = malloc(n * sizeof *b->cost);
	b->len = malloc(n * sizeof *b->len);
	b->q = malloc(2 * n * sizeof *b->q);
	b->touched = malloc(n * sizeof *b->touched);
	b->lv = malloc(64 * sizeof *b->lv);
	b->lvcap = 64;
	if (!b->orig || !b->st || !b->link || !b->cost || !b->len || !b->q ||
	    !b->touched || !b->lv)
		return tp_err_set(e, "out of memory: breaching %lldx%lld cells",
		    (long long)b->w, (long long)b->h);
	return 0;
}

static void
release(breach *b)
{
	free(b->orig);
	free(b->st);
	free(b->link);
	free(b->cost);
	free(b->len);
	free(b->q);
	free(b->touched);
	free(b->a);
	free(b->lv);
}

int
tp_breach(float *z, int64_t w, int64_t h, size_t stride,
    const tp_fill_opts *f, double sea_level, const tp_breach_opts *o,
    tp_breach_stats *st, tp_err *e)
{
	breach b = { .z = z, .w = w, .h = h, .stride = stride, .f = f,
	    .o = o };
	tp_breach_stats dummy;
	uint64_t *pits = NULL;
	size_t np = 0, k;
	int rc = -1;

	if (st == NULL)
		st = &dummy;
	memset(st, 0, sizeof *st);
	if (w < 1 || h < 1 || stride < (size_t)w)
		return tp_err_set(e, "breach: bad plane %lldx%lld",
		    (long long)w, (long long)h);
	if ((uint64_t)w * (uint64_t)h >= (uint64_t)1 << 32)
		return tp_err_set(e, "breach: %lldx%lld is 2^32 cells or more",
		    (long long)w, (long long)h);
	if (alloc(&b, e) < 0)
		goto out;
	b.sea = tp_d8_sea_below(sea_level);
	classify(&b, b.sea);
	spread(&b);
	if (find_pits(&b, &pits, &np, e) < 0)
		goto out;
	for (k = 0; k < np; k++) {
		uint32_t p = (uint32_t)pits[k];

		if (b.st[p] & FLAT)
			continue;
		st->pits++;
		if (search(&b, p, st, e) < 0)
			goto out;
	}
	rc = 0;
out:
	free(pits);
	release(&b);
	return rc;
}
