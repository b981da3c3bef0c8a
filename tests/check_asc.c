/* check_asc.c - unit tests for lib/tp_asc: corner and centre headers, keys
 * in any case and order, nodata, and the refusals, each naming what was
 * wrong. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/tp_asc.h"
#include "tp_test.h"

/* Parse text as an ASCII grid into g; the return value of tp_asc_read. */
static int
parse(tp_grid *g, const char *text, tp_err *e)
{
	FILE *f = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
	int r;

	ck_assert_ptr_nonnull(f);
	r = tp_asc_read(g, f, strlen(text), e);
	fclose(f);
	return r;
}

START_TEST(test_corner)
{
	tp_grid g;
	tp_err e;

	ck_assert_msg(parse(&g, "ncols 3\nnrows 2\nxllcorner 100\nyllcorner 200\n"
	    "cellsize 10\nNODATA_value -9999\n1 2.5 -9999\n-4e2 5 6\n", &e) == 0,
	    "%s", e.msg);
	ck_assert_int_eq(g.h.width, 3);
	ck_assert_int_eq(g.h.height, 2);
	ck_assert_double_eq(g.h.cellsize, 10);
	/* the north-west corner: yllcorner + 2 rows of 10 */
	ck_assert_double_eq(g.h.origin_x, 100);
	ck_assert_double_eq(g.h.origin_y, 220);
	ck_assert_str_eq(g.h.crs, "");
	ck_assert_float_eq(g.data[0], 1);
	ck_assert_float_eq(g.data[1], 2.5f);
	ck_assert(isnan(g.data[2]));
	ck_assert_float_eq(g.data[3], -400);
	ck_assert_float_eq(g.data[5], 6);
	tp_grid_free(&g);
}
END_TEST

START_TEST(test_centre_any_case)
{
	tp_grid g;
	tp_err e;

	/* centres half a cell in; keys in capitals, out of order, dx = dy */
	ck_assert_msg(parse(&g, "  NROWS 1\nNCOLS 2\nYLLCENTER 5\nXLLCENTER 1\n"
	    "DX 2\nDY 2\n7 8", &e) == 0, "%s", e.msg);
	ck_assert_double_eq(g.h.origin_x, 0);
	ck_assert_double_eq(g.h.origin_y, 6);
	ck_assert_double_eq(g.h.cellsize, 2);
	ck_assert_float_eq(g.data[1], 8);
	tp_grid_free(&g);
	ck_assert(tp_asc_sniff((const unsigned char *)"  ncols 3", 9));
	ck_assert(tp_asc_sniff((const unsigned char *)"NROWS", 5));
	ck_assert(!tp_asc_sniff((const unsigned char *)"ncol", 4));
	ck_assert(!tp_asc_sniff((const unsigned char *)"TERRAPIPE 1", 11));
}
END_TEST

static const struct bad {
	const char *in, *msg;
} bads[] = {
	{ "ncols 2\nnrows 1\nxllcorner 0\nyllcorner 0\ncellsize 1\n1\n",
	  "the samples end after 1 of 2x1 (row 0)" },
	{ "ncols 2\nnrows 1\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2 3\n",
	  "more than the 2x1 samples" },
	{ "ncols 2\nnrows 1\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 z\n",
	  "row 0, column 1: 'z' is not a number" },
	{ "ncols 2\nnrows 1\nxllcorner 0\nyllcorner 0\n1 2\n",
	  "no cellsize in the header" },
	{ "ncols 2\nnrows 1\nxllcorner 0\nyllcorner 0\ncellsize -1\n1 2\n",
	  "cellsize is not above 0" },
	{ "ncols 2\nnrows 1\nxllcorner 0\nyllcorner 0\ndx 1\ndy 3\n1 2\n",
	  "dx 1 and dy 3 differ" },
	{ "ncols 2\nnrows 1\nyllcorner 0\ncellsize 1\n1 2\n",
	  "needs ncols, nrows, xllcorner" },
	{ "ncols 0\nnrows 1\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2\n",
	  "ncols '0' is not a whole number" },
	{ "ncols 2.5\nnrows 1\n", "ncols '2.5' is not a whole number" },
	{ "ncols 2\nnrows 1\nxllcorner zero\n", "xllcorner 'zero' is not a finite" },
	{ "ncols 2\nnrows 1\nprojection utm\n",
	  "unknown header key 'projection'; convert it with gdal_translate" },
	{ "ncols 2\nnrows 1\nxllcorner 0\nyllcorner 0\ncellsize 1\n",
	  "no samples after the header" },
	{ "ncols", "no value for ncols" },
	{ "ncols 100000\nnrows 100000\nxllcorner 0\nyllcorner 0\ncellsize 1\n1\n",
	  "cannot fit in the" },
};

START_TEST(test_refusals)
{
	tp_grid g;
	tp_err e;

	ck_assert_int_eq(parse(&g, bads[_i].in, &e), -1);
	ck_assert_msg(strstr(e.msg, bads[_i].msg) != NULL, "case %d: '%s' lacks "
	    "'%s'", _i, e.msg, bads[_i].msg);
}
END_TEST

static Suite *
asc_suite(void)
{
	Suite *s = suite_create("asc");
	TCase *core = tcase_create("core");
	TCase *errors = tcase_create("errors");

	tcase_add_test(core, test_corner);
	tcase_add_test(core, test_centre_any_case);
	tcase_add_loop_test(errors, test_refusals, 0, sizeof(bads) / sizeof(bads[0]));
	suite_add_tcase(s, core);
	suite_add_tcase(s, errors);
	return s;
}

int
main(void)
{
	return tp_test_run(asc_suite());
}
