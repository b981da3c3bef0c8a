/* check_outfile.c - unit tests of tp_outfile: whole files or none. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tp_outfile.h"

/* Entries in dir other than . and .. */
static int
entries(const char *dir)
{
	struct dirent *d;
	DIR *dp = opendir(dir);
	int n = 0;

	ck_assert_ptr_nonnull(dp);
	while ((d = readdir(dp)) != NULL)
		if (strcmp(d->d_name, ".") != 0 && strcmp(d->d_name, "..") != 0)
			n++;
	closedir(dp);
	return n;
}

START_TEST(test_commit)
{
	char dir[] = "/tmp/tp-outfile.XXXXXX", path[64], buf[8] = "";
	tp_outfile o;
	tp_err e;
	FILE *f;
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/a.tif", dir);
	fd = tp_outfile_create(&o, path, &e);
	ck_assert_int_ge(fd, 0);
	ck_assert_ptr_nonnull(strstr(o.tmp, "/a.tif.tmp"));
	ck_assert_int_eq(access(path, F_OK), -1);	/* not there yet */
	ck_assert_int_eq(write(fd, "whole", 5), 5);
	close(fd);
	ck_assert_int_eq(tp_outfile_commit(&o, &e), 0);
	ck_assert_ptr_null(o.tmp);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fread(buf, 1, 7, f), 5);
	fclose(f);
	ck_assert_str_eq(buf, "whole");
	ck_assert_int_eq(entries(dir), 1);
	unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(test_abort)
{
	char dir[] = "/tmp/tp-outfile.XXXXXX", path[64];
	tp_outfile o;
	tp_err e;
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/b.png", dir);
	fd = tp_outfile_create(&o, path, &e);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "half", 4), 4);
	close(fd);
	tp_outfile_abort(&o);
	tp_outfile_abort(&o);			/* twice is harmless */
	ck_assert_int_eq(entries(dir), 0);	/* nothing left behind */
	rmdir(dir);
}
END_TEST

START_TEST(test_no_directory)
{
	tp_outfile o;
	tp_err e;

	ck_assert_int_eq(tp_outfile_create(&o, "/nonexistent/dir/x.tif", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "cannot create a file beside "
	    "'/nonexistent/dir/x.tif'"));
	ck_assert_ptr_null(o.tmp);
	ck_assert_ptr_null(o.path);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("outfile");
	TCase *core = tcase_create("core"), *err = tcase_create("errors");
	SRunner *sr;
	int nf;

	tcase_add_test(core, test_commit);
	tcase_add_test(core, test_abort);
	tcase_add_test(err, test_no_directory);
	suite_add_tcase(s, core);
	suite_add_tcase(s, err);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
