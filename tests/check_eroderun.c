/* check_eroderun.c - unit tests of tp_eroderun: no droplets and no passes
 * leave the grid alone, one droplet a cell, the sediment band as the
 * change, the masks, the batch model on any thread count, a thermal
 * pass. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "erode/tp_eroderun.h"
#include "tp_test.h"

enum { N = 16 };

/* An N x N grid of bands height (waves about 0.5, in [0.2, 0.8]) and
 * sediment (0). */
static void
grid(tp_grid *g)
{
	tp_header h = tp_test_header(N, N, 1, 0, N);
	tp_err e;

	ck_assert_int_eq(tp_header_add_band(&h, "sediment", &e), 1);
	ck_assert_int_eq(tp_grid_alloc(g, &h, &e), 0);
	tp_header_free(&h);
	for (int y = 0; y < N; y++)
		for (int x = 0; x < N; x++)
			tp_grid_band(g, 0)[y * tp_grid_stride(g) + x] =
			    0.5f + 0.3f * sinf((float)x * 0.7f) *
			    cosf((float)y * 0.4f);
}

static tp_erode_opts
droplet_opts(void)
{
	tp_erode_opts o;

	tp_erode_defaults(&o);
	o.sea_level = -INFINITY;
	o.threads = 1;
	return o;
}

START_TEST(test_nothing)
{
	tp_erode_opts o = droplet_opts();
	tp_eroderun_opts r = { .cl_device = -1 };
	tp_eroderun_result res;
	tp_grid g, g0;
	tp_err e;

	grid(&g);
	grid(&g0);
	o.droplets = 0;
	ck_assert_int_eq(tp_eroderun(&g, 0, 1, &o, &r, &res, &e), 0);
	ck_assert_int_eq(res.st.droplets, 0);
	ck_assert_int_eq(res.batched, 0);
	ck_assert_int_eq(memcmp(g.data, g0.data, (size_t)N * N * 2 *
	    sizeof *g.data), 0);
	tp_grid_free(&g);
	tp_grid_free(&g0);
}
END_TEST

/* One droplet a cell: 256 of them; the sediment band is each cell's
 * height after less its height before, in float. */
START_TEST(test_sediment)
{
	tp_erode_opts o = droplet_opts();
	tp_eroderun_opts r = { .cl_device = -1, .per_cell = 1 };
	tp_eroderun_result res;
	tp_grid g, g0;
	tp_err e;
	int changed = 0;

	grid(&g);
	grid(&g0);
	ck_assert_int_eq(tp_eroderun(&g, 0, 1, &o, &r, &res, &e), 0);
	ck_assert_int_eq(res.st.droplets, N * N);
	for (int y = 0; y < N; y++)
		for (int x = 0; x < N; x++) {
			size_t i = (size_t)y * tp_grid_stride(&g) + (size_t)x;
			float d = tp_grid_band(&g, 0)[i] -
			    tp_grid_band(&g0, 0)[i];

			ck_assert_float_eq(tp_grid_band(&g, 1)[i], d);
			changed += d != 0;
		}
	ck_assert_int_gt(changed, 0);
	tp_grid_free(&g);
	tp_grid_free(&g0);
}
END_TEST

/* The grid with bands wear, deposit and flow after height and sediment,
 * eroded with --masks and a thermal pass on threads threads. */
static void
masked(tp_grid *g, int threads)
{
	tp_erode_opts o = droplet_opts();
	tp_eroderun_opts r = { .cl_device = -1, .per_cell = 1, .thermal = 1,
	    .talus = 0.01, .masks = 1, .mask = { 1, 2, 3 } };
	tp_eroderun_result res;
	tp_header h = tp_test_header(N, N, 1, 0, N);
	tp_err e;

	ck_assert_int_eq(tp_header_add_band(&h, "wear", &e), 1);
	ck_assert_int_eq(tp_header_add_band(&h, "deposit", &e), 2);
	ck_assert_int_eq(tp_header_add_band(&h, "flow", &e), 3);
	ck_assert_int_eq(tp_grid_alloc(g, &h, &e), 0);
	tp_header_free(&h);
	for (int y = 0; y < N; y++)
		for (int x = 0; x < N; x++)
			tp_grid_band(g, 0)[y * tp_grid_stride(g) + x] =
			    0.5f + 0.3f * sinf((float)x * 0.7f) *
			    cosf((float)y * 0.4f);
	o.threads = threads;
	ck_assert_int_eq(tp_eroderun(g, 0, -1, &o, &r, &res, &e), 0);
}

/* wear - deposit is the fall of every cell (in float, exactly: one of
 * them is 0, the other the float difference), flow is above 0 where
 * droplets ran, and the bytes are the same on 1 and 3 threads. */
START_TEST(test_masks)
{
	tp_grid g[2], g0;
	float flow = 0;
	size_t st;

	masked(&g[0], 1);
	masked(&g[1], 3);
	grid(&g0);
	st = tp_grid_stride(&g[0]);
	for (int y = 0; y < N; y++)
		for (int x = 0; x < N; x++) {
			size_t i = (size_t)y * st + (size_t)x;
			float w = tp_grid_band(&g[0], 1)[i];
			float d = tp_grid_band(&g[0], 2)[i];
			float h0 = tp_grid_band(&g0, 0)[(size_t)y *
			    tp_grid_stride(&g0) + (size_t)x];

			ck_assert(w >= 0 && d >= 0 && (w == 0 || d == 0));
			ck_assert_float_eq(w - d, h0 -
			    tp_grid_band(&g[0], 0)[i]);
			ck_assert(tp_grid_band(&g[0], 3)[i] >= 0);
			flow += tp_grid_band(&g[0], 3)[i];
		}
	ck_assert(flow > N * N / 2);
	ck_assert_int_eq(memcmp(g[0].data, g[1].data, (size_t)N * N * 4 *
	    sizeof *g[0].data), 0);
	tp_grid_free(&g[0]);
	tp_grid_free(&g[1]);
	tp_grid_free(&g0);
}
END_TEST

/* The batch-synchronous model refuses the masks. */
START_TEST(test_masks_batch)
{
	tp_erode_opts o = droplet_opts();
	tp_eroderun_opts r = { .cl_device = -1, .per_cell = 1,
	    .batch_sync = 1, .masks = 1, .mask = { 1, 1, 1 } };
	tp_eroderun_result res;
	tp_grid g;
	tp_err e;

	grid(&g);
	ck_assert_int_eq(tp_eroderun(&g, 0, -1, &o, &r, &res, &e), -1);
	ck_assert_str_eq(e.msg, "the masks are made on the CPU per droplet, "
	    "not by the batch-synchronous model");
	tp_grid_free(&g);
}
END_TEST

/* The batch-synchronous model says so and gives the same bytes on one
 * thread and on three. */
START_TEST(test_batch)
{
	tp_erode_opts o = droplet_opts();
	tp_eroderun_opts r = { .cl_device = -1, .per_cell = 1,
	    .batch_sync = 1 };
	tp_eroderun_result res;
	tp_grid g[2];
	tp_err e;

	for (int k = 0; k < 2; k++) {
		grid(&g[k]);
		o.threads = k == 0 ? 1 : 3;
		ck_assert_int_eq(tp_eroderun(&g[k], 0, -1, &o, &r, &res, &e),
		    0);
		ck_assert_int_eq(res.batched, 1);
		ck_assert_int_eq(res.gpu, 0);
		ck_assert(res.raised >= 0);
	}
	ck_assert_int_eq(memcmp(g[0].data, g[1].data, (size_t)N * N * 2 *
	    sizeof *g[0].data), 0);
	tp_grid_free(&g[0]);
	tp_grid_free(&g[1]);
}
END_TEST

/* No droplets, one thermal pass of talus 0.01: drops steeper than that
 * are cut down, so some cells change (the sediment band says which), and
 * the heights' sum stays (material moves downhill, none is lost). */
START_TEST(test_thermal)
{
	tp_erode_opts o = droplet_opts();
	tp_eroderun_opts r = { .cl_device = -1, .thermal = 1, .talus = 0.01 };
	tp_eroderun_result res;
	tp_grid g, g0;
	tp_err e;
	double s0 = 0, s1 = 0;
	int changed = 0;

	grid(&g);
	grid(&g0);
	o.droplets = 0;
	ck_assert_int_eq(tp_eroderun(&g, 0, 1, &o, &r, &res, &e), 0);
	for (int y = 0; y < N; y++)
		for (int x = 0; x < N; x++) {
			size_t i = (size_t)y * tp_grid_stride(&g) + (size_t)x;

			s0 += tp_grid_band(&g0, 0)[i];
			s1 += tp_grid_band(&g, 0)[i];
			changed += tp_grid_band(&g, 1)[i] != 0;
		}
	ck_assert_int_gt(changed, 0);
	ck_assert_double_eq_tol(s0, s1, 1e-4);
	tp_grid_free(&g);
	tp_grid_free(&g0);
}
END_TEST

static Suite *
eroderun_suite(void)
{
	Suite *s = suite_create("eroderun");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_nothing);
	tcase_add_test(core, test_sediment);
	tcase_add_test(core, test_batch);
	tcase_add_test(core, test_masks);
	tcase_add_test(core, test_masks_batch);
	tcase_add_test(core, test_thermal);
	tcase_set_timeout(core, 60);
	suite_add_tcase(s, core);
	return s;
}

int
main(void)
{
	return tp_test_run(eroderun_suite());
}
