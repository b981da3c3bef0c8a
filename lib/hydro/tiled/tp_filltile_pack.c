/* tp_filltile_pack.c - a tile's filled surface held small (tp_filltile_pack.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tiled/tp_filltile_pack.h"

/* NaN or sea, as tp_fill.c and tp_filltile.c tell them. */
static inline int
outside(float v, float sea)
{
	return !(v >= sea) && v != -INFINITY;
}

/* The same bits: a float compare would call NaN unequal to itself. */
static inline int
same(float a, float b)
{
	uint32_t x, y;

	memcpy(&x, &a, sizeof x);
	memcpy(&y, &b, sizeof y);
	return x == y;
}

static inline size_t
row_words(const tp_filltile_tile *t)
{
	return ((size_t)t->w + 63) / 64;
}

/* f of inner cell (x, y) of t's plane, and its height. */
static inline float
plane_f(const tp_filltile_tile *t, int64_t x, int64_t y)
{
	return t->f[(size_t)(y + 1) * ((size_t)t->w + 2) + (size_t)x + 1];
}

static inline float
height(const tp_filltile_tile *t, int64_t x, int64_t y)
{
	return t->src[(size_t)y * t->sstride + (size_t)x];
}

/* One row of put_all: the set's bits of the row's cells (f, heights z)
 * into bits, their f into out; returns how many. */
static int64_t
put_row(const float *f, const float *z, int64_t w, uint64_t *bits, float *out)
{
	uint64_t word = 0;
	int64_t x, n = 0;
	int kept;

	/* no branch on the compare: whether a cell is kept is a coin toss */
	for (x = 0; x < w; x++) {
		kept = !same(f[x], z[x]);
		word |= (uint64_t)kept << (x & 63);
		out[n] = f[x];
		n += kept;
		if ((x & 63) == 63) {
			bits[x / 64] = word;
			word = 0;
		}
	}
	if (w & 63)
		bits[w / 64] = word;
	return n;
}

/* Every cell visited: the set, its f into a buffer of the tile's size
 * cut to fit after. */
static int
put_all(tp_filltile_pack *p, const tp_filltile_tile *t, tp_err *e)
{
	size_t rw = row_words(t), ps = (size_t)t->w + 2;
	uint64_t *open = malloc(rw * (size_t)t->h * sizeof *open);
	float *f = malloc((size_t)t->w * (size_t)t->h * sizeof *f), *sh;
	int64_t y, n = 0;

	if (open == NULL || f == NULL) {
		free(open);
		free(f);
		return tp_err_set(e, "out of memory: packing a tile needs "
		    "%.1f MiB", (double)t->w * (double)t->h * 4 / 1048576.0);
	}
	for (y = 0; y < t->h; y++)
		n += put_row(t->f + (size_t)(y + 1) * ps + 1, t->src +
		    (size_t)y * t->sstride, t->w, open + (size_t)y * rw, f + n);
	p->open = open;
	p->f = f;
	p->n = n;
	if (n > 0 && (sh = realloc(f, (size_t)n * sizeof *f)) != NULL)
		p->f = sh;
	return 0;
}

/* The set bits of rows [y0, y1). */
static int64_t
count_rows(const tp_filltile_pack *p, const tp_filltile_tile *t, int64_t y0,
    int64_t y1)
{
	size_t rw = row_words(t), i;
	int64_t n = 0;

	for (i = (size_t)y0 * rw; i < (size_t)y1 * rw; i++)
		n += __builtin_popcountll(p->open[i]);
	return n;
}

/* Only the cells of p's set in the rows the relax lowered (t->low0 ..
 * t->low1; the others are as p holds them): those now at their height
 * leave it, the others' f is written over the old in place (never ahead
 * of it), and the rows after move up behind them. */
static void
put_set(tp_filltile_pack *p, const tp_filltile_tile *t)
{
	size_t rw = row_words(t), wi;
	uint64_t *word, bits;
	int64_t y, x, n = count_rows(p, t, 0, t->low0), tail;
	float fv, *sh;
	int b, gone;

	if (t->low0 > t->low1)
		return;
	tail = p->n - n - count_rows(p, t, t->low0, t->low1 + 1);
	/* no branch on the compare: whether a cell stays is a coin toss */
	for (y = t->low0; y <= t->low1; y++)
		for (wi = 0; wi < rw; wi++) {
			word = &p->open[(size_t)y * rw + wi];
			for (bits = *word; bits != 0; bits &= bits - 1) {
				b = __builtin_ctzll(bits);
				x = (int64_t)(wi * 64) + b;
				fv = plane_f(t, x, y);
				gone = same(fv, height(t, x, y));
				p->f[n] = fv;
				n += !gone;
				*word &= ~((uint64_t)gone << b);
			}
		}
	memmove(p->f + n, p->f + p->n - tail, (size_t)tail * sizeof *p->f);
	n += tail;
	if (n < p->n && n > 0 &&
	    (sh = realloc(p->f, (size_t)n * sizeof *sh)) != NULL)
		p->f = sh;
	p->n = n;
}

int
tp_filltile_pack_put(tp_filltile_pack *p, const tp_filltile_tile *t,
    tp_err *e)
{
	if (p->open != NULL) {
		put_set(p, t);
		return 0;
	}
	if (p->dry && t->low0 > t->low1)
		return 0;	/* relaxed, and no cell reached yet */
	tp_filltile_pack_free(p);
	return put_all(p, t, e);
}

void
tp_filltile_pack_dry(tp_filltile_pack *p)
{
	tp_filltile_pack_free(p);
	p->dry = 1;
}

void
tp_filltile_pack_get(const tp_filltile_pack *p, tp_filltile_tile *t,
    float sea)
{
	size_t rw = row_words(t), ps = (size_t)t->w + 2, wi;
	int64_t y, x, n = 0;
	uint64_t bits;
	float *row, zv;

	for (y = 0; y < t->h; y++) {
		row = t->f + (size_t)(y + 1) * ps + 1;
		if (p->dry) {
			for (x = 0; x < t->w; x++) {
				zv = height(t, x, y);
				row[x] = outside(zv, sea) ? zv : INFINITY;
			}
			continue;
		}
		memcpy(row, t->src + (size_t)y * t->sstride,
		    (size_t)t->w * sizeof *row);
		for (wi = 0; wi < rw; wi++)
			for (bits = p->open[(size_t)y * rw + wi]; bits != 0;
			    bits &= bits - 1)
				row[wi * 64 + (size_t)__builtin_ctzll(bits)] =
				    p->f[n++];
	}
}

void
tp_filltile_pack_store(const tp_filltile_pack *p, const tp_filltile_tile *t,
    float *dst, size_t stride, float sea)
{
	size_t rw = row_words(t), wi;
	int64_t y, x, n = 0;
	uint64_t bits;
	float *row;

	for (y = 0; y < t->h; y++) {
		row = dst + (size_t)y * stride;
		if (p->dry) {
			for (x = 0; x < t->w; x++)
				if (!outside(row[x], sea))
					row[x] = INFINITY;
			continue;
		}
		for (wi = 0; wi < rw; wi++)
			for (bits = p->open[(size_t)y * rw + wi]; bits != 0;
			    bits &= bits - 1)
				row[wi * 64 + (size_t)__builtin_ctzll(bits)] =
				    p->f[n++];
	}
}

void
tp_filltile_pack_free(tp_filltile_pack *p)
{
	free(p->open);
	free(p->f);
	memset(p, 0, sizeof *p);
}
