/* tp_par.c - a parallel for-loop on POSIX threads with a shared counter. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/tp_par.h"

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

/* ---- teams ---- */

/* Spins of a worker waiting at a barrier before it sleeps: tens of
 * microseconds (a pause is some 10 to 150 cycles), so a short wait for a
 * loop's last chunk returns without a wake-up, and a worker that shares
 * its processor with another wastes little of it. */
#define SPINS	2048

struct tp_par_team {
	int		n;		/* workers */
	atomic_int	arrived;	/* at the barrier of this generation */
	atomic_uint	gen;		/* barriers passed */
	atomic_int	go;		/* all threads started: n is final */
	atomic_llong	next[2];	/* loop k hands out chunks from next[k & 1] */
	unsigned	loops[MAX_THREADS];	/* each worker's loops so far */
	pthread_mutex_t	mu;
	pthread_cond_t	cv;
	tp_par_team_fn	fn;
	void		*ctx;
};

struct member {
	tp_par_team	*t;
	int	id;
};

static void
relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

void
tp_par_team_sync(tp_par_team *t)
{
	unsigned g = atomic_load(&t->gen);
	int i;

	if (t->n == 1)
		return;
	if (atomic_fetch_add(&t->arrived, 1) == t->n - 1) {
		atomic_store(&t->arrived, 0);
		pthread_mutex_lock(&t->mu);
		atomic_fetch_add(&t->gen, 1);
		pthread_cond_broadcast(&t->cv);
		pthread_mutex_unlock(&t->mu);
		return;
	}
	for (i = 0; i < SPINS; i++) {
		if (atomic_load(&t->gen) != g)
			return;
		relax();
	}
	pthread_mutex_lock(&t->mu);
	while (atomic_load(&t->gen) == g)
		pthread_cond_wait(&t->cv, &t->mu);
	pthread_mutex_unlock(&t->mu);
}

/* Loop k counts on next[k & 1] while worker 0 clears the other counter
 * for loop k + 1: every worker took its last chunk of loop k - 1, which
 * used it, before the barrier that ended that loop. */
void
tp_par_team_for(tp_par_team *t, int worker, int64_t n, int64_t grain,
    tp_par_fn fn, void *ctx)
{
	unsigned k = t->loops[worker]++;
	atomic_llong *c = &t->next[k & 1];
	int64_t b;

	if (grain < 1)
		grain = 1;
	if (worker == 0)
		atomic_store(&t->next[(k + 1) & 1], 0);
	while ((b = atomic_fetch_add(c, grain)) < n)
		fn(ctx, b, b + grain < n ? b + grain : n, worker);
	tp_par_team_sync(t);
}

int
tp_par_team_size(const tp_par_team *t)
{
	return t->n;
}

static void *
member_run(void *arg)
{
	struct member *w = arg;
	tp_par_team *t = w->t;

	pthread_mutex_lock(&t->mu);
	while (!atomic_load(&t->go))
		pthread_cond_wait(&t->cv, &t->mu);
	pthread_mutex_unlock(&t->mu);
	t->fn(t, w->id, t->ctx);
	return NULL;
}

void
tp_par_team_run(int threads, tp_par_team_fn fn, void *ctx)
{
	pthread_t tid[MAX_THREADS];
	struct member w[MAX_THREADS];
	tp_par_team t;
	int i, started = 0;

	if (threads < 1)
		threads = 1;
	if (threads > MAX_THREADS)
		threads = MAX_THREADS;
	memset(&t, 0, sizeof t);
	t.fn = fn;
	t.ctx = ctx;
	atomic_init(&t.arrived, 0);
	atomic_init(&t.gen, 0);
	atomic_init(&t.go, 0);
	atomic_init(&t.next[0], 0);
	atomic_init(&t.next[1], 0);
	t.n = 1;
	if (threads == 1 || pthread_mutex_init(&t.mu, NULL) != 0) {
		fn(&t, 0, ctx);		/* alone: no barrier needs the lock */
		return;
	}
	if (pthread_cond_init(&t.cv, NULL) != 0) {
		pthread_mutex_destroy(&t.mu);
		fn(&t, 0, ctx);
		return;
	}
	for (i = 1; i < threads; i++) {
		w[i].t = &t;
		w[i].id = i;
		if (pthread_create(&tid[i - 1], NULL, member_run, &w[i]) != 0)
			break;
		started++;
	}
	/* the size is known only now; no one meets a barrier before go */
	pthread_mutex_lock(&t.mu);
	t.n = started + 1;
	atomic_store(&t.go, 1);
	pthread_cond_broadcast(&t.cv);
	pthread_mutex_unlock(&t.mu);
	fn(&t, 0, ctx);
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	pthread_cond_destroy(&t.cv);
	pthread_mutex_destroy(&t.mu);
}

int
tp_par_ncpu(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

int
tp_par_threads(int threads)
{
	return threads > 0 ? threads : tp_par_ncpu();
}
