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

#include "tp_err.h"

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

/* Add k; -1 with e set when out of memory (`what` names the queue). */
int	tp_kheap_push(tp_kheap *h, uint64_t k, const char *what, tp_err *e);
/* Take the lowest key; the heap holds one. */
uint64_t tp_kheap_pop(tp_kheap *h);
void	tp_kheap_free(tp_kheap *h);

#endif
