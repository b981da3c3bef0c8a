/* check_featindex.c - unit tests of tp_featindex: the index of
 * features by cell against a scan of every feature, its limits. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/tp_feature.h"
#include "gen/tp_featprep.h"
#include "gen/tp_featindex.h"
#include "tp_test.h"
#include "tp_test_features.h"

/* The items whose bounds (bb, from tp_feature_bounds) contain (x, y), by a
 * scan of all n. */
static size_t
scan(const double (*bb)[4], size_t n, double x, double y, uint32_t *out)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		const double *b = bb[i];

		if (x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3])
			out[m++] = (uint32_t)i;
	}
	return m;
}

START_TEST(test_index_vs_scan)
{
	uint64_t s = 1234;
	tp_features fs;
	tp_featindex ix;
	uint32_t *a, *b;
	double (*bb)[4];
	size_t found = 0;
	tp_err e;

	tp_features_init(&fs);
	random_items(&fs, &s, 9990, 20000, 200);
	random_items(&fs, &s, 10, 20000, 20000);	/* giants */
	a = malloc(fs.n * sizeof *a);
	b = malloc(fs.n * sizeof *b);
	bb = malloc(fs.n * sizeof *bb);
	ck_assert(a != NULL && b != NULL && bb != NULL);
	for (size_t i = 0; i < fs.n; i++)
		tp_feature_bounds(&fs.f[i], bb[i]);
	ck_assert_int_eq(tp_featindex_build(&ix, &fs, 64, NULL, &e), 0);
	/* the giants are filed in coarser levels */
	ck_assert(ix.nlev > 1);
	ck_assert(ix.lev[1].start[ix.lev[1].ni * ix.lev[1].nj] > 0);
	for (int k = 0; k < 10000; k++) {
		double x = (double)(tp_test_rnd(&s) % 22000000) / 1000 - 1000;
		double y = (double)(tp_test_rnd(&s) % 22000000) / 1000 - 1000;
		size_t na = tp_featindex_lookup(&ix, &fs, x, y, a);
		size_t nb = scan(bb, fs.n, x, y, b);

		ck_assert_uint_eq(na, nb);
		ck_assert(memcmp(a, b, na * sizeof *a) == 0);
		found += na;
	}
	ck_assert(found > 10000);
	/* cell edges: points on the grid lines */
	for (int k = 0; k < 2000; k++) {
		double x = 64.0 * (double)(tp_test_rnd(&s) % 300);
		double y = 64.0 * (double)(tp_test_rnd(&s) % 300);
		size_t na = tp_featindex_lookup(&ix, &fs, x, y, a);

		ck_assert_uint_eq(na, scan(bb, fs.n, x, y, b));
		ck_assert(memcmp(a, b, na * sizeof *a) == 0);
	}
	tp_featindex_free(&ix);
	free(a);
	free(b);
	free(bb);
	tp_features_free(&fs);
}
END_TEST

START_TEST(test_index_limits)
{
	tp_features fs;
	tp_featindex ix;
	tp_err e;
	double b[4] = { 0, 0, 1e9, 1e9 };

	parse_ok(&fs, "hill 0 0 1 1e12\nhill 5 5 1 1\n");
	/* a giant hill is filed under the 4 cells of 65536 units that cover
	 * the region, not 2.4 million of 64 */
	ck_assert_int_eq(tp_featindex_build(&ix, &fs, 64, (double[]){ 0, 0,
	    1e5, 1e5 }, &e), 0);
	ck_assert_int_eq(ix.nlev, 3);
	ck_assert_double_eq(ix.lev[2].cell, 65536);
	ck_assert_uint_eq(ix.lev[0].start[ix.lev[0].ni * ix.lev[0].nj], 1);
	ck_assert_uint_eq(ix.lev[1].start[ix.lev[1].ni * ix.lev[1].nj], 0);
	ck_assert_uint_eq(ix.lev[2].start[ix.lev[2].ni * ix.lev[2].nj], 4);
	tp_featindex_free(&ix);
	ck_assert_int_eq(tp_featindex_build(&ix, &fs, 64, b, &e), -1);
	ck_assert_msg(strstr(e.msg, "raise the index cell") != NULL, "%s",
	    e.msg);
	tp_features_free(&fs);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("featindex");
	TCase *index = tcase_create("index");

	tcase_set_timeout(index, 120);
	tcase_add_test(index, test_index_vs_scan);
	tcase_add_test(index, test_index_limits);
	suite_add_tcase(s, index);
	return tp_test_run(s);
}
