/* check_fillrun.c - unit tests of tp_fillrun: a pit filled by hand with
 * its depth, both methods and tiles on threads alike, a tile's files. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hydro/run/tp_fillrun.h"
#include "tp_test.h"

/* A w x h grid of bands height and depth, height from z. */
static void
grid(tp_grid *g, int64_t w, int64_t h, const float *z)
{
	tp_header hd = tp_test_header(w, h, 1, 0, (double)h);
	tp_err e;

	ck_assert_int_eq(tp_header_add_band(&hd, "depth", &e), 1);
	ck_assert_int_eq(tp_grid_alloc(g, &hd, &e), 0);
	tp_header_free(&hd);
	for (int64_t y = 0; y < h; y++)
		memcpy(tp_grid_band(g, 0) + (size_t)y * tp_grid_stride(g),
		    z + y * w, (size_t)w * sizeof *z);
}

/*
 * A pit of 1 in a ring of 5, the ring open at one corner of 2:
 *	5 5 5
 *	5 1 5
 *	5 5 2
 * The pit drains out over the corner at 2, so it is raised to the next
 * float above 2 (the default rule) or to 2 itself (flat); its depth is
 * that less 1, 0 elsewhere.
 */
START_TEST(test_pit)
{
	static const float z[] = { 5, 5, 5, 5, 1, 5, 5, 5, 2 };
	tp_fillrun_opts o = { .fill = { .rule = TP_FILL_NEXT }, .threads = 1,
	    .sea = -INFINITY };
	tp_fill_stats st;
	tp_grid g;
	tp_err e;
	float up = nextafterf(2, INFINITY);

	grid(&g, 3, 3, z);
	ck_assert_int_eq(tp_fillrun_tiled(&o), 0);
	ck_assert_int_eq(tp_fillrun(&g, 0, 1, &o, &st, &e), 0);
	ck_assert_float_eq(tp_grid_band(&g, 0)[tp_grid_stride(&g) + 1], up);
	ck_assert_float_eq(tp_grid_band(&g, 1)[tp_grid_stride(&g) + 1],
	    up - 1);
	ck_assert_float_eq(tp_grid_band(&g, 1)[0], 0);
	ck_assert_int_eq(st.raised, 1);
	tp_grid_free(&g);
	o.fill.rule = TP_FILL_FLAT;
	o.planchon = 1;
	grid(&g, 3, 3, z);
	ck_assert_int_eq(tp_fillrun(&g, 0, -1, &o, &st, &e), 0);
	ck_assert_float_eq(tp_grid_band(&g, 0)[tp_grid_stride(&g) + 1], 2);
	ck_assert_float_eq(tp_grid_band(&g, 1)[tp_grid_stride(&g) + 1], 0);
	tp_grid_free(&g);
}
END_TEST

/* Priority-Flood, Planchon-Darboux and tiles of 8 on two threads give the
 * same bytes on a fractal, depth band included. */
START_TEST(test_alike)
{
	enum { N = 33 };
	static float z[N * N];
	tp_fillrun_opts o = { .fill = { .rule = TP_FILL_NEXT }, .threads = 1,
	    .sea = 0 };
	tp_fill_stats st;
	tp_grid g[3];
	uint64_t s = 11;
	tp_err e;

	tp_test_fractal(z, N, &s, 0.6f);
	for (int i = 0; i < 3; i++) {
		o.planchon = i == 1;
		o.threads = i == 2 ? 2 : 1;
		o.tile_size = i == 2 ? 8 : 0;
		ck_assert_int_eq(tp_fillrun_tiled(&o), i == 2);
		grid(&g[i], N, N, z);
		ck_assert_int_eq(tp_fillrun(&g[i], 0, 1, &o, &st, &e), 0);
	}
	for (int i = 1; i < 3; i++) {
		ck_assert_int_eq(memcmp(g[0].data, g[i].data, (size_t)N * N * 2 *
		    sizeof *g[0].data), 0);
		tp_grid_free(&g[i]);
	}
	tp_grid_free(&g[0]);
}
END_TEST

/* A tile that is not there, and one without the band, are named. */
START_TEST(test_tile_files)
{
	tp_grid g;
	tp_err e;
	int idx[1] = { -1 };
	char path[] = "/tmp/check_fillrun_XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	ck_assert_int_eq(tp_fillrun_read_tile(&g, "/nonexistent/t.tp",
	    "height", 0, idx, &e), -1);
	ck_assert_str_eq(e.msg, "/nonexistent/t.tp: No such file or directory");
	ck_assert_int_ge(fd, 0);
	ck_assert_ptr_nonnull(f = fdopen(fd, "wb"));
	{
		tp_header h = tp_test_header(2, 1, 1, 0, 1);
		tp_grid t;

		ck_assert_int_eq(tp_grid_alloc(&t, &h, &e), 0);
		ck_assert_int_eq(tp_grid_write(&t, f, &e), 0);
		tp_grid_free(&t);
		tp_header_free(&h);
	}
	fclose(f);
	ck_assert_int_eq(tp_fillrun_read_tile(&g, path, "height", 1, idx, &e),
	    0);
	ck_assert_int_eq(idx[0], 1);
	ck_assert_str_eq(g.h.band[1], "depth");
	tp_grid_free(&g);
	ck_assert_int_eq(tp_fillrun_read_tile(&g, path, "z", 0, idx, &e), -1);
	ck_assert_msg(strstr(e.msg, ": the tile has no band 'z'") != NULL,
	    "%s", e.msg);
	unlink(path);
}
END_TEST

static Suite *
fillrun_suite(void)
{
	Suite *s = suite_create("fillrun");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_pit);
	tcase_add_test(core, test_alike);
	tcase_add_test(core, test_tile_files);
	suite_add_tcase(s, core);
	return s;
}

int
main(void)
{
	return tp_test_run(fillrun_suite());
}
