/* check_kheap.c - unit tests of tp_kheap: the float order of keys by hand,
 * the binary heap, the FIFO and the queue that merges them against a
 * sorted copy, the radix heaps (on bits and on bytes) against a
 * brute-force minimum. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/tp_kheap.h"
#include "tp_test.h"

static int
cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return (a > b) - (a < b);
}

/* Positive floats get the sign bit set, negative ones all bits flipped:
 * 0 is 0x80000000, -0 just below it, 1.0f (0x3f800000) 0xbf800000. */
START_TEST(test_fkey_by_hand)
{
	ck_assert_uint_eq(tp_kheap_fkey(0.0f), 0x80000000u);
	ck_assert_uint_eq(tp_kheap_fkey(-0.0f), 0x7fffffffu);
	ck_assert_uint_eq(tp_kheap_fkey(1.0f), 0xbf800000u);
	ck_assert_uint_eq(tp_kheap_fkey(-1.0f), 0x407fffffu);
	ck_assert_uint_eq(tp_kheap_fkey(INFINITY), 0xff800000u);
	ck_assert_uint_eq(tp_kheap_fkey(-INFINITY), 0x007fffffu);
	ck_assert(tp_kheap_key(1.0f, 5) == UINT64_C(0xbf80000000000005));
	ck_assert(tp_kheap_key(-1.0f, 0xffffffff) ==
	    UINT64_C(0x407fffffffffffff));
}
END_TEST

/* The keys sort as the floats do, from -inf to +inf. */
START_TEST(test_fkey_order)
{
	static const float v[] = { -INFINITY, -3e38f, -1.0f, -1e-45f, -0.0f,
		0.0f, 1e-45f, 1e-38f, 0.5f, 1.0f, 1.0000001f, 3e38f, INFINITY };
	size_t i;

	for (i = 0; i + 1 < sizeof v / sizeof v[0]; i++)
		ck_assert_uint_lt(tp_kheap_fkey(v[i]), tp_kheap_fkey(v[i + 1]));
	/* the index breaks ties of value, and never outweighs a value */
	ck_assert(tp_kheap_key(0.5f, 1) < tp_kheap_key(0.5f, 2));
	ck_assert(tp_kheap_key(0.5f, 0xffffffff) < tp_kheap_key(1.0f, 0));
}
END_TEST

/* 10000 random keys (more than the first 4096 slots, so it grows) come
 * out as qsort orders them. */
START_TEST(test_heap_sorts)
{
	enum { n = 10000 };
	uint64_t *want = malloc(n * sizeof *want), s = 0x1234567u;
	tp_kheap h = { 0 };
	tp_err e;
	size_t i;

	ck_assert_ptr_nonnull(want);
	for (i = 0; i < n; i++) {
		/* few distinct values, so equal values order by index */
		want[i] = tp_kheap_key((float)(tp_test_rnd(&s) % 50) - 25,
		    tp_test_rnd(&s) & 0xffffffffu);
		ck_assert_int_eq(tp_kheap_push(&h, want[i], "test", &e), 0);
	}
	ck_assert_uint_eq(h.n, n);
	qsort(want, n, sizeof *want, cmp_u64);
	for (i = 0; i < n; i++)
		ck_assert(tp_kheap_pop(&h) == want[i]);
	ck_assert_uint_eq(h.n, 0);
	tp_kheap_free(&h);
	ck_assert_ptr_null(h.a);
	free(want);
}
END_TEST

/* First in, first out, across the ring's wrap and its doubling: pops
 * move the head on so the ring is full with head inside, then it grows. */
START_TEST(test_fifo_wraps)
{
	tp_kheap_fifo q = { 0 };
	uint64_t next_in = 0, next_out = 0;
	tp_err e;
	int round;

	for (round = 0; round < 3; round++) {
		while (q.n < 4000)
			ck_assert_int_eq(tp_kheap_fifo_push(&q, next_in++,
			    "test", &e), 0);
		while (q.n > 100)
			ck_assert(tp_kheap_fifo_pop(&q) == next_out++);
	}
	/* the ring has wrapped: fill past its capacity */
	ck_assert_uint_eq(q.cap, 4096);
	while (q.n < 5000)
		ck_assert_int_eq(tp_kheap_fifo_push(&q, next_in++, "test", &e),
		    0);
	ck_assert_uint_eq(q.cap, 8192);
	while (q.n > 0)
		ck_assert(tp_kheap_fifo_pop(&q) == next_out++);
	ck_assert(next_out == next_in);
	tp_kheap_fifo_free(&q);
}
END_TEST

/* The queue takes the lower value of the FIFO's head and the heap's top,
 * the FIFO's on equal values whatever the indices. */
START_TEST(test_queue_by_hand)
{
	tp_kheap_queue q = { { 0 }, { 0 } };
	tp_err e;

	ck_assert_int_eq(tp_kheap_push(&q.h, tp_kheap_key(2, 1), "t", &e), 0);
	ck_assert_int_eq(tp_kheap_push(&q.h, tp_kheap_key(1, 7), "t", &e), 0);
	ck_assert_int_eq(tp_kheap_queue_fifo(&q, tp_kheap_key(1, 9), "t", &e),
	    0);
	ck_assert_int_eq(tp_kheap_queue_fifo(&q, tp_kheap_key(3, 0), "t", &e),
	    0);
	ck_assert_uint_eq(tp_kheap_queue_len(&q), 4);
	ck_assert(tp_kheap_queue_pop(&q) == tp_kheap_key(1, 9));
	ck_assert(tp_kheap_queue_pop(&q) == tp_kheap_key(1, 7));
	ck_assert(tp_kheap_queue_pop(&q) == tp_kheap_key(2, 1));
	ck_assert(tp_kheap_queue_pop(&q) == tp_kheap_key(3, 0));
	ck_assert_uint_eq(tp_kheap_queue_len(&q), 0);
	tp_kheap_queue_free(&q);
}
END_TEST

/* A flood's use: each popped cell raises one neighbour to its own level
 * (into the FIFO: such keys come in order) and lets two in higher up
 * (into the heap). The values come out in order and every key once. */
START_TEST(test_queue_flood)
{
	enum { n = 20000 };
	tp_kheap_queue q = { { 0 }, { 0 } };
	uint64_t *got = malloc(n * sizeof *got), *put = malloc(n *
	    sizeof *put), s = 99, k;
	float *val = malloc(n * sizeof *val);	/* by index */
	size_t nput = 0, ngot = 0;
	tp_err e;

	ck_assert(got != NULL && put != NULL && val != NULL);
	val[nput] = 0;
	put[nput] = tp_kheap_key(0, nput);
	ck_assert_int_eq(tp_kheap_push(&q.h, put[nput], "t", &e), 0);
	nput++;
	while (tp_kheap_queue_len(&q) > 0) {
		k = got[ngot++] = tp_kheap_queue_pop(&q);
		if (ngot > 1)
			ck_assert_uint_le(got[ngot - 2] >> 32, k >> 32);
		for (int c = 0; c < 3 && nput < n; c++, nput++) {
			val[nput] = val[k & 0xffffffffu];
			put[nput] = tp_kheap_key(val[nput], nput);
			if (c == 0) {
				ck_assert_int_eq(tp_kheap_queue_fifo(&q,
				    put[nput], "t", &e), 0);
				continue;
			}
			val[nput] += (float)(1 + tp_test_rnd(&s) % 7);
			put[nput] = tp_kheap_key(val[nput], nput);
			ck_assert_int_eq(tp_kheap_push(&q.h, put[nput], "t",
			    &e), 0);
		}
	}
	ck_assert_uint_eq(ngot, nput);
	qsort(got, ngot, sizeof *got, cmp_u64);
	qsort(put, nput, sizeof *put, cmp_u64);
	for (size_t i = 0; i < ngot; i++)
		ck_assert(got[i] == put[i]);
	tp_kheap_queue_free(&q);
	free(got);
	free(put);
	free(val);
}
END_TEST

/* Buckets by the highest bit that differs from the last key popped. */
START_TEST(test_rheap_bucket)
{
	ck_assert_int_eq(tp_kheap_radix_bucket(5, 5), 0);
	ck_assert_int_eq(tp_kheap_radix_bucket(4, 5), 1);	/* bit 0 */
	ck_assert_int_eq(tp_kheap_radix_bucket(7, 5), 2);	/* bit 1 */
	ck_assert_int_eq(tp_kheap_radix_bucket(0x80000000u, 0), 32);
}
END_TEST

/* A monotone run: pop, then push keys at or above the popped one; each
 * pop equals a brute-force minimum over the keys held, and the peek and
 * the minimum agree with it first. */
START_TEST(test_rheap_monotone)
{
	enum { cap = 3000 };
	uint64_t *held = malloc(cap * sizeof *held), s = 7 + (uint64_t)_i, out;
	size_t nheld = 0, i, best, pushed = 0;
	tp_kheap_radix h;
	tp_err e;

	ck_assert_ptr_nonnull(held);
	tp_kheap_radix_init(&h);
	for (i = 0; i < 20; i++) {
		held[nheld] = (tp_test_rnd(&s) % 1000) << 32 | pushed++;
		ck_assert_int_eq(tp_kheap_radix_push(&h, held[nheld++], &e), 0);
	}
	while (nheld > 0) {
		for (best = 0, i = 1; i < nheld; i++)
			if (held[i] >> 32 < held[best] >> 32)
				best = i;
		ck_assert_uint_eq(h.n, nheld);
		ck_assert_uint_eq(tp_kheap_radix_min(&h), held[best] >> 32);
		ck_assert_uint_eq(tp_kheap_radix_peek(&h) >> 32,
		    held[best] >> 32);
		ck_assert_int_eq(tp_kheap_radix_pop(&h, &out, &e), 0);
		ck_assert_uint_eq(out >> 32, held[best] >> 32);
		/* take out the very entry popped (ties differ in index) */
		for (i = 0; i < nheld && held[i] != out; i++)
			;
		ck_assert_uint_lt(i, nheld);
		held[i] = held[--nheld];
		for (int c = (int)(tp_test_rnd(&s) % 3); c > 0 &&
		    pushed < cap - 1 && nheld < cap; c--) {
			uint64_t v = (out >> 32) + tp_test_rnd(&s) % (_i ?
			    1000000 : 3);

			held[nheld] = v << 32 | pushed++;
			ck_assert_int_eq(tp_kheap_radix_push(&h, held[nheld++],
			    &e), 0);
		}
	}
	ck_assert_uint_eq(h.n, 0);
	tp_kheap_radix_free(&h);
	free(held);
}
END_TEST

/* The byte radix heap against a brute-force minimum, over monotone runs
 * whose keys step by up to 3 (long ties, so chunks chain), by up to 10^6
 * and by up to 2^31 (every level); the key popped is the least held, the
 * entry one of those held, and the heap empties. */
START_TEST(test_dheap_monotone)
{
	static const uint64_t step[] = { 3, 1000000, UINT64_C(1) << 31 };
	enum { cap = 4000 };
	uint64_t *held = malloc(cap * sizeof *held), s = 11 + (uint64_t)_i, out;
	size_t nheld = 0, i, best, pushed = 0;
	tp_kheap_digits *h = malloc(sizeof *h);
	tp_err e;

	ck_assert_ptr_nonnull(held);
	ck_assert_ptr_nonnull(h);
	tp_kheap_digits_init(h);
	for (i = 0; i < 600; i++) {
		held[nheld] = (tp_test_rnd(&s) % step[_i]) << 32 | pushed++;
		ck_assert_int_eq(tp_kheap_digits_push(h, held[nheld++], &e), 0);
	}
	while (nheld > 0) {
		for (best = 0, i = 1; i < nheld; i++)
			if (held[i] >> 32 < held[best] >> 32)
				best = i;
		ck_assert_uint_eq(h->n, nheld);
		ck_assert_uint_eq(tp_kheap_digits_min(h), held[best] >> 32);
		ck_assert_int_eq(tp_kheap_digits_pop(h, &out, &e), 0);
		ck_assert_uint_eq(out >> 32, held[best] >> 32);
		ck_assert_uint_eq(h->last, out >> 32);
		for (i = 0; i < nheld && held[i] != out; i++)
			;
		ck_assert_uint_lt(i, nheld);
		held[i] = held[--nheld];
		for (int c = (int)(tp_test_rnd(&s) % 3); c > 0 &&
		    pushed < cap - 1 && nheld < cap; c--) {
			uint64_t v = (out >> 32) + tp_test_rnd(&s) % step[_i];

			if (v > UINT32_MAX - 1)
				v = UINT32_MAX - 1;
			held[nheld] = v << 32 | pushed++;
			ck_assert_int_eq(tp_kheap_digits_push(h, held[nheld++],
			    &e), 0);
		}
	}
	ck_assert_uint_eq(h->n, 0);
	ck_assert_uint_eq(h->lmask, 0);
	tp_kheap_digits_free(h);
	free(h);
	free(held);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("kheap");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_fkey_by_hand);
	tcase_add_test(core, test_fkey_order);
	tcase_add_test(core, test_heap_sorts);
	tcase_add_test(core, test_fifo_wraps);
	tcase_add_test(core, test_queue_by_hand);
	tcase_add_test(core, test_queue_flood);
	tcase_add_test(core, test_rheap_bucket);
	tcase_add_loop_test(core, test_rheap_monotone, 0, 2);
	tcase_add_loop_test(core, test_dheap_monotone, 0, 3);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
