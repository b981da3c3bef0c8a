/* check_par.c - unit tests for lib/tp_par: every index exactly once, chunks
 * of at most grain, worker ids in range, on any thread count; a team's
 * loops and barriers in order. */
#include <check.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "core/tp_par.h"
#include "tp_test.h"

#define NMAX	1001

/* What the calls saw: a count per index, and any rule broken. */
struct seen {
	atomic_int	count[NMAX];
	atomic_int	bad_chunk, bad_worker, calls;
	int64_t		n, grain;
	int		threads;
};

static void
mark(void *ctx, int64_t begin, int64_t end, int worker)
{
	struct seen *s = ctx;

	/* a chunk of at most grain, or the whole range on one thread */
	if (begin < 0 || end <= begin || end > s->n ||
	    (end - begin > s->grain && !(begin == 0 && end == s->n)))
		atomic_fetch_add(&s->bad_chunk, 1);
	if (worker < 0 || worker >= s->threads)
		atomic_fetch_add(&s->bad_worker, 1);
	atomic_fetch_add(&s->calls, 1);
	for (int64_t i = begin; i < end && i < s->n; i++)
		atomic_fetch_add(&s->count[i], 1);
}

/* Run tp_par_for and check each index in [0, n) was seen once, none
 * beyond; returns the number of calls. */
static int
cover(int threads, int64_t n, int64_t grain)
{
	struct seen *s = calloc(1, sizeof *s);
	int calls, bad_chunk, bad_worker;

	ck_assert_ptr_nonnull(s);
	s->n = n;
	s->grain = grain < 1 ? 1 : grain;
	s->threads = threads < 1 ? 1 : threads;
	tp_par_for(threads, n, grain, mark, s);
	for (int64_t i = 0; i < NMAX; i++)
		ck_assert_msg(atomic_load(&s->count[i]) == (i < n),
		    "threads %d n %lld grain %lld: index %lld seen %d times",
		    threads, (long long)n, (long long)grain, (long long)i,
		    atomic_load(&s->count[i]));
	bad_chunk = atomic_load(&s->bad_chunk);
	bad_worker = atomic_load(&s->bad_worker);
	calls = atomic_load(&s->calls);
	free(s);
	ck_assert_int_eq(bad_chunk, 0);
	ck_assert_int_eq(bad_worker, 0);
	return calls;
}

/* Odd sizes and grains on 1, 2, 3, 7 and 16 threads. */
START_TEST(test_every_index_once)
{
	static const int threads[] = { 1, 2, 3, 7, 16 };
	static const int64_t ns[] = { 1, 2, 7, 13, 1001 };
	static const int64_t grains[] = { 1, 3, 5, 64, 1000, 5000 };

	for (size_t t = 0; t < sizeof threads / sizeof *threads; t++)
		for (size_t i = 0; i < sizeof ns / sizeof *ns; i++)
			for (size_t g = 0; g < sizeof grains / sizeof *grains; g++)
				cover(threads[t], ns[i], grains[g]);
}
END_TEST

/* The chunks are ceil(n / grain): 1001 by 64 is 15 chunks of 64 and one
 * of 41. */
START_TEST(test_chunk_count)
{
	ck_assert_int_eq(cover(3, 1001, 64), 16);
	ck_assert_int_eq(cover(1, 1001, 64), 1);	/* one thread: one call */
	ck_assert_int_eq(cover(4, 7, 7), 1);		/* one chunk: no threads */
}
END_TEST

/* n of 0 calls nothing; grain 0 counts as 1; more threads than chunks
 * or than the 256 allowed are cut down. */
START_TEST(test_limits)
{
	ck_assert_int_eq(cover(4, 0, 1), 0);
	ck_assert_int_eq(cover(2, 5, 0), 5);
	ck_assert_int_eq(cover(0, 9, 1), 1);		/* <= 1 thread: inline */
	ck_assert_int_eq(cover(1000, 3, 1), 3);
	ck_assert_int_ge(tp_par_ncpu(), 1);
	ck_assert_int_le(tp_par_ncpu(), 256);
}
END_TEST

/* A team's loops: each reads what the loop before wrote at other indices
 * and what worker 0 wrote between them, so a missing barrier or a chunk
 * run twice or never shows in the numbers, which a plain loop checks. */
#define TN	997
#define TROUNDS	40

struct work {
	int64_t	a[TN], b[TN], sum;
	atomic_int calls, bad_worker, size;
	int	threads;
};

static void
step_b(void *ctx, int64_t begin, int64_t end, int worker)
{
	struct work *w = ctx;

	if (worker < 0 || worker >= w->threads)
		atomic_fetch_add(&w->bad_worker, 1);
	for (int64_t i = begin; i < end; i++)
		w->b[i] = w->a[(i + 1) % TN] + w->sum;
}

static void
step_a(void *ctx, int64_t begin, int64_t end, int worker)
{
	struct work *w = ctx;

	(void)worker;
	for (int64_t i = begin; i < end; i++)
		w->a[i] = (w->b[i] + w->b[(i + TN - 3) % TN]) % 1000003;
}

static void
count_call(void *ctx, int64_t begin, int64_t end, int worker)
{
	struct work *w = ctx;

	(void)worker;
	atomic_fetch_add(&w->calls, (int)(end - begin));
}

static void
crew(tp_par_team *t, int worker, void *ctx)
{
	struct work *w = ctx;

	if (worker == 0)
		atomic_store(&w->size, tp_par_team_size(t));
	for (int r = 0; r < TROUNDS; r++) {
		if (worker == 0) {		/* a serial step between loops */
			w->sum = 0;
			for (int64_t i = 0; i < TN; i++)
				w->sum = (w->sum + w->a[i]) % 1009;
		}
		tp_par_team_sync(t);
		tp_par_team_for(t, worker, TN, 1 + r % 7, step_b, w);
		tp_par_team_for(t, worker, 0, 4, count_call, w);
		tp_par_team_for(t, worker, TN, r % 3, step_a, w);
		tp_par_team_for(t, worker, 5, 0, count_call, w);
	}
}

static void
serial(int64_t *a)
{
	static int64_t b[TN];

	for (int r = 0; r < TROUNDS; r++) {
		int64_t sum = 0;
		for (int64_t i = 0; i < TN; i++)
			sum = (sum + a[i]) % 1009;
		for (int64_t i = 0; i < TN; i++)
			b[i] = a[(i + 1) % TN] + sum;
		for (int64_t i = 0; i < TN; i++)
			a[i] = (b[i] + b[(i + TN - 3) % TN]) % 1000003;
	}
}

START_TEST(test_team_loops_in_order)
{
	static const int threads[] = { 1, 2, 3, 7, 16 };
	static int64_t want[TN];

	for (int64_t i = 0; i < TN; i++)
		want[i] = i * 7919 % 1000;
	serial(want);
	for (size_t k = 0; k < sizeof threads / sizeof *threads; k++) {
		struct work *w = calloc(1, sizeof *w);
		int size, bad_worker, calls;

		ck_assert_ptr_nonnull(w);
		w->threads = threads[k];
		for (int64_t i = 0; i < TN; i++)
			w->a[i] = i * 7919 % 1000;
		tp_par_team_run(threads[k], crew, w);
		size = atomic_load(&w->size);
		bad_worker = atomic_load(&w->bad_worker);
		calls = atomic_load(&w->calls);
		ck_assert_int_eq(size, threads[k]);
		ck_assert_int_eq(bad_worker, 0);
		/* the 0-long loops call nothing, the 5-long ones 5 indices */
		ck_assert_int_eq(calls, 5 * TROUNDS);
		for (int64_t i = 0; i < TN; i++)
			ck_assert_msg(w->a[i] == want[i],
			    "%d threads: a[%lld] = %lld, want %lld", threads[k],
			    (long long)i, (long long)w->a[i],
			    (long long)want[i]);
		free(w);
	}
}
END_TEST

static Suite *
par_suite(void)
{
	Suite *s = suite_create("par");
	TCase *core = tcase_create("core");
	TCase *lim = tcase_create("limits");

	tcase_add_test(core, test_every_index_once);
	tcase_add_test(core, test_chunk_count);
	tcase_add_test(core, test_team_loops_in_order);
	tcase_add_test(lim, test_limits);
	suite_add_tcase(s, core);
	suite_add_tcase(s, lim);
	return s;
}

int
main(void)
{
	return tp_test_run(par_suite());
}
