/* tp_pairmin.c - the lowest value of each pair of labels (tp_pairmin.h). */
#include <stdlib.h>

#include "core/tp_pairmin.h"

/* Fibonacci hashing: the product's high bits, so that keys which differ
 * only in their high half (lo) spread as well as those that differ in hi. */
static inline size_t
slot(uint64_t key, size_t cap)
{
	return (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & (cap - 1);
}

static int
grow(tp_pairmin *m, const char *what, tp_err *e)
{
	size_t cap = m->cap ? m->cap * 2 : 1024, i, j;
	uint64_t *key = calloc(cap, sizeof *key);
	float *v = malloc(cap * sizeof *v);

	if (key == NULL || v == NULL) {
		free(key);
		free(v);
		return tp_err_set(e, "out of memory: %s of %zu pairs", what,
		    m->n);
	}
	for (i = 0; i < m->cap; i++) {
		if (m->key[i] == 0)
			continue;
		for (j = slot(m->key[i], cap); key[j] != 0;
		    j = (j + 1) & (cap - 1))
			;
		key[j] = m->key[i];
		v[j] = m->v[i];
	}
	free(m->key);
	free(m->v);
	m->key = key;
	m->v = v;
	m->cap = cap;
	return 0;
}

int
tp_pairmin_put(tp_pairmin *m, uint64_t key, float v, const char *what,
    tp_err *e)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap && grow(m, what, e) < 0)
		return -1;
	for (i = slot(key, m->cap); m->key[i] != 0 && m->key[i] != key;
	    i = (i + 1) & (m->cap - 1))
		;
	if (m->key[i] == 0) {
		m->key[i] = key;
		m->v[i] = v;
		m->n++;
	} else if (v < m->v[i])
		m->v[i] = v;
	return 0;
}

void
tp_pairmin_free(tp_pairmin *m)
{
	free(m->key);
	free(m->v);
	m->key = NULL;
	m->v = NULL;
	m->cap = m->n = 0;
}
