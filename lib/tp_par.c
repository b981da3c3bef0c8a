/* tp_par.c - a parallel for-loop on POSIX threads with a shared counter. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "tp_par.h"

#define MAX_THREADS 256

struct job {
	tp_par_fn	fn;
	void		*ctx;
	int64_t		n, grain;
	atomic_llong	next;
};

struct worker {
	struct job	*job;
	int		id;
};

static void *
run(void *arg)
{
	struct worker *w = arg;
	struct job *j = w->job;

	for (;;) {
		int64_t b = atomic_fetch_add(&j->next, j->grain);
		if (b >= j->n)
			break;
		j->fn(j->ctx, b, b + j->grain < j->n ? b + j->grain : j->n, w->id);
	}
	return NULL;
}

void
tp_par_for(int threads, int64_t n, int64_t grain, tp_par_fn fn, void *ctx)
{
	pthread_t tid[MAX_THREADS];
	struct worker w[MAX_THREADS];
	struct job j;
	int i, started = 0;

	if (n <= 0)
		return;
	if (grain < 1)
		grain = 1;
	if (threads > MAX_THREADS)
		threads = MAX_THREADS;
	if ((n + grain - 1) / grain < threads)
		threads = (int)((n + grain - 1) / grain);
	if (threads <= 1) {
		fn(ctx, 0, n, 0);
		return;
	}
	j.fn = fn;
	j.ctx = ctx;
	j.n = n;
	j.grain = grain;
	atomic_init(&j.next, 0);
	for (i = 0; i < threads; i++) {
		w[i].job = &j;
		w[i].id = i;
	}
	for (i = 1; i < threads; i++) {
		if (pthread_create(&tid[i - 1], NULL, run, &w[i]) != 0)
			break;
		started++;
	}
	run(&w[0]);
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
}

int
tp_ncpu(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

int
tp_par_threads(int threads)
{
	return threads > 0 ? threads : tp_ncpu();
}
