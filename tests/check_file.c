/* check_file.c - unit tests of tp_file: small files read whole. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/tp_file.h"
#include "tp_test.h"

/* A scratch file of n bytes 'a' + i % 26; its path in buf. */
static void
scratch(char *path, size_t size, size_t n)
{
	FILE *f;
	size_t i;

	snprintf(path, size, "/tmp/check_file_%ld.txt", (long)getpid());
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	for (i = 0; i < n; i++)
		fputc('a' + (int)(i % 26), f);
	ck_assert_int_eq(fclose(f), 0);
}

START_TEST(test_sizes)
{
	/* around the limit, and across the first buffer and its doubling */
	static const size_t max[] = { 0, 5, 100, 65535, 65536, 200000 };
	char path[64], *buf;
	size_t len, k, d;

	for (k = 0; k < sizeof max / sizeof *max; k++)
		for (d = 0; d <= 1; d++) {
			size_t n = max[k] + d;

			scratch(path, sizeof path, n);
			if (d == 1) {
				ck_assert_int_eq(tp_file_read(path, max[k],
				    &buf, &len), TP_FILE_BIG);
				ck_assert_ptr_null(buf);
				continue;
			}
			ck_assert_int_eq(tp_file_read(path, max[k], &buf,
			    &len), 0);
			ck_assert_uint_eq(len, n);
			ck_assert_int_eq(buf[len], '\0');
			if (n > 0)
				ck_assert_int_eq(buf[n - 1],
				    'a' + (int)((n - 1) % 26));
			free(buf);
		}
	unlink(path);
}
END_TEST

START_TEST(test_missing)
{
	char *buf = (char *)1;
	size_t len;

	errno = 0;
	ck_assert_int_eq(tp_file_read("/nonexistent/x.txt", 10, &buf, &len),
	    -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_ptr_null(buf);
	errno = 0;
	ck_assert_int_eq(tp_file_read("/tmp", 10, &buf, &len), -1);
	ck_assert_int_eq(errno, EISDIR);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("file");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sizes);
	tcase_add_test(tc, test_missing);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tp_test_run(suite());
}
