/* check_outfile.c - unit tests of tp_outfile: whole files or none. */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/tp_outfile.h"
#include "tp_test.h"

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

/* Write text through tp_outfile to path and commit; 0 or -1 (e in *e). */
static int
put(const char *path, const char *text, tp_err *e)
{
	tp_outfile o;
	int fd;

	if ((fd = tp_outfile_create(&o, path, e)) < 0)
		return -1;
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return tp_outfile_commit(&o, e);
}

/* The first bytes of path, as a string. */
static const char *
slurp(const char *path)
{
	static char buf[64];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	ck_assert_int_ge(fd, 0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n < 0 ? 0 : n] = '\0';
	return buf;
}

static int
is_link(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

START_TEST(test_symlink)
{
	char dir[] = "/tmp/tp-outfile.XXXXXX", path[96], link[96], chain[96];
	char sub[96], rel[96];
	tp_err e;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/real.tif", dir);
	snprintf(link, sizeof link, "%s/link.tif", dir);
	snprintf(chain, sizeof chain, "%s/chain.tif", dir);
	ck_assert_int_eq(put(path, "old", &e), 0);
	ck_assert_int_eq(symlink("real.tif", link), 0);	/* relative */
	ck_assert_int_eq(symlink(link, chain), 0);	/* absolute, to a link */
	ck_assert_msg(put(chain, "new", &e) == 0, "%s", e.msg);
	ck_assert(is_link(link) && is_link(chain));	/* links stay links */
	ck_assert_str_eq(slurp(path), "new");
	/* A relative target is relative to the link's own directory. */
	snprintf(sub, sizeof sub, "%s/sub", dir);
	snprintf(rel, sizeof rel, "%s/sub/up.tif", dir);
	ck_assert_int_eq(mkdir(sub, 0777), 0);
	ck_assert_int_eq(symlink("../real.tif", rel), 0);
	ck_assert_msg(put(rel, "up", &e) == 0, "%s", e.msg);
	ck_assert_str_eq(slurp(path), "up");
	ck_assert(is_link(rel));
	ck_assert_int_eq(entries(dir), 4);	/* no temporary file left */
	ck_assert_int_eq(entries(sub), 1);
	unlink(rel), rmdir(sub), unlink(chain), unlink(link), unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(test_dangling_link)
{
	char dir[] = "/tmp/tp-outfile.XXXXXX", path[96], link[96];
	tp_err e;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/later.tif", dir);
	snprintf(link, sizeof link, "%s/link.tif", dir);
	ck_assert_int_eq(symlink("later.tif", link), 0);
	ck_assert_msg(put(link, "made", &e) == 0, "%s", e.msg);
	ck_assert(is_link(link));
	ck_assert_str_eq(slurp(path), "made");
	unlink(link), unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(test_fifo)
{
	char dir[] = "/tmp/tp-outfile.XXXXXX", fifo[96], copy[96];
	struct stat sb;
	tp_outfile o;
	tp_err e;
	pid_t pid;
	int fd, st;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	snprintf(copy, sizeof copy, "%s/copy", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	fd = tp_outfile_create(&o, fifo, &e);
	ck_assert_msg(fd >= 0, "%s", e.msg);
	ck_assert_ptr_null(o.tmp);		/* nothing beside it */
	ck_assert_int_eq(write(fd, "through", 7), 7);
	close(fd);
	if ((pid = fork()) == 0) {		/* the reader at the other end */
		char buf[64];
		ssize_t n;
		int in = open(fifo, O_RDONLY);
		int out = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		while ((n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, (size_t)n) != n)
				_exit(1);
		_exit(n < 0);
	}
	ck_assert_int_gt(pid, 0);
	ck_assert_msg(tp_outfile_commit(&o, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ck_assert_str_eq(slurp(copy), "through");
	ck_assert_int_eq(entries(dir), 2);	/* still a FIFO, and the copy */
	ck_assert_int_eq(lstat(fifo, &sb), 0);
	ck_assert(S_ISFIFO(sb.st_mode));
	unlink(copy), unlink(fifo);
	rmdir(dir);
}
END_TEST

/* A character device to write to: made in dir when we may (so a test can
 * never replace the system's own), else the system's (then we may not
 * replace it either). */
static const char *
chardev(const char *dir, const char *name, unsigned minor, char *buf,
    size_t len)
{
	snprintf(buf, len, "%s/%s", dir, name);
	if (mknod(buf, S_IFCHR | 0666, makedev(1, minor)) == 0)
		return buf;
	snprintf(buf, len, "/dev/%s", name);
	return buf;
}

START_TEST(test_devices)
{
	char dir[] = "/tmp/tp-outfile.XXXXXX", null[96], full[96];
	struct stat st;
	tp_err e;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	chardev(dir, "null", 3, null, sizeof null);
	chardev(dir, "full", 7, full, sizeof full);
	ck_assert_msg(put(null, "gone", &e) == 0, "%s", e.msg);
	ck_assert_int_eq(lstat(null, &st), 0);
	ck_assert(S_ISCHR(st.st_mode));		/* not replaced */
	ck_assert_int_eq(put(full, "too much", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "No space left on device"));
	ck_assert_int_eq(lstat(full, &st), 0);
	ck_assert(S_ISCHR(st.st_mode));
	if (strncmp(null, dir, strlen(dir)) == 0)
		unlink(null), unlink(full);
	ck_assert_int_eq(entries(dir), 0);
	rmdir(dir);
}
END_TEST

START_TEST(test_directory)
{
	char dir[] = "/tmp/tp-outfile.XXXXXX";
	tp_outfile o;
	tp_err e;

	char link[96];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(tp_outfile_create(&o, dir, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "is a directory"));
	ck_assert_ptr_null(strchr(e.msg, '\n'));
	ck_assert_ptr_null(o.tmp);
	ck_assert_ptr_null(o.path);
	ck_assert_int_eq(entries(dir), 0);
	/* A link to a directory is the directory. */
	snprintf(link, sizeof link, "%s/link", dir);
	ck_assert_int_eq(symlink(".", link), 0);
	ck_assert_int_eq(tp_outfile_create(&o, link, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "is a directory"));
	ck_assert_int_eq(entries(dir), 1);
	unlink(link);
	rmdir(dir);
}
END_TEST

START_TEST(test_link_loop)
{
	char dir[] = "/tmp/tp-outfile.XXXXXX", a[96], b[96];
	tp_outfile o;
	tp_err e;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(a, sizeof a, "%s/a", dir);
	snprintf(b, sizeof b, "%s/b", dir);
	ck_assert_int_eq(symlink("b", a), 0);
	ck_assert_int_eq(symlink("a", b), 0);
	ck_assert_int_eq(tp_outfile_create(&o, a, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "cannot follow"));
	ck_assert_int_eq(entries(dir), 2);
	unlink(a), unlink(b);
	rmdir(dir);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("outfile");
	TCase *core = tcase_create("core"), *err = tcase_create("errors");

	tcase_add_test(core, test_commit);
	tcase_add_test(core, test_abort);
	tcase_add_test(core, test_symlink);
	tcase_add_test(core, test_dangling_link);
	tcase_add_test(core, test_fifo);
	tcase_add_test(core, test_devices);
	tcase_add_test(err, test_no_directory);
	tcase_add_test(err, test_directory);
	tcase_add_test(err, test_link_loop);
	suite_add_tcase(s, core);
	suite_add_tcase(s, err);
	return tp_test_run(s);
}
