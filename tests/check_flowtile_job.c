/* check_flowtile_job.c - unit tests of tp_flowtile_job's tile phases on files:
 * a small grid cut into tiles, each prepared, the solve, each finished,
 * against the whole grid's directions and counts; and the messages that
 * name a missing file. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hydro/tp_flow.h"
#include "hydro/tiled/tp_flowtile_job.h"
#include "tp_test.h"
#include "tp_test_tiles.h"

enum { W = 5, H = 4, SIZE = 3 };

/* z = 100 - x - 10 y: every cell above the bottom row drains south (a drop
 * of 10, against 1 east and 11 / sqrt 2 = 7.8 south-east), so the water of
 * a column runs down it and crosses the tile edge between rows 2 and 3;
 * the bottom row, with nothing lower to the south, drains east, across
 * the tile edge between columns 2 and 3, and leaves at the east edge:
 *	1  1  1  1  1
 *	2  2  2  2  2
 *	3  3  3  3  3
 *	4  8 12 16 20 */
static float
height(int x, int y)
{
	return (float)(100 - x - 10 * y);
}

static char dir[64];

/* A fresh directory for the files, removed by teardown. */
static void
make_dir(void)
{
	strcpy(dir, "/tmp/check_flowtile_job.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

/* The grid cut into 2 x 2 tiles of SIZE in dir (ttile's files). */
static void
cut_tiles(tp_tileset *ts)
{
	tp_header hd = tp_test_header(W, H, 1, 0, H);
	float z[H * W];

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			z[y * W + x] = height(x, y);
	cut_grid(ts, &hd, z, SIZE, dir);
	tp_header_free(&hd);
}

static char *
path_of(const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	ck_assert_ptr_nonnull(p);
	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* Tile (row, col)'s path with suffix sfx. */
static char *
tile_path(const tp_tileset *ts, int64_t t, const char *sfx)
{
	char *p = tp_tile_path(ts, dir, t / ts->cols, t % ts->cols, sfx);

	ck_assert_ptr_nonnull(p);
	return p;
}

static tp_flowtile_opts
options(const tp_tileset *ts)
{
	tp_flowtile_opts o = { .geo = { .cellsize = 1, .north = ts->origin_y },
	    .sea_level = -INFINITY };

	return o;
}

/* Prepare every tile: its edge file beside it. */
static void
prepare(const tp_tileset *ts)
{
	tp_flowtile_opts o = options(ts);
	tp_flowtile_job k;
	tp_err e;

	for (int64_t t = 0; t < ts->rows * ts->cols; t++) {
		char *p = tile_path(ts, t, ""), *q = tile_path(ts, t, ".fedge");
		FILE *f = fopen(q, "wb");

		ck_assert_ptr_nonnull(f);
		ck_assert_msg(tp_flowtile_job_open(&k, p, 0, &e) == 0, "%s",
		    e.msg);
		ck_assert_msg(tp_flowtile_job_run(&k, "height", &o, NULL,
		    &e) == 0, "%s", e.msg);
		ck_assert_int_eq(tp_flowtile_job_edge(&k, f, &e), 0);
		ck_assert_int_eq(fclose(f), 0);
		tp_flowtile_job_free(&k);
		free(p);
		free(q);
	}
}

/* The whole grid's flow, for reference. */
static void
whole(float *flow)
{
	tp_geo_grid g = { .cellsize = 1, .north = H };
	tp_flow_stats st;
	uint8_t d[W * H];
	float z[W * H];
	tp_err e;

	for (int i = 0; i < W * H; i++)
		z[i] = height(i % W, i / W);
	ck_assert_int_eq(tp_flow_d8_sea(z, W, H, W, &g, -INFINITY, 1, d, &st,
	    &e), 0);
	ck_assert_int_eq(tp_flow_accumulate(d, W, H, &g, 0, 1, flow, W, &e),
	    0);
}

/* Every tile finished with the solve: flow equals the whole grid's and
 * the table above; river is flow >= 3. */
static void
finish(const tp_tileset *ts, const char *solve)
{
	tp_flowtile_opts o = options(ts);
	float ref[W * H];
	tp_flowtile_job k;
	tp_err e;

	whole(ref);
	for (int x = 0; x < W; x++)
		for (int y = 0; y < H; y++)
			ck_assert(ref[y * W + x] == (y < 3 ? y + 1 : 4 * x + 4));
	for (int64_t t = 0; t < ts->rows * ts->cols; t++) {
		char *p = tile_path(ts, t, "");
		size_t stride;

		ck_assert_int_eq(tp_flowtile_job_open(&k, p, 3, &e), 0);
		ck_assert_msg(tp_flowtile_job_run(&k, "height", &o, solve,
		    &e) == 0, "%s", e.msg);
		tp_flowtile_job_finish(&k, &o, 3, 0);
		stride = tp_grid_stride(&k.g);
		for (int64_t y = 0; y < k.t.h; y++)
			for (int64_t x = 0; x < k.t.w; x++) {
				size_t i = (size_t)y * stride + (size_t)x;
				float f = tp_grid_band(&k.g, k.idx[0])[i];
				float want = ref[(k.t.y0 + y) * W + k.t.x0 + x];

				ck_assert_msg(f == want, "cell %lld,%lld: %g, "
				    "not %g", (long long)(k.t.x0 + x),
				    (long long)(k.t.y0 + y), f, want);
				ck_assert(tp_grid_band(&k.g, k.idx[2])[i] ==
				    (f >= 3));
			}
		tp_flowtile_job_free(&k);
		free(p);
	}
}

START_TEST(test_phases_on_files)
{
	char *manifest, *solve;
	tp_tileset ts;
	tp_err e;
	FILE *f;

	make_dir();
	cut_tiles(&ts);
	ck_assert(ts.rows == 2 && ts.cols == 2);
	prepare(&ts);
	manifest = path_of("manifest");
	solve = path_of("solve");
	ck_assert_ptr_nonnull(f = fopen(solve, "wb"));
	ck_assert_msg(tp_flowtile_job_solve(manifest, "", f, &e) == 0, "%s",
	    e.msg);
	ck_assert_int_eq(fclose(f), 0);
	finish(&ts, solve);
	/* an edge file missing: the solve names it */
	ck_assert_ptr_nonnull(f = fopen(solve, "wb"));
	ck_assert_int_eq(tp_flowtile_job_solve(manifest, ".x", f, &e), -1);
	fclose(f);
	ck_assert_msg(strstr(e.msg, "/r0_c0.tp.x.fedge: No such file") != NULL,
	    "%s", e.msg);
	free(manifest);
	free(solve);
	tp_tileset_free(&ts);
}
END_TEST

/* A tile or a solve file that is not there: the message begins with its
 * path. */
START_TEST(test_missing_files)
{
	char *nosuch, *tile, *solve;
	tp_tileset ts;
	tp_flowtile_job k;
	tp_flowtile_opts o;
	tp_err e;

	make_dir();
	nosuch = path_of("nosuch.tp");
	solve = path_of("nope");
	ck_assert_int_eq(tp_flowtile_job_open(&k, nosuch, 0, &e), -1);
	ck_assert_msg(strncmp(e.msg, nosuch, strlen(nosuch)) == 0 &&
	    strstr(e.msg, ": No such file") != NULL, "%s", e.msg);
	cut_tiles(&ts);
	tile = tile_path(&ts, 0, "");
	o = options(&ts);
	ck_assert_int_eq(tp_flowtile_job_open(&k, tile, 2, &e), 0);
	ck_assert_int_eq(tp_flowtile_job_run(&k, "height", &o, solve, &e), -1);
	ck_assert_msg(strncmp(e.msg, solve, strlen(solve)) == 0, "%s", e.msg);
	tp_flowtile_job_free(&k);
	free(nosuch);
	free(tile);
	free(solve);
	tp_tileset_free(&ts);
}
END_TEST

/* Remove what a test left in dir. */
static void
teardown(void)
{
	char cmd[sizeof dir + 16];

	if (dir[0] == '\0' || strchr(dir, 'X') != NULL)	/* never made */
		return;
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

int
main(void)
{
	Suite *s = suite_create("flowtile_job");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_phases_on_files);
	tcase_add_test(tc, test_missing_files);
	suite_add_tcase(s, tc);
	return tp_test_run(s);
}
