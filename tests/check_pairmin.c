/* check_pairmin.c - unit tests of tp_pairmin: the lowest value of each
 * pair, against a plain table. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/tp_pairmin.h"
#include "tp_test.h"

/* The value kept for key, or NAN when the map lacks it. */
static float
get(const tp_pairmin *m, uint64_t key)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		if (m->key[i] == key)
			return m->v[i];
	return NAN;
}

START_TEST(test_key)
{
	ck_assert(tp_pairmin_key(3, 9) == tp_pairmin_key(9, 3));
	ck_assert(tp_pairmin_key(3, 9) == ((uint64_t)3 << 32 | 9));
	ck_assert(tp_pairmin_key(0, 1) != 0);	/* 0 stays the empty slot */
	ck_assert(tp_pairmin_key(0xfffffffeu, 0xffffffffu) ==
	    (UINT64_C(0xfffffffe) << 32 | 0xffffffffu));
}
END_TEST

/* 80 labels, every pair met about ten times at random values: the map
 * holds each pair once, at its lowest value, through several growths. */
START_TEST(test_lowest)
{
	enum { L = 80, P = L * (L - 1) / 2 };
	static float want[L][L];
	tp_pairmin m = { NULL, NULL, 0, 0 };
	uint64_t seed = 0x853c49e6748fea9bu;
	uint32_t a, b;
	float v;
	tp_err e;
	int i;

	for (a = 0; a < L; a++)
		for (b = 0; b < L; b++)
			want[a][b] = INFINITY;
	for (i = 0; i < 10 * P; i++) {
		a = (uint32_t)(tp_test_rnd(&seed) % L);
		b = (uint32_t)(tp_test_rnd(&seed) % L);
		if (a == b)
			continue;
		v = tp_test_urand(&seed);
		ck_assert_int_eq(tp_pairmin_put(&m, tp_pairmin_key(a, b), v,
		    "the test's pairs", &e), 0);
		if (v < want[a][b])
			want[a][b] = want[b][a] = v;
	}
	ck_assert_uint_eq(m.n, P);	/* every pair met at least once */
	ck_assert_uint_ge(m.cap, 2 * m.n);
	for (a = 0; a < L; a++)
		for (b = a + 1; b < L; b++)
			ck_assert_float_eq(get(&m, tp_pairmin_key(a, b)),
			    want[a][b]);
	tp_pairmin_free(&m);
	ck_assert_ptr_null(m.key);
	ck_assert_uint_eq(m.n, 0);
}
END_TEST

static Suite *
pairmin_suite(void)
{
	Suite *s = suite_create("pairmin");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_key);
	tcase_add_test(core, test_lowest);
	suite_add_tcase(s, core);
	return s;
}

int
main(void)
{
	return tp_test_run(pairmin_suite());
}
