/* tp_test_scratch.h - a scratch directory per test, for the suites that
 * write files (check_geotiff, check_geotiff_write, check_png, check_import).
 *
 *   setup()          as a checked fixture: a fresh directory in dir, and
 *                    path naming the file a.tif in it
 *   teardown()       removes every file in dir, then dir
 *   count_files()    how many files dir holds (a failed write leaves none)
 *
 * Included by test programs only, each built alone, so everything here is
 * static, as in tp_test.h. */
#ifndef TP_TEST_SCRATCH_H
#define TP_TEST_SCRATCH_H

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char dir[64];

static char path[128];

static inline void
setup(void)
{
	setenv("PROJ_DEBUG", "0", 1);
	snprintf(dir, sizeof(dir), "/tmp/check_geotiff.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/a.tif", dir);
}

static inline int
count_files(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	while ((de = readdir(d)) != NULL)
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

static inline void
teardown(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char p[512];

	while (d != NULL && (de = readdir(d)) != NULL)
		if (de->d_name[0] != '.') {
			snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
			unlink(p);
		}
	if (d != NULL)
		closedir(d);
	rmdir(dir);
}

#endif
