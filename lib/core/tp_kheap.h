/*
 * tp_kheap.h - a binary min-heap of 64-bit keys, for the floods over tile
 * rings and tiles: a key is a float's order (tp_kheap_fkey) in its high
 * 32 bits above a 32-bit index, so the lowest value comes out first and
 * equal values by index.
 */
#ifndef TP_KHEAP_H
#define TP_KHEAP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/tp_err.h"

typedef struct tp_kheap {
	uint64_t *a;
	size_t	n, cap;
} tp_kheap;

/* An unsigned key in the order of the floats (-inf < ... < +inf). */
static inline uint32_t
tp_kheap_fkey(float v)
{
	uint32_t b;

	memcpy(&b, &v, sizeof b);
	return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

/* The key of value v at index i (i < 2^32). */
static inline uint64_t
tp_kheap_key(float v, uint64_t i)
{
	return (uint64_t)tp_kheap_fkey(v) << 32 | i;
}

/* A FIFO of keys, a ring that doubles when full. */
typedef struct tp_kheap_fifo {
	uint64_t *a;
	size_t	head, n, cap;	/* cap a power of two */
} tp_kheap_fifo;

/* A heap with a FIFO beside it for keys that come in order (the cells a
 * flood raises to the level of the cell it took), which need no heap;
 * pops merge the two by key, the FIFO first on a tie. */
typedef struct tp_kheap_queue {
	tp_kheap h;
	tp_kheap_fifo f;
} tp_kheap_queue;

/* Add k; -1 with e set when out of memory (`what` names the queue). */
int	tp_kheap_push(tp_kheap *h, uint64_t k, const char *what, tp_err *e);
/* Take the lowest key; the heap holds one. */
uint64_t tp_kheap_pop(tp_kheap *h);
void	tp_kheap_free(tp_kheap *h);

int	tp_kheap_fifo_push(tp_kheap_fifo *q, uint64_t k, const char *what,
	    tp_err *e);
void	tp_kheap_fifo_free(tp_kheap_fifo *q);

static inline uint64_t
tp_kheap_fifo_pop(tp_kheap_fifo *q)
{
	uint64_t k = q->a[q->head];

	q->head = (q->head + 1) & (q->cap - 1);
	q->n--;
	return k;
}

/* Add k to the FIFO: k is not below any key it holds. */
static inline int
tp_kheap_queue_fifo(tp_kheap_queue *q, uint64_t k, const char *what, tp_err *e)
{
	return tp_kheap_fifo_push(&q->f, k, what, e);
}

/* Take the lowest key; the queue holds one. */
uint64_t tp_kheap_queue_pop(tp_kheap_queue *q);
void	tp_kheap_queue_free(tp_kheap_queue *q);

static inline size_t
tp_kheap_queue_len(const tp_kheap_queue *q)
{
	return q->h.n + q->f.n;
}

/*
 * A radix heap (Ahuja, Mehlhorn, Orlin and Tarjan 1990) of the same keys,
 * for floods whose cells leave in non-decreasing order: every key pushed
 * must be >= the key last popped. Bucket 0 holds keys equal to `last`,
 * bucket b > 0 keys whose highest bit differing from `last` is bit b - 1.
 * Each bucket keeps its minimum, so the minimum is known without popping
 * (a FIFO beside it can be compared with it). Push is O(1); a key moves
 * down at most 32 buckets over its life. Fully deterministic.
 */
#define TP_RHEAP_NB 33

typedef struct tp_kheap_rbucket {
	uint64_t *a;
	size_t	n, cap;
} tp_kheap_rbucket;

typedef struct tp_kheap_radix {
	tp_kheap_rbucket b[TP_RHEAP_NB];
	uint32_t bmin[TP_RHEAP_NB];	/* smallest key in each bucket */
	uint64_t bent[TP_RHEAP_NB];	/* and its entry */
	uint64_t mask;		/* bit b set when bucket b is not empty */
	uint32_t last;		/* the key last popped */
	size_t	n;		/* keys held */
} tp_kheap_radix;

void	tp_kheap_radix_init(tp_kheap_radix *h);
void	tp_kheap_radix_free(tp_kheap_radix *h);
/* Room for one more key in bucket b; -1 with e set when out of memory. */
int	tp_kheap_radix_grow(tp_kheap_rbucket *b, tp_err *e);

static inline int
tp_kheap_radix_bucket(uint32_t key, uint32_t last)
{
	return key == last ? 0 : 32 - __builtin_clz(key ^ last);
}

static inline int
tp_kheap_radix_push(tp_kheap_radix *h, uint64_t v, tp_err *e)
{
	uint32_t key = (uint32_t)(v >> 32);
	int i = tp_kheap_radix_bucket(key, h->last);
	tp_kheap_rbucket *b = &h->b[i];

	if (b->n == b->cap && tp_kheap_radix_grow(b, e) < 0)
		return -1;
	b->a[b->n++] = v;
	if (key < h->bmin[i]) {
		h->bmin[i] = key;
		h->bent[i] = v;
	}
	h->mask |= UINT64_C(1) << i;
	h->n++;
	return 0;
}

/* The smallest key; the heap must not be empty. */
static inline uint32_t
tp_kheap_radix_min(const tp_kheap_radix *h)
{
	return h->bmin[__builtin_ctzll(h->mask)];
}

/* The entry tp_kheap_radix_pop would return now; the heap must not be empty. */
static inline uint64_t
tp_kheap_radix_peek(const tp_kheap_radix *h)
{
	int i = __builtin_ctzll(h->mask);

	return i == 0 ? h->b[0].a[h->b[0].n - 1] : h->bent[i];
}

/* Pop a smallest entry: refill bucket 0 from the lowest bucket first. */
static inline int
tp_kheap_radix_pop(tp_kheap_radix *h, uint64_t *out, tp_err *e)
{
	tp_kheap_rbucket *b0 = &h->b[0], *src;
	size_t k, n;
	int i;

	if (b0->n == 0) {
		i = __builtin_ctzll(h->mask);
		src = &h->b[i];
		h->last = h->bmin[i];
		n = src->n;
		src->n = 0;
		h->bmin[i] = UINT32_MAX;
		h->mask &= ~(UINT64_C(1) << i);
		h->n -= n;
		for (k = 0; k < n; k++)
			if (tp_kheap_radix_push(h, src->a[k], e) < 0)
				return -1;
	}
	*out = b0->a[--b0->n];
	h->n--;
	if (b0->n == 0) {
		h->mask &= ~UINT64_C(1);
		h->bmin[0] = UINT32_MAX;
	}
	return 0;
}

/*
 * A radix heap on the keys' bytes, for floods that push many keys: the
 * order and the rule of tp_kheap_radix (non-decreasing keys, entries of
 * equal keys in no promised order; every key pushed >= the key last
 * popped), but a key moves at most 3 times instead of up to 32. Bucket
 * (l, d) holds the keys whose highest byte differing from `last` is byte
 * l, d being that byte of the key (on level 0 one key a bucket). Buckets
 * are lists of chunks from a common pool, so that memory follows the
 * keys held rather than each bucket's largest size; on level 0, where a
 * bucket holds few entries (most keys are distinct), the first is kept
 * in a table. Fully deterministic.
 */
#define TP_DHEAP_CHUNK	254	/* entries a chunk: 2 KiB */

typedef struct tp_kheap_chunk {
	struct tp_kheap_chunk *next;
	uint32_t n;
	uint64_t a[TP_DHEAP_CHUNK];
} tp_kheap_chunk;

typedef struct tp_kheap_digits {
	tp_kheap_chunk *b[4][256];	/* each bucket's chunks, fullest first */
	uint64_t one[256];	/* level 0: a bucket's first entry, */
	uint32_t n0[256];	/* and how many it holds */
	uint32_t bmin[4][256];	/* smallest key in each bucket */
	uint64_t bits[4][4];	/* bit d: bucket d not empty */
	unsigned lmask;		/* bit l: level l not empty */
	uint32_t last;		/* the key last popped */
	size_t	n;		/* keys held */
	tp_kheap_chunk *pool;	/* chunks not in use */
} tp_kheap_digits;

void	tp_kheap_digits_init(tp_kheap_digits *h);
void	tp_kheap_digits_free(tp_kheap_digits *h);
/* A new first chunk for bucket (l, d); -1 with e set when out of memory. */
int	tp_kheap_digits_chunk(tp_kheap_digits *h, int l, unsigned d,
	    tp_err *e);
/* Move the lowest bucket, on a level above 0, down (tp_kheap_digits_pop). */
int	tp_kheap_digits_settle(tp_kheap_digits *h, tp_err *e);

static inline int
tp_kheap_digits_push(tp_kheap_digits *h, uint64_t v, tp_err *e)
{
	uint32_t key = (uint32_t)(v >> 32), x = key ^ h->last;
	int l = x ? (31 - __builtin_clz(x)) >> 3 : 0;
	unsigned d = (key >> (8 * l)) & 255;
	tp_kheap_chunk *c;

	if (l == 0 && h->n0[d]++ == 0) {
		h->one[d] = v;
		h->bmin[0][d] = key;
		h->bits[0][d >> 6] |= UINT64_C(1) << (d & 63);
		h->lmask |= 1u;
		h->n++;
		return 0;
	}
	c = h->b[l][d];
	if ((c == NULL || c->n == TP_DHEAP_CHUNK) &&
	    tp_kheap_digits_chunk(h, l, d, e) < 0)
		return -1;
	c = h->b[l][d];
	c->a[c->n++] = v;
	if (key < h->bmin[l][d])
		h->bmin[l][d] = key;
	h->bits[l][d >> 6] |= UINT64_C(1) << (d & 63);
	h->lmask |= 1u << l;
	h->n++;
	return 0;
}

/* The lowest bucket not empty, its level in *l; the heap must not be
 * empty. */
static inline unsigned
tp_kheap_digits_lowest(const tp_kheap_digits *h, int *l)
{
	const uint64_t *w = h->bits[*l = __builtin_ctz(h->lmask)];
	int i = 0;

	while (w[i] == 0)
		i++;
	return 64 * (unsigned)i + (unsigned)__builtin_ctzll(w[i]);
}

/* The smallest key; the heap must not be empty. */
static inline uint32_t
tp_kheap_digits_min(const tp_kheap_digits *h)
{
	int l;
	unsigned d = tp_kheap_digits_lowest(h, &l);

	return h->bmin[l][d];
}

/* Mark bucket (l, d), now empty, so. */
static inline void
tp_kheap_digits_emptied(tp_kheap_digits *h, int l, unsigned d)
{
	uint64_t *w = h->bits[l];

	h->bmin[l][d] = UINT32_MAX;
	w[d >> 6] &= ~(UINT64_C(1) << (d & 63));
	if ((w[0] | w[1] | w[2] | w[3]) == 0)
		h->lmask &= ~(1u << l);
}

/* Pop an entry of the smallest key; the heap must not be empty. */
static inline int
tp_kheap_digits_pop(tp_kheap_digits *h, uint64_t *out, tp_err *e)
{
	tp_kheap_chunk *c;
	unsigned d;
	int l;

	if (!(h->lmask & 1) && tp_kheap_digits_settle(h, e) < 0)
		return -1;
	d = tp_kheap_digits_lowest(h, &l);
	h->last = h->bmin[0][d];
	h->n--;
	if (--h->n0[d] == 0) {
		*out = h->one[d];
		tp_kheap_digits_emptied(h, 0, d);
		return 0;
	}
	c = h->b[0][d];
	*out = c->a[--c->n];
	if (c->n == 0) {
		h->b[0][d] = c->next;
		c->next = h->pool;
		h->pool = c;
	}
	return 0;
}

#endif
