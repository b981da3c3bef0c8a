/* check_filltile_job.c - unit tests of tp_filltile_job's phases on tile
 * files: a fractal cut into tiles (ttile's files), each tile prepared into
 * its edge file, the solve into a levels file, each tile finished, against
 * tp_fill_pf_sea on the whole grid to the byte, for each rule; with a
 * cache too small for one tile the solve spills tiles and cleans up;
 * a tile without the band is refused. */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hydro/tp_fill.h"
#include "hydro/tiled/tp_filltile.h"
#include "stream/tp_tile.h"
#include "hydro/tiled/tp_filltile_job.h"
#include "tp_test.h"
#include "tp_test_tiles.h"

enum { N = 17, SIZE = 5 };

static char dir[64];
static float z[N * N];

/* The fractal (pits, flats after rounding, a NaN) cut into tiles of SIZE
 * in a fresh directory. */
static void
cut_tiles(tp_tileset *ts)
{
	tp_header hd = tp_test_header(N, N, 1, 0, N);
	uint64_t s = 11;

	strcpy(dir, "/tmp/check_filltile_job.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	tp_test_fractal(z, N, &s, 0.7f);
	for (int k = 0; k < N * N; k++)
		z[k] = roundf(z[k] * 20);
	z[3 * N + 9] = NAN;
	cut_grid(ts, &hd, z, SIZE, dir);
	tp_header_free(&hd);
}

/* Remove every file in dir, then dir. */
static void
remove_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char p[512];

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
		unlink(p);
	}
	closedir(d);
	ck_assert_int_eq(rmdir(dir), 0);
}

static void
read_tile(const tp_tileset *ts, int64_t t, tp_grid *g)
{
	char *p = tp_tile_path(ts, dir, t / ts->cols, t % ts->cols, "");
	FILE *f;
	tp_err e;

	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(f = fopen(p, "rb"));
	ck_assert_int_eq(tp_grid_read(g, f, &e), 0);
	fclose(f);
	free(p);
}

static FILE *
open_beside(const tp_tileset *ts, int64_t t, const char *sfx,
    const char *mode)
{
	char *p = tp_tile_path(ts, dir, t / ts->cols, t % ts->cols, sfx);
	FILE *f;

	ck_assert_ptr_nonnull(p);
	f = fopen(p, mode);
	ck_assert_ptr_nonnull(f);
	free(p);
	return f;
}

/* Count the files in dir whose names end in sfx. */
static int
files_ending(const char *sfx)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t k = strlen(sfx);
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL) {
		size_t m = strlen(de->d_name);

		n += m > k && strcmp(de->d_name + m - k, sfx) == 0;
	}
	closedir(d);
	return n;
}

/* All three phases with rule o; cache bytes for the solve. */
static void
phases(const tp_fill_opts *o, uint64_t cache, int threads)
{
	tp_tileset ts;
	tp_filltile_job j;
	tp_grid g;
	tp_err e;
	float want[N * N];
	int64_t t, n;
	FILE *lv;

	cut_tiles(&ts);
	n = ts.rows * ts.cols;
	ck_assert_int_eq(n, 16);
	memcpy(want, z, sizeof want);
	ck_assert_int_eq(tp_fill_pf_sea(want, N, N, N, o, -INFINITY, NULL,
	    &e), 0);
	ck_assert_int_eq(tp_filltile_job_init(&j, &ts, dir, "height", o,
	    -INFINITY, &e), 0);
	j.cache_bytes = cache;
	j.threads = threads;
	for (t = n - 1; t >= 0; t--) {		/* any order will do */
		FILE *f = open_beside(&ts, t, ".edge", "wb");

		read_tile(&ts, t, &g);
		ck_assert_msg(tp_filltile_job_prepare(&j, &g, f, &e) == 0, "%s",
		    e.msg);
		ck_assert_int_eq(fclose(f), 0);
		tp_grid_free(&g);
	}
	ck_assert_ptr_nonnull(lv = tmpfile());
	ck_assert_msg(tp_filltile_job_solve(&j, lv, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(files_ending(".solve"), 0);
	if (o->rule != TP_FILL_FLAT) {
		ck_assert_int_gt(j.rounds, 0);
		/* a tile kept in the cache is read once; without room,
		 * once for every relax */
		if (cache < 1024)
			ck_assert_int_eq(j.loads, j.rounds);
		else
			ck_assert_int_le(j.loads, n);
	}
	for (t = 0; t < n; t++) {
		tp_tile_rect r = tp_tile_at(&ts, t / ts.cols, t % ts.cols);

		read_tile(&ts, t, &g);
		rewind(lv);
		ck_assert_msg(tp_filltile_job_finish(&j, &g, lv, NULL, &e) == 0,
		    "%s", e.msg);
		for (int64_t y = 0; y < r.h; y++)
			ck_assert_msg(memcmp(g.data + y * tp_grid_stride(&g),
			    want + (r.y0 + y) * N + r.x0, (size_t)r.w * 4) ==
			    0, "tile %lld row %lld", (long long)t,
			    (long long)y);
		tp_grid_free(&g);
	}
	fclose(lv);
	tp_tileset_free(&ts);
	remove_dir();
}

/* The default rule, epsilon and flat (solved on the ring graphs). */
START_TEST(test_rules)
{
	static const tp_fill_opts rules[3] = { { TP_FILL_NEXT, 0 },
		{ TP_FILL_EPSILON, 1e-3f }, { TP_FILL_FLAT, 0 } };

	phases(&rules[_i], (uint64_t)1 << 30, 1);
}
END_TEST

/* A cache of one byte: every relaxed tile goes out to its ".solve" file
 * and comes back; none is left after the solve. Two threads. */
START_TEST(test_spills)
{
	static const tp_fill_opts next = { TP_FILL_NEXT, 0 };

	phases(&next, 1, 2);
}
END_TEST

START_TEST(test_no_band)
{
	tp_tileset ts;
	tp_filltile_job j;
	tp_grid g;
	tp_err e;
	static const tp_fill_opts next = { TP_FILL_NEXT, 0 };

	cut_tiles(&ts);
	ck_assert_int_eq(tp_filltile_job_init(&j, &ts, dir, "depth", &next,
	    -INFINITY, &e), 0);
	read_tile(&ts, 0, &g);
	ck_assert_int_eq(tp_filltile_job_prepare(&j, &g, stdout, &e), -1);
	ck_assert_str_eq(e.msg, "the tile has no band 'depth'");
	tp_grid_free(&g);
	tp_tileset_free(&ts);
	remove_dir();
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("filltile_job");
	TCase *core = tcase_create("core");
	TCase *errors = tcase_create("errors");

	tcase_set_timeout(core, 60);
	tcase_add_loop_test(core, test_rules, 0, 3);
	tcase_add_test(core, test_spills);
	tcase_add_test(errors, test_no_band);
	suite_add_tcase(s, core);
	suite_add_tcase(s, errors);
	return tp_test_run(s);
}
