/* check_erode_batch.c - unit tests of the batch-synchronous droplet erosion:
 * the CPU path (tp_erode_batch) against the OpenCL kernel on whatever
 * runtime is installed (pocl's CPU device in CI), exact integer mass
 * balance, the fixed-point range checks and the device memory check. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "erode/tp_cl.h"
#include "erode/tp_erode.h"
#include "tp_test.h"
#include "tp_test_erode_batch.h"

START_TEST(test_spawn_as_cpu)
{
	static const int64_t side[] = { 2, 3, 97, 1000, 4096, 16777216 };
	uint64_t i, s = 77;

	for (i = 0; i < 200000; i++) {
		int64_t w = side[i % 6], h = side[(i / 6) % 6];
		uint64_t seed = i < 1000 ? i : tp_test_rnd(&s);
		float x0, y0, x1, y1;
		tp_erode_spawn(seed, i * 7919, w, h, &x0, &y0);
		tp_droplet_spawn(seed, i * 7919, w, h, &x1, &y1);
		ck_assert(memcmp(&x0, &x1, sizeof x0) == 0);
		ck_assert(memcmp(&y0, &y1, sizeof y0) == 0);
	}
}
END_TEST

/* One batch alone: the deltas sum to deposited - eroded, and eroded =
 * deposited + lost, in integer units exactly. */
START_TEST(test_mass_balance_exact)
{
	for (int k = 0; k < 6; k++) {
		float *z = terrain(k == 4);
		tp_erode_opts o;
		struct tp_droplet_params p;
		tp_droplet_cell *delta = calloc(W * H, sizeof *delta);
		int64_t add[6], sum = 0;
		float sums[TP_DL_SUB * TP_DL_SUB];
		tp_err e;

		ck_assert_ptr_nonnull(delta);
		opts_set(&o, k);
		ck_assert_int_eq(tp_erode_batch_params(&p, z, W, H, W, &o, 4096,
		    &e), 0);
		tp_droplet_brush_sums(&p, sums);
		tp_erode_batch_drops(&p, sums, z, delta, 0, 4096, 2, add);
		for (int i = 0; i < W * H; i++)
			sum += delta[i];
		ck_assert_msg(add[0] > 100000, "set %d eroded %lld", k,
		    (long long)add[0]);
		ck_assert_int_eq(add[0], add[1] + add[2]);
		ck_assert_int_eq(sum, add[1] - add[0]);
		ck_assert_int_eq(add[4], 0);
		if (k == 3)	/* no keep-mass: dying droplets lose their load */
			ck_assert_int_gt(add[2], add[0] / 10);
		free(delta);
		free(z);
	}
}
END_TEST

/* Nodata and sea cells never change; nothing goes below the lowest land. */
START_TEST(test_nodata_and_sea_kept)
{
	float *z = terrain(1), *c = copy(z), lo = INFINITY;
	tp_erode_opts o;
	tp_erode_batch_totals t;
	tp_err e;

	opts_set(&o, 4);
	o.droplets = 30000;
	ck_assert_int_eq(tp_erode_batch(c, W, H, W, &o, NULL, &t, &e), 0);
	for (int i = 0; i < W * H; i++)
		if (z[i] >= 0.3f && z[i] < lo)
			lo = z[i];
	for (int i = 0; i < W * H; i++) {
		if (isnan(z[i]))
			ck_assert(isnan(c[i]));
		else if (z[i] < 0.3f)
			ck_assert(c[i] == z[i]);
		else
			ck_assert(c[i] >= lo);
	}
	ck_assert_int_eq(t.eroded, t.deposited + t.lost);
	free(z);
	free(c);
}
END_TEST

/* The same bytes on 1 and 3 threads, and run twice. */
START_TEST(test_threads_identical)
{
	float *z = terrain(0), *a = copy(z), *b = copy(z), *c = copy(z);
	tp_erode_opts o;
	tp_err e;

	opts_set(&o, 0);
	o.threads = 1;
	ck_assert_int_eq(tp_erode_batch(a, W, H, W, &o, NULL, NULL, &e), 0);
	o.threads = 3;
	ck_assert_int_eq(tp_erode_batch(b, W, H, W, &o, NULL, NULL, &e), 0);
	ck_assert_int_eq(tp_erode_batch(c, W, H, W, &o, NULL, NULL, &e), 0);
	ck_assert(memcmp(a, b, W * H * sizeof *a) == 0);
	ck_assert(memcmp(b, c, W * H * sizeof *a) == 0);
	ck_assert(memcmp(a, z, W * H * sizeof *a) != 0);
	free(z);
	free(a);
	free(b);
	free(c);
}
END_TEST

/* A strided plane (two bands interleaved) gives the packed plane's bytes
 * and leaves the other band alone. */
START_TEST(test_stride)
{
	float *z = terrain(0), *a = copy(z), *two = malloc(2 * W * H * sizeof *two);
	tp_erode_opts o;
	tp_err e;

	ck_assert_ptr_nonnull(two);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			two[y * 2 * W + x] = z[y * W + x];
			two[y * 2 * W + W + x] = 7;
		}
	opts_set(&o, 0);
	ck_assert_int_eq(tp_erode_batch(a, W, H, W, &o, NULL, NULL, &e), 0);
	ck_assert_int_eq(tp_erode_batch(two, W, H, 2 * W, &o, NULL, NULL, &e), 0);
	for (int y = 0; y < H; y++) {
		ck_assert(memcmp(two + y * 2 * W, a + y * W, W * sizeof *a) == 0);
		for (int x = 0; x < W; x++)
			ck_assert(two[y * 2 * W + W + x] == 7);
	}
	free(z);
	free(a);
	free(two);
}
END_TEST

/* Heights spanning 1e9 units, zscale 1: a droplet could take 30 x 1e9 x
 * 1e6 units, past (2^63 - 1) / (2 x 4096) = 1.13e15: refused before it
 * starts, on both paths. */
START_TEST(test_range_refused)
{
	float *z = terrain(0);
	tp_erode_opts o;
	tp_cl_opts c = { -1, 0, 0 };
	tp_err e;

	for (int i = 0; i < W * H; i++)
		z[i] = isnan(z[i]) ? z[i] : z[i] * 2e9f;
	opts_set(&o, 0);
	o.batch = 4096;
	ck_assert_int_eq(tp_erode_batch(z, W, H, W, &o, NULL, NULL, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "fixed-point range: a droplet could "
	    "take"));
	ck_assert_ptr_nonnull(strstr(e.msg, "1.13e+15 a batch of 4096 allows"));
	ck_assert_int_eq(tp_cl_erode(z, W, H, W, &o, &c, NULL, NULL, NULL, &e),
	    -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "fixed-point range"));
	/* a zscale of 1e6 brings it back in range */
	o.zscale = 1e6;
	ck_assert_int_eq(tp_erode_batch(z, W, H, W, &o, NULL, NULL, &e), 0);
	free(z);
}
END_TEST

/* A droplet that takes more than qmax in its life stops the run: qmax
 * forced down to 1000 units (1e-3 height units). */
START_TEST(test_range_at_run_time)
{
	float *z = terrain(0);
	tp_erode_opts o;
	struct tp_droplet_params p;
	tp_droplet_cell *delta = calloc(W * H, sizeof *delta);
	tp_erode_batch_totals t = { 0, 0, 0, 0, 0 };
	int64_t add[6];
	float sums[TP_DL_SUB * TP_DL_SUB];
	tp_err e;

	ck_assert_ptr_nonnull(delta);
	opts_set(&o, 0);
	ck_assert_int_eq(tp_erode_batch_params(&p, z, W, H, W, &o, 1000, &e), 0);
	p.qmax = 1000;
	p.qmaxf = 1000;
	tp_droplet_brush_sums(&p, sums);
	tp_erode_batch_drops(&p, sums, z, delta, 0, 1000, 1, add);
	ck_assert_int_gt(add[4], 0);
	ck_assert_int_eq(tp_erode_batch_tally(&t, add, &p, &e), -1);
	ck_assert_str_eq(e.msg, "fixed-point range: a droplet took more than "
	    "1000 units (0.001 height units); use a smaller batch or a larger "
	    "zscale");
	free(delta);
	free(z);
}
END_TEST

/* Flat ground: every droplet dies where it lands and lays its nothing
 * back: the bytes do not change. Tiny grids: every droplet is left. */
START_TEST(test_flat_and_tiny)
{
	float z[36], c[36];
	tp_erode_opts o;
	tp_erode_stats st;
	tp_err e;

	for (int i = 0; i < 36; i++)
		z[i] = c[i] = 0.25f;
	opts_set(&o, 0);
	ck_assert_int_eq(tp_erode_batch(c, 6, 6, 6, &o, &st, NULL, &e), 0);
	ck_assert(memcmp(z, c, sizeof z) == 0);
	ck_assert(st.eroded == 0 && st.left == 0);
	ck_assert_int_eq(tp_erode_batch(c, 1, 36, 1, &o, &st, NULL, &e), 0);
	ck_assert_int_eq(st.left, o.droplets);
	o.radius = 0;
	ck_assert_int_eq(tp_erode_batch(c, 6, 6, 6, &o, &st, NULL, &e), -1);
	ck_assert_str_eq(e.msg, "radius must be in [1, 16]");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("erode_batch");
	TCase *core = tcase_create("core");
	TCase *errors = tcase_create("errors");

	tcase_set_timeout(core, 120);
	tcase_add_test(core, test_spawn_as_cpu);
	tcase_add_test(core, test_mass_balance_exact);
	tcase_add_test(core, test_nodata_and_sea_kept);
	tcase_add_test(core, test_threads_identical);
	tcase_add_test(core, test_stride);
	tcase_add_test(core, test_flat_and_tiny);
	tcase_set_timeout(errors, 120);
	tcase_add_test(errors, test_range_refused);
	tcase_add_test(errors, test_range_at_run_time);
	suite_add_tcase(s, core);
	suite_add_tcase(s, errors);
	return tp_test_run(s);
}
