/* tp_filltile_pack.c - a tile's filled surface held small (tp_filltile_pack.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_d8.h"
#include "hydro/tiled/tp_filltile_pack.h"

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

/* The code of f: a cell's value as its order (tp_kheap_fkey's, a
 * bijection) minus the order of the cell before it in the row's set, a
 * byte from -127 to 127, or ESC and the order's 4 bytes. Each row starts
 * from order 0, so a row's code is read and written without the others:
 * in a lake the cells beside each other are within one ulp (one took the
 * step of the other or is below it) and most cost a byte. Exact: the
 * order is the float's bits. */
#define ESC 0x80

static inline uint32_t
order(float v)
{
	uint32_t b;

	memcpy(&b, &v, sizeof b);
	return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

static inline float
unorder(uint32_t k)
{
	uint32_t b = (k & 0x80000000u) ? (k & 0x7fffffffu) : ~k;
	float v;

	memcpy(&v, &b, sizeof v);
	return v;
}

/* The code of order k after order *prev into o; returns its end. */
static inline unsigned char *
code_put(unsigned char *o, uint32_t k, uint32_t *prev)
{
	uint32_t d = k - *prev;

	*prev = k;
	if (d + 127u <= 254u) {
		*o = (unsigned char)(d & 0xff);
		return o + 1;
	}
	*o = ESC;
	memcpy(o + 1, &k, sizeof k);
	return o + 5;
}

static inline size_t
code_len(uint32_t k, uint32_t *prev)
{
	uint32_t d = k - *prev;

	*prev = k;
	return d + 127u <= 254u ? 1 : 5;
}

/* The next order of a row's code at i into *prev; returns the code after. */
static inline const unsigned char *
code_get(const unsigned char *i, uint32_t *prev)
{
	if (*i != ESC) {
		*prev += (uint32_t)(int32_t)(signed char)*i;
		return i + 1;
	}
	memcpy(prev, i + 1, sizeof *prev);
	return i + 5;
}

/* One row of put_all: the set's bits of the row's cells (f, heights z)
 * into bits, their code into out; returns the code's end, *n counts. */
static unsigned char *
put_row(const float *f, const float *z, int64_t w, uint64_t *bits,
    unsigned char *out, int64_t *n)
{
	uint64_t word = 0;
	uint32_t prev = 0;
	int64_t x;

	for (x = 0; x < w; x++) {
		if (!same(f[x], z[x])) {
			word |= (uint64_t)1 << (x & 63);
			out = code_put(out, order(f[x]), &prev);
			(*n)++;
		}
		if ((x & 63) == 63) {
			bits[x / 64] = word;
			word = 0;
		}
	}
	if (w & 63)
		bits[w / 64] = word;
	return out;
}

/* Room for a code of len bytes (one at least, so that it is never NULL). */
static unsigned char *
code_resize(unsigned char *f, size_t len)
{
	return realloc(f, len > 0 ? len : 1);
}

/* Every cell visited: the set, its code into a buffer of the largest
 * code the tile can have, cut to fit after (the untouched end of it is
 * never in memory). */
static int
put_all(tp_filltile_pack *p, const tp_filltile_tile *t, tp_err *e)
{
	size_t rw = row_words(t), ps = (size_t)t->w + 2;
	uint64_t *open = malloc(rw * (size_t)t->h * sizeof *open);
	size_t *row = malloc(((size_t)t->h + 1) * sizeof *row);
	unsigned char *f = malloc((size_t)t->w * (size_t)t->h * 5 + 1), *o, *sh;
	int64_t y, n = 0;

	if (open == NULL || f == NULL || row == NULL) {
		free(open);
		free(f);
		free(row);
		return tp_err_set(e, "out of memory: packing a tile needs "
		    "%.1f MiB", (double)t->w * (double)t->h * 5 / 1048576.0);
	}
	for (o = f, y = 0; y < t->h; y++) {
		row[y] = (size_t)(o - f);
		o = put_row(t->f + (size_t)(y + 1) * ps + 1, t->src +
		    (size_t)y * t->sstride, t->w, open + (size_t)y * rw, o, &n);
	}
	row[t->h] = (size_t)(o - f);
	p->open = open;
	p->f = f;
	p->row = row;
	p->n = n;
	if ((sh = code_resize(f, row[t->h])) != NULL)
		p->f = sh;
	return 0;
}

/* The length of the code of rows low0 .. low1 once the cells of p's set
 * now at their height have left it. */
static size_t
set_len(const tp_filltile_pack *p, const tp_filltile_tile *t)
{
	size_t rw = row_words(t), wi, len = 0;
	uint64_t bits;
	uint32_t prev;
	int64_t y, x;
	float fv;

	for (y = t->low0; y <= t->low1; y++)
		for (prev = 0, wi = 0; wi < rw; wi++)
			for (bits = p->open[(size_t)y * rw + wi]; bits != 0;
			    bits &= bits - 1) {
				x = (int64_t)(wi * 64) + __builtin_ctzll(bits);
				fv = plane_f(t, x, y);
				if (!same(fv, height(t, x, y)))
					len += code_len(order(fv), &prev);
			}
	return len;
}

/* The code of rows low0 .. low1 written from where the first starts;
 * the cells now at their height leave the set. Returns how many stay. */
static int64_t
set_write(tp_filltile_pack *p, const tp_filltile_tile *t)
{
	size_t rw = row_words(t), wi;
	unsigned char *o = p->f + p->row[t->low0];
	uint64_t *word, bits;
	uint32_t prev;
	int64_t y, x, n = 0;
	float fv;
	int b;

	for (y = t->low0; y <= t->low1; y++) {
		p->row[y] = (size_t)(o - p->f);
		for (prev = 0, wi = 0; wi < rw; wi++) {
			word = &p->open[(size_t)y * rw + wi];
			for (bits = *word; bits != 0; bits &= bits - 1) {
				b = __builtin_ctzll(bits);
				x = (int64_t)(wi * 64) + b;
				fv = plane_f(t, x, y);
				if (same(fv, height(t, x, y))) {
					*word &= ~((uint64_t)1 << b);
					continue;
				}
				o = code_put(o, order(fv), &prev);
				n++;
			}
		}
	}
	return n;
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
 * leave it, the others' code is written over the old, and the rows
 * after move behind it (first when it grows, after when it shrinks). */
static int
put_set(tp_filltile_pack *p, const tp_filltile_tile *t, tp_err *e)
{
	size_t a, b, end, mid, y;
	unsigned char *sh;
	int64_t n;

	if (t->low0 > t->low1)
		return 0;
	a = p->row[t->low0];
	b = p->row[t->low1 + 1];
	end = p->row[t->h];
	mid = set_len(p, t);
	n = p->n - count_rows(p, t, t->low0, t->low1 + 1);
	if (a + mid > b) {
		if ((sh = code_resize(p->f, end - b + a + mid)) == NULL)
			return tp_err_set(e, "out of memory: packing a tile "
			    "needs %.1f MiB", (double)(end - b + a + mid) /
			    1048576.0);
		p->f = sh;
		memmove(p->f + a + mid, p->f + b, end - b);
	}
	n += set_write(p, t);
	if (a + mid < b) {
		memmove(p->f + a + mid, p->f + b, end - b);
		if ((sh = code_resize(p->f, end - b + a + mid)) != NULL)
			p->f = sh;
	}
	for (y = (size_t)t->low1 + 1; y <= (size_t)t->h; y++)
		p->row[y] = p->row[y] - b + a + mid;
	p->n = n;
	return 0;
}

int
tp_filltile_pack_put(tp_filltile_pack *p, const tp_filltile_tile *t,
    tp_err *e)
{
	if (p->open != NULL)
		return put_set(p, t, e);
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

/* The f of row y's set over row's cells. */
static void
row_get(const tp_filltile_pack *p, const tp_filltile_tile *t, int64_t y,
    float *row)
{
	size_t rw = row_words(t), wi;
	const unsigned char *i = p->f + p->row[y];
	uint64_t bits;
	uint32_t k = 0;

	for (wi = 0; wi < rw; wi++)
		for (bits = p->open[(size_t)y * rw + wi]; bits != 0;
		    bits &= bits - 1) {
			i = code_get(i, &k);
			row[wi * 64 + (size_t)__builtin_ctzll(bits)] =
			    unorder(k);
		}
}

void
tp_filltile_pack_get(const tp_filltile_pack *p, tp_filltile_tile *t,
    float sea)
{
	size_t ps = (size_t)t->w + 2;
	int64_t y, x;
	float *row, zv;

	for (y = 0; y < t->h; y++) {
		row = t->f + (size_t)(y + 1) * ps + 1;
		if (p->dry) {
			for (x = 0; x < t->w; x++) {
				zv = height(t, x, y);
				row[x] = tp_d8_outside(zv, sea) ? zv : INFINITY;
			}
			continue;
		}
		memcpy(row, t->src + (size_t)y * t->sstride,
		    (size_t)t->w * sizeof *row);
		row_get(p, t, y, row);
	}
}

void
tp_filltile_pack_store(const tp_filltile_pack *p, const tp_filltile_tile *t,
    float *dst, size_t stride, float sea)
{
	int64_t y, x;
	float *row;

	for (y = 0; y < t->h; y++) {
		row = dst + (size_t)y * stride;
		if (p->dry) {
			for (x = 0; x < t->w; x++)
				if (!tp_d8_outside(row[x], sea))
					row[x] = INFINITY;
			continue;
		}
		row_get(p, t, y, row);
	}
}

void
tp_filltile_pack_free(tp_filltile_pack *p)
{
	free(p->open);
	free(p->f);
	free(p->row);
	memset(p, 0, sizeof *p);
}
