/* tp_wbehind.c - one batch of rows written on a thread of its own. */
#include "stream/tp_wbehind.h"

void
tp_wbehind_init(tp_wbehind *b, tp_writer *w)
{
	b->w = w;
	b->rows = NULL;
	b->n = 0;
	b->busy = 0;
	b->rc = 0;
	b->err.msg[0] = '\0';
}

static void *
write_batch(void *arg)
{
	tp_wbehind *b = arg;

	if (tp_writer_rows(b->w, b->rows, b->n, &b->err) < 0)
		b->rc = -1;
	return NULL;
}

int
tp_wbehind_wait(tp_wbehind *b, tp_err *e)
{
	if (b->busy) {
		pthread_join(b->t, NULL);
		b->busy = 0;
	}
	if (b->rc < 0) {
		*e = b->err;
		return -1;
	}
	return 0;
}

int
tp_wbehind_put(tp_wbehind *b, const float *rows, int64_t n, tp_err *e)
{
	if (tp_wbehind_wait(b, e) < 0)
		return -1;
	b->rows = rows;
	b->n = n;
	if (pthread_create(&b->t, NULL, write_batch, b) == 0) {
		b->busy = 1;
		return 0;
	}
	write_batch(b);
	return tp_wbehind_wait(b, e);
}
