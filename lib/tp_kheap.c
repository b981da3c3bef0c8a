/* tp_kheap.c - a binary min-heap of 64-bit keys. */
#include <stdlib.h>

#include "tp_kheap.h"

int
tp_kheap_push(tp_kheap *h, uint64_t k, const char *what, tp_err *e)
{
	size_t i, p;
	uint64_t *a;

	if (h->n == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 4096;

		if (cap > SIZE_MAX / sizeof *a ||
		    (a = realloc(h->a, cap * sizeof *a)) == NULL)
			return tp_err_set(e, "out of memory: %s needs %.1f MiB",
			    what, (double)cap * 8 / 1048576.0);
		h->a = a;
		h->cap = cap;
	}
	for (i = h->n++; i > 0 && h->a[p = (i - 1) / 2] > k; i = p)
		h->a[i] = h->a[p];
	h->a[i] = k;
	return 0;
}

uint64_t
tp_kheap_pop(tp_kheap *h)
{
	uint64_t top = h->a[0], last = h->a[--h->n];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < h->n) {
		if (c + 1 < h->n && h->a[c + 1] < h->a[c])
			c++;
		if (h->a[c] >= last)
			break;
		h->a[i] = h->a[c];
		i = c;
	}
	h->a[i] = last;
	return top;
}

void
tp_kheap_free(tp_kheap *h)
{
	free(h->a);
	h->a = NULL;
	h->n = h->cap = 0;
}
