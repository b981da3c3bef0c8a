/* check_cl.c - unit tests of tp_cl: the OpenCL droplet kernel on whatever
 * runtime is installed (pocl's CPU device in CI) against the CPU path
 * (tp_erode_batch), repeatable, and the device memory check. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "erode/tp_cl.h"
#include "erode/tp_erode.h"
#include "tp_test.h"
#include "tp_test_erode_batch.h"

/* The kernel on the first OpenCL device gives the CPU path's bytes and
 * totals, on every option set, whatever the work-group size. */
START_TEST(test_opencl_as_cpu)
{
	static const size_t local[] = { 0, 1, 64, 0, 7, 256 };

	for (int k = 0; k < 6; k++) {
		float *z = terrain(k == 4), *a = copy(z), *b = copy(z);
		tp_erode_opts o;
		tp_erode_stats sa, sb;
		tp_erode_batch_totals ta, tb;
		tp_cl_opts c = { 0, local[k], 0 };
		tp_cl_device d;
		tp_err e;

		opts_set(&o, k);
		ck_assert_int_eq(tp_erode_batch(a, W, H, W, &o, &sa, &ta, &e), 0);
		if (tp_cl_erode(b, W, H, W, &o, &c, &sb, &tb, &d, &e) != 0)
			ck_abort_msg("%s", e.msg);
		ck_assert_msg(memcmp(a, b, W * H * sizeof *a) == 0,
		    "option set %d: OpenCL bytes differ from the CPU's", k);
		ck_assert_int_eq(ta.eroded, tb.eroded);
		ck_assert_int_eq(ta.deposited, tb.deposited);
		ck_assert_int_eq(ta.lost, tb.lost);
		ck_assert_int_eq(ta.left, tb.left);
		ck_assert(sa.eroded == sb.eroded && sa.left == sb.left);
		ck_assert_int_eq(tb.eroded, tb.deposited + tb.lost);
		free(z);
		free(a);
		free(b);
	}
}
END_TEST

/* Two work-group sizes and two runs on the device: one set of bytes. */
START_TEST(test_opencl_repeatable)
{
	float *z = terrain(0), *a = copy(z), *b = copy(z);
	tp_erode_opts o;
	tp_cl_opts c = { -1, 32, 0 };
	tp_err e;

	opts_set(&o, 2);
	o.droplets = 20000;
	o.batch = 20000;	/* many droplets on the same cells at once */
	ck_assert_int_eq(tp_cl_erode(a, W, H, W, &o, &c, NULL, NULL, NULL, &e),
	    0);
	c.local = 1;
	ck_assert_int_eq(tp_cl_erode(b, W, H, W, &o, &c, NULL, NULL, NULL, &e),
	    0);
	ck_assert(memcmp(a, b, W * H * sizeof *a) == 0);
	memcpy(b, z, W * H * sizeof *b);
	c.local = 32;
	ck_assert_int_eq(tp_cl_erode(b, W, H, W, &o, &c, NULL, NULL, NULL, &e),
	    0);
	ck_assert(memcmp(a, b, W * H * sizeof *a) == 0);
	free(z);
	free(a);
	free(b);
}
END_TEST

/* A device of 1000 bytes holds 1000 / 12 = 83 cells: 9 x 9 named. */
START_TEST(test_device_memory)
{
	float *z = terrain(0);
	tp_erode_opts o;
	tp_cl_opts c = { 0, 0, 1000 };
	tp_err e;

	opts_set(&o, 0);
	ck_assert_int_eq(tp_cl_erode(z, W, H, W, &o, &c, NULL, NULL, NULL, &e),
	    -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "the grid (97 x 61 cells, 0 MiB "
	    "with its deltas) does not fit OpenCL device 0"));
	ck_assert_ptr_nonnull(strstr(e.msg, "at most 83 cells fit, 9 x 9"));
	c.device = 99;
	c.mem_cap = 0;
	ck_assert_int_eq(tp_cl_erode(z, W, H, W, &o, &c, NULL, NULL, NULL, &e),
	    -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "OpenCL device 99 does not exist"));
	free(z);
}
END_TEST

/* A cell takes a float height and a 64-bit delta, 12 bytes, and the
 * deltas are one buffer: the cells are the fewer of memory / 12 and the
 * largest buffer / 8, memory capped by mem_cap when that is less. */
START_TEST(test_max_cells)
{
	tp_cl_device d = { .mem = 1200, .max_alloc = 800 };

	ck_assert_int_eq(tp_cl_max_cells(&d, 0), 100);
	ck_assert_int_eq(tp_cl_max_cells(&d, 600), 50);
	ck_assert_int_eq(tp_cl_max_cells(&d, 6000), 100);	/* not more */
	d.max_alloc = 400;
	ck_assert_int_eq(tp_cl_max_cells(&d, 0), 50);
	d.mem = UINT64_MAX;
	d.max_alloc = UINT64_MAX;
	ck_assert_int_eq(tp_cl_max_cells(&d, 0), (int64_t)(UINT64_MAX / 12));
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("cl");
	TCase *cl = tcase_create("opencl");
	TCase *errors = tcase_create("errors");
	TCase *core = tcase_create("core");

	tcase_set_timeout(cl, 300);
	tcase_add_test(cl, test_opencl_as_cpu);
	tcase_add_test(cl, test_opencl_repeatable);
	tcase_set_timeout(errors, 120);
	tcase_add_test(errors, test_device_memory);
	tcase_add_test(core, test_max_cells);
	suite_add_tcase(s, cl);
	suite_add_tcase(s, errors);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
