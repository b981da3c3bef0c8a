/* check_num.c - the one number rule of tp_num, as a table: what header
 * values and option values may look like (terrapipe(5)). */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tp_num.h"
#include "tp_test.h"

/* A string, whether it is a number and a whole number, and its value. */
static const struct row {
	const char *s;
	int	num, whole;
	double	v;
} rows[] = {
	{ "0", 1, 1, 0 },
	{ "42", 1, 1, 42 },
	{ "-7", 1, 1, -7 },
	{ "007", 1, 1, 7 },
	{ "-0", 1, 1, 0 },
	{ "0.35", 1, 0, 0.35 },
	{ "-84.41375", 1, 0, -84.41375 },
	{ ".5", 1, 0, 0.5 },
	{ "5.", 1, 0, 5 },
	{ "-.5", 1, 0, -0.5 },
	{ "1e3", 1, 0, 1000 },
	{ "1E3", 1, 0, 1000 },
	{ "2.5e-3", 1, 0, 0.0025 },
	{ "1e+308", 1, 0, 1e308 },		/* as %g writes it */
	{ "4.9406564584124654e-324", 1, 0, 4.9406564584124654e-324 },
	{ "1e-400", 1, 0, 0 },			/* underflow: the nearest double */
	/* refused: the rule's exclusions */
	{ "", 0, 0, 0 },
	{ "+4", 0, 0, 0 },
	{ "+0.5", 0, 0, 0 },
	{ " 4", 0, 0, 0 },
	{ "4 ", 0, 0, 0 },
	{ "4\t", 0, 0, 0 },
	{ "\n4", 0, 0, 0 },
	{ "1 000", 0, 0, 0 },
	{ "0x10", 0, 0, 0 },
	{ "0x1p3", 0, 0, 0 },
	{ "inf", 0, 0, 0 },
	{ "-inf", 0, 0, 0 },
	{ "infinity", 0, 0, 0 },
	{ "nan", 0, 0, 0 },
	{ "NAN", 0, 0, 0 },
	{ "-", 0, 0, 0 },
	{ ".", 0, 0, 0 },
	{ "-.", 0, 0, 0 },
	{ "e5", 0, 0, 0 },
	{ "1e", 0, 0, 0 },
	{ "1e+", 0, 0, 0 },
	{ "1e5.5", 0, 0, 0 },
	{ "1.2.3", 0, 0, 0 },
	{ "--1", 0, 0, 0 },
	{ "1,5", 0, 0, 0 },
	{ "12x", 0, 0, 0 },
	{ "\xd9\xa3", 0, 0, 0 },		/* an Arabic-Indic digit */
	{ "1e999", 0, 0, 0 },			/* overflow: not finite */
};

START_TEST(test_rule)
{
	const struct row *r = &rows[_i];
	double d = -1;
	int64_t i = -1;
	tp_err e;
	int got;

	ck_assert_int_eq(tp_num_syntax_ok(r->s, 1), r->whole);
	got = tp_num_parse_double(r->s, -HUGE_VAL, HUGE_VAL, &d, &e) == 0;
	ck_assert_msg(got == r->num, "'%s' as a number: %s", r->s,
	    got ? "accepted" : e.msg);
	if (got)
		ck_assert_double_eq(d, r->v);
	else
		ck_assert_msg(strstr(e.msg, "number") != NULL, "'%s': %s", r->s,
		    e.msg);
	got = tp_num_parse_int64(r->s, INT64_MIN, INT64_MAX, &i, &e) == 0;
	ck_assert_msg(got == r->whole, "'%s' as a whole number: %s", r->s,
	    got ? "accepted" : e.msg);
	if (got)
		ck_assert_int_eq(i, (int64_t)r->v);
}
END_TEST

START_TEST(test_ranges)
{
	double d, v[3];
	int64_t i;
	tp_err e;

	ck_assert_int_eq(tp_num_parse_double("1.5", 0, 1, &d, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "out of range"));
	ck_assert_int_eq(tp_num_parse_int64("99999999999999999999", 0,
	    INT64_MAX, &i, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "out of range"));
	ck_assert_int_eq(tp_num_parse_int64("-1", 0, 9, &i, &e), -1);
	/* Lists take the same rule for each item. */
	ck_assert_int_eq(tp_num_parse_list("0,-0.5,1e0", -1, 1, v, 3, &e), 3);
	ck_assert_double_eq(v[1], -0.5);
	ck_assert_int_eq(tp_num_parse_list("0, 1", -1, 1, v, 3, &e), -1);
	ck_assert_int_eq(tp_num_parse_list("0,+1", -1, 1, v, 3, &e), -1);
}
END_TEST

/* Capacities double from first until need fits; a size that cannot be
 * counted in size_t is refused with the array's name, the array kept. */
START_TEST(test_grow)
{
	double *v = NULL;
	size_t cap = 0;
	tp_err e;

	ck_assert_int_eq(tp_num_grow(&v, &cap, 5, sizeof *v, 4, "rows", &e), 0);
	ck_assert_uint_eq(cap, 8);
	v[7] = 1;
	ck_assert_int_eq(tp_num_grow(&v, &cap, 8, sizeof *v, 4, "rows", &e), 0);
	ck_assert_uint_eq(cap, 8);
	ck_assert_int_eq(tp_num_grow(&v, &cap, 9, sizeof *v, 4, "rows", &e), 0);
	ck_assert_uint_eq(cap, 16);
	ck_assert_double_eq(v[7], 1);
	ck_assert_int_eq(tp_num_grow(&v, &cap, SIZE_MAX / 4, sizeof *v, 4,
	    "rows", &e), -1);
	ck_assert_str_eq(e.msg, "out of memory: rows");
	ck_assert_uint_eq(cap, 16);
	free(v);
}
END_TEST

/* What tp_num_format_double writes always reads back under the rule. */
START_TEST(test_format_reads_back)
{
	static const double vals[] = { 0, -0.0, 0.1, -84.41375, 1e308, -1e-300,
	    4.9406564584124654e-324, 1.0 / 3, 4650000, 1e15, -1e16, 123456.789 };
	char b[64];
	double d;
	size_t k;

	for (k = 0; k < sizeof(vals) / sizeof(vals[0]); k++) {
		tp_num_format_double(b, sizeof(b), vals[k]);
		ck_assert_msg(tp_num_parse_double(b, -HUGE_VAL, HUGE_VAL, &d,
		    NULL) == 0, "'%s' does not read back", b);
		ck_assert_double_eq(d, vals[k]);
	}
}
END_TEST

/* Floats in their fewest digits, checked by hand: 0.1f is
 * 0.100000001490116..., and "0.1" reads back to it; 1/3.f is
 * 0.3333333432674408, its neighbours 2^-25 (3e-8) away, so 0.333333 and
 * 0.3333333 (4.3e-8 off) read back to other floats and 0.33333334 (3.3e-9
 * off) is the first that does; the smallest denormal 2^-149 =
 * 1.4012984643e-45 is the only float within half its step (7e-46) of
 * 1.4013e-45 (%.6g drops the sixth digit, 0). Whole numbers, and doubles
 * that are no float, go as tp_num_format_double writes them. */
START_TEST(test_format_float)
{
	static const struct { double v; const char *s; } cases[] = {
		{ 0.1f, "0.1" }, { -0.1f, "-0.1" }, { 1 / 3.f, "0.33333334" },
		{ 900, "900" }, { -2.5f, "-2.5" }, { 1e-45f, "1.4013e-45" },
		{ -1e-45f, "-1.4013e-45" }, { 0.1, "0.1" },
		{ 16777217.0, "16777217" }, { 123456.7f, "123456.7" },
		{ 1.0 / 3, "0.3333333333333333" },
	};
	char b[64];
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		tp_num_format_float(b, sizeof(b), cases[k].v);
		ck_assert_str_eq(b, cases[k].s);
	}
}
END_TEST

START_TEST(test_numbers)
{
	double d, v[4];
	int64_t i;
	tp_err e;
	char b[64];

	ck_assert_int_eq(tp_num_parse_double("0.35", 0, 1, &d, &e), 0);
	ck_assert_double_eq(d, 0.35);
	ck_assert_int_eq(tp_num_parse_double("1.5", 0, 1, &d, &e), -1);
	ck_assert_int_eq(tp_num_parse_double("nan", -1, 1, &d, &e), -1);
	ck_assert_int_eq(tp_num_parse_double("3x", 0, 9, &d, &e), -1);
	ck_assert_int_eq(tp_num_parse_double("", 0, 9, &d, &e), -1);
	ck_assert_int_eq(tp_num_parse_int64("42", 0, 100, &i, &e), 0);
	ck_assert_int_eq(i, 42);
	ck_assert_int_eq(tp_num_parse_int64("4.2", 0, 100, &i, &e), -1);
	ck_assert_int_eq(tp_num_parse_list("0,0.5,1", 0, 1, v, 4, &e), 3);
	ck_assert_double_eq(v[1], 0.5);
	ck_assert_int_eq(tp_num_parse_list("0,,1", 0, 1, v, 4, &e), -1);
	ck_assert_int_eq(tp_num_parse_list("1,2,3,4,5", 0, 9, v, 4, &e), -1);
	tp_num_format_double(b, sizeof(b), 0.1);
	ck_assert_str_eq(b, "0.1");
	tp_num_format_double(b, sizeof(b), 4649776);
	ck_assert_str_eq(b, "4649776");
	tp_num_format_double(b, sizeof(b), 4650000);
	ck_assert_str_eq(b, "4650000");
	tp_num_format_double(b, sizeof(b), -0.0);
	ck_assert(signbit(strtod(b, NULL)));	/* "-0": the same value, not +0 */
	tp_num_format_double(b, sizeof(b), 1.0 / 3);
	ck_assert_double_eq(strtod(b, NULL), 1.0 / 3);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("num");
	TCase *c = tcase_create("core");

	tcase_add_loop_test(c, test_rule, 0, sizeof(rows) / sizeof(rows[0]));
	tcase_add_test(c, test_ranges);
	tcase_add_test(c, test_format_reads_back);
	tcase_add_test(c, test_format_float);
	tcase_add_test(c, test_grow);
	tcase_add_test(c, test_numbers);
	suite_add_tcase(s, c);
	return tp_test_run(s);
}
