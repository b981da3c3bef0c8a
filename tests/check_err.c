/* check_err.c - unit tests of tp_err: the message formatted, -1 returned
 * (so `return tp_err_set(...)` fails), NULL allowed, long messages cut at
 * TP_ERR_MAX - 1 bytes and still terminated. */
#include <check.h>
#include <string.h>

#include "core/tp_err.h"
#include "tp_test.h"

START_TEST(test_format)
{
	tp_err e;

	ck_assert_int_eq(tp_err_set(&e, "%s:%d: want %.1f", "a.txt", 3, 2.5),
	    -1);
	ck_assert_str_eq(e.msg, "a.txt:3: want 2.5");
	ck_assert_int_eq(tp_err_set(&e, "plain"), -1);
	ck_assert_str_eq(e.msg, "plain");
}
END_TEST

/* The caller may not want the message. */
START_TEST(test_null)
{
	ck_assert_int_eq(tp_err_set(NULL, "dropped %d", 1), -1);
}
END_TEST

/* 600 characters in: the first 511 kept, then the terminator. */
START_TEST(test_truncated)
{
	char big[601];
	tp_err e;

	memset(big, 'x', 600);
	big[600] = '\0';
	memset(e.msg, 'y', sizeof e.msg);
	ck_assert_int_eq(tp_err_set(&e, "%s", big), -1);
	ck_assert_uint_eq(strlen(e.msg), TP_ERR_MAX - 1);
	ck_assert_int_eq(e.msg[TP_ERR_MAX - 1], '\0');
	ck_assert_int_eq(e.msg[0], 'x');
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("err");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_format);
	tcase_add_test(core, test_null);
	tcase_add_test(core, test_truncated);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
