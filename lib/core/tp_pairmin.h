/*
 * tp_pairmin.h - the lowest value seen for each unordered pair of 32-bit
 * labels: an open-addressing map, for the graphs the fills build (the
 * basins' spill edges, a tile's ring graph), where an edge between two
 * regions is met many times and only its lowest crossing matters.
 *
 * A pair's key is lo << 32 | hi (lo < hi), so 0 is never a key and marks
 * an empty slot. The slots are in no order: a caller that needs one sorts
 * what it reads out.
 */
#ifndef TP_PAIRMIN_H
#define TP_PAIRMIN_H

#include <stddef.h>
#include <stdint.h>

#include "core/tp_err.h"

typedef struct tp_pairmin {
	uint64_t *key;		/* cap slots, 0 where empty */
	float	*v;		/* the lowest value of the slot's pair */
	size_t	cap, n;		/* cap 0 or a power of two; n pairs */
} tp_pairmin;

/* The key of labels a and b (a != b). */
static inline uint64_t
tp_pairmin_key(uint32_t a, uint32_t b)
{
	return a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
}

/* Keep v for the pair of key if it is the pair's lowest yet; -1 with e
 * set when the map cannot grow (`what` names the map in the message). */
int	tp_pairmin_put(tp_pairmin *m, uint64_t key, float v, const char *what,
	    tp_err *e);
void	tp_pairmin_free(tp_pairmin *m);

#endif
