/* tp_kheap.c - a binary min-heap of 64-bit keys. */
#include <stdlib.h>
#include <string.h>

#include "core/tp_kheap.h"

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

int
tp_kheap_fifo_push(tp_kheap_fifo *q, uint64_t k, const char *what, tp_err *e)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 4096, i;
		uint64_t *a = cap > SIZE_MAX / sizeof *a ? NULL :
		    malloc(cap * sizeof *a);

		if (a == NULL)
			return tp_err_set(e, "out of memory: %s needs %.1f MiB",
			    what, (double)cap * 8 / 1048576.0);
		for (i = 0; i < q->n; i++)
			a[i] = q->a[(q->head + i) & (q->cap - 1)];
		free(q->a);
		q->a = a;
		q->head = 0;
		q->cap = cap;
	}
	q->a[(q->head + q->n++) & (q->cap - 1)] = k;
	return 0;
}

void
tp_kheap_fifo_free(tp_kheap_fifo *q)
{
	free(q->a);
	q->a = NULL;
	q->head = q->n = q->cap = 0;
}

uint64_t
tp_kheap_queue_pop(tp_kheap_queue *q)
{
	if (q->f.n > 0 && (q->h.n == 0 || q->f.a[q->f.head] >> 32 <=
	    q->h.a[0] >> 32))
		return tp_kheap_fifo_pop(&q->f);
	return tp_kheap_pop(&q->h);
}

void
tp_kheap_queue_free(tp_kheap_queue *q)
{
	tp_kheap_free(&q->h);
	tp_kheap_fifo_free(&q->f);
}

void
tp_kheap_radix_init(tp_kheap_radix *h)
{
	memset(h, 0, sizeof *h);
	for (int i = 0; i < TP_RHEAP_NB; i++)
		h->bmin[i] = UINT32_MAX;
}

void
tp_kheap_radix_free(tp_kheap_radix *h)
{
	for (int i = 0; i < TP_RHEAP_NB; i++)
		free(h->b[i].a);
}

int
tp_kheap_radix_grow(tp_kheap_rbucket *b, tp_err *e)
{
	size_t cap = b->cap ? b->cap * 2 : 1024;
	uint64_t *a;

	if (cap > SIZE_MAX / sizeof *a ||
	    (a = realloc(b->a, cap * sizeof *a)) == NULL)
		return tp_err_set(e, "out of memory: the fill queue needs %.1f MiB",
		    (double)cap * sizeof *a / 1048576.0);
	b->a = a;
	b->cap = cap;
	return 0;
}

void
tp_kheap_digits_init(tp_kheap_digits *h)
{
	memset(h, 0, sizeof *h);
	memset(h->bmin, 0xff, sizeof h->bmin);
}

static void
free_chunks(tp_kheap_chunk *c)
{
	tp_kheap_chunk *next;

	for (; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
}

void
tp_kheap_digits_free(tp_kheap_digits *h)
{
	for (int l = 0; l < 4; l++)
		for (int d = 0; d < 256; d++)
			free_chunks(h->b[l][d]);
	free_chunks(h->pool);
	tp_kheap_digits_init(h);
}

int
tp_kheap_digits_chunk(tp_kheap_digits *h, int l, unsigned d, tp_err *e)
{
	tp_kheap_chunk *c = h->pool;

	if (c != NULL)
		h->pool = c->next;
	else if ((c = malloc(sizeof *c)) == NULL)
		return tp_err_set(e, "out of memory: the fill queue needs "
		    "%.1f MiB more", (double)sizeof *c / 1048576.0);
	c->n = 0;
	c->next = h->b[l][d];
	h->b[l][d] = c;
	return 0;
}

/* The lowest bucket, on a level above 0, moves down: its smallest key
 * becomes `last`, and every key in it now differs from `last` first on a
 * lower byte (they share the higher ones with it). */
int
tp_kheap_digits_settle(tp_kheap_digits *h, tp_err *e)
{
	tp_kheap_chunk *c, *next;
	unsigned d;
	uint32_t k;
	int l;

	d = tp_kheap_digits_lowest(h, &l);
	c = h->b[l][d];
	h->b[l][d] = NULL;
	h->last = h->bmin[l][d];
	tp_kheap_digits_emptied(h, l, d);
	for (; c != NULL; c = next) {
		next = c->next;
		h->n -= c->n;
		for (k = 0; k < c->n; k++)
			if (tp_kheap_digits_push(h, c->a[k], e) < 0)
				return -1;
		c->next = h->pool;
		h->pool = c;
	}
	return 0;
}
