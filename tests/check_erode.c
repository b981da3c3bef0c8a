/* check_erode.c - unit tests of droplet and thermal erosion (terode). */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "erode/tp_erode.h"
#include "erode/tp_thermal.h"
#include "tp_test.h"
#include "tp_test_hills.h"
#include "tp_test_simd.h"

/* 8 x 3, every row the same: downhill in x to a pit at column 4. */
static void
pit_plane(float *z)
{
	static const float col[8] = { 1.0f, 0.9f, 0.8f, 0.7f, 0.6f, 0.8f,
	    0.9f, 1.0f };

	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 8; x++)
			z[y * 8 + x] = col[x];
}

START_TEST(test_droplet_by_hand)
{
	/* Radius 1 at a node: the brush is that node alone. A droplet from
	 * (1, 1), lifetime 4, the reference's defaults otherwise (capacity
	 * 4, not the 8 kept-mass droplets have by default):
	 * step 1: dh = -0.1, capacity 0.1*1*1*4 = 0.4, erodes min(0.3*0.4,
	 *   0.1) = 0.1 from (1,1); speed sqrt(1 + 0.1*4), water 0.99
	 * step 2: capacity 0.1*sqrt(1.4)*0.99*4 = 0.468554, erodes
	 *   min(0.3*0.368554, 0.1) = 0.1 from (2,1); speed sqrt(1.8)
	 * step 3: capacity 0.1*sqrt(1.8)*0.9801*4 = 0.525977, erodes
	 *   0.3*(0.525977 - 0.2) = 0.097793 from (3,1): 0.602207
	 * step 4: in the pit (4,1) the gradient is +0.2, so it turns back
	 *   (0.05 - 0.95*0.2 < 0) toward (3,1), now 0.602207: uphill by
	 *   0.002207, which it deposits in the pit (4,1): 0.602207
 * end of life: the load left, 0.297793 - 0.002207 = 0.295586, is laid
 *   back along the droplet's path, a quarter (0.0738965) at each of the
 *   four nodes it started a step from, (1,1) .. (4,1):
 *   (1,1) 0.8 + 0.0738965, (2,1) 0.7 + 0.0738965,
 *   (3,1) 0.602207 + 0.0738965, (4,1) 0.602207 + 0.0738965 */
	float z[24];
	tp_erode_opts o;
	tp_erode_stats st = { 0 };
	tp_err e;

	pit_plane(z);
	tp_erode_defaults(&o);
	o.capacity = tp_erode_capacity(0);	/* the reference's 4 */
	o.radius = 1;
	o.lifetime = 4;
	ck_assert_int_eq(tp_erode_one(z, 8, 3, 8, &o, 1, 1, &st, &e), 0);
	ck_assert_float_eq_tol(z[8 + 1], 0.8738965f, 1e-6);
	ck_assert_float_eq_tol(z[8 + 2], 0.7738965f, 1e-6);
	ck_assert_float_eq_tol(z[8 + 3], 0.6761035f, 1e-6);
	ck_assert_float_eq_tol(z[8 + 4], 0.6761035f, 1e-6);
	ck_assert_float_eq(z[8 + 0], 1.0f);
	ck_assert_float_eq(z[8 + 5], 0.8f);
	for (int x = 0; x < 8; x++) {	/* rows 0 and 2 untouched */
		ck_assert_float_eq(z[x], z[16 + x]);
		ck_assert_float_eq(z[x], x == 4 ? 0.6f : z[x]);
	}
	ck_assert_int_eq(st.droplets, 1);
	ck_assert_int_eq(st.left, 0);
	ck_assert_double_eq_tol(st.eroded, 0.297793, 1e-6);
	ck_assert_double_eq_tol(st.deposited, 0.297793, 1e-6);
	ck_assert_double_eq_tol(st.lost, 0, 1e-12);
}
END_TEST

START_TEST(test_no_keep_mass)
{
	/* As above, but the final load 0.295586 vanishes. */
	float z[24];
	tp_erode_opts o;
	tp_erode_stats st = { 0 };
	tp_err e;

	pit_plane(z);
	tp_erode_defaults(&o);
	o.capacity = tp_erode_capacity(0);	/* the reference's 4 */
	o.radius = 1;
	o.lifetime = 4;
	o.keep_mass = 0;
	ck_assert_int_eq(tp_erode_one(z, 8, 3, 8, &o, 1, 1, &st, &e), 0);
	ck_assert_float_eq_tol(z[8 + 3], 0.602207f, 1e-6);
	ck_assert_double_eq_tol(st.lost, 0.295586, 1e-6);
	ck_assert_double_eq_tol(st.deposited, 0.002207, 1e-6);
}
END_TEST

/* 32 x 16, falling 0.01 a cell eastward. */
static void
ramp_plane(float *z)
{
	for (int y = 0; y < 16; y++)
		for (int x = 0; x < 32; x++)
			z[y * 32 + x] = 1.0f - 0.01f * (float)x;
}

START_TEST(test_trail_stride)
{
	/* Radius 3 lays the load at every second start position. A droplet
	 * from the node (10, 8) on the ramp steps east to (11, 8), then
	 * (12, 8), and ends: its load goes back through the brush at (10, 8)
	 * alone, so what keep-mass adds is symmetric about column 10 (with
	 * every position used, (11, 8) would take half of it) and reaches
	 * column 13 nowhere; what it adds is the load, all that was cut. */
	float a[512], b[512];
	tp_erode_opts o;
	tp_erode_stats sa = { 0 }, sb = { 0 };
	tp_err e;
	double sum = 0;

	ck_assert_int_eq(tp_erode_trail_stride(3), 2);
	ck_assert_int_eq(tp_erode_trail_stride(2.9), 1);
	ck_assert_int_eq(tp_erode_trail_stride(1), 1);
	ck_assert_int_eq(tp_erode_trail_stride(16), 8);
	ramp_plane(a);
	ramp_plane(b);
	tp_erode_defaults(&o);
	o.lifetime = 2;
	ck_assert_int_eq(tp_erode_one(a, 32, 16, 32, &o, 10, 8, &sa, &e), 0);
	o.keep_mass = 0;
	ck_assert_int_eq(tp_erode_one(b, 32, 16, 32, &o, 10, 8, &sb, &e), 0);
	ck_assert_double_eq_tol(sa.eroded, sb.eroded, 1e-12);
	ck_assert(sa.eroded > 0.01);
	for (int y = 0; y < 16; y++)
		for (int x = 0; x < 32; x++) {
			double d = (double)a[y * 32 + x] - b[y * 32 + x];
			sum += d;
			if (x < 7 || x > 13 || y < 5 || y > 11)
				ck_assert_double_eq(d, 0);
			if (x >= 7 && x <= 13)
				ck_assert_double_eq_tol(d, (double)a[y * 32 +
				    20 - x] - b[y * 32 + 20 - x], 1e-6);
		}
	ck_assert_double_eq(a[8 * 32 + 13], b[8 * 32 + 13]);
	ck_assert(a[8 * 32 + 10] - b[8 * 32 + 10] > 1e-3);
	ck_assert_double_eq_tol(sum, sa.eroded, 1e-6);
}
END_TEST

START_TEST(test_zscale)
{
	/* The same droplet on heights in "metres": x 1000 with zscale 1000
	 * gives the same amounts x 1000 (to rounding); a power of two, x 1024
	 * with zscale 1024, scales every step exactly. */
	float z[24], u[24];
	tp_erode_opts o;
	tp_err e;

	pit_plane(z);
	for (int i = 0; i < 24; i++)
		z[i] *= 1000;
	tp_erode_defaults(&o);
	o.capacity = tp_erode_capacity(0);	/* the reference's 4 */
	o.radius = 1;
	o.lifetime = 4;
	o.zscale = 1000;
	ck_assert_int_eq(tp_erode_one(z, 8, 3, 8, &o, 1, 1, NULL, &e), 0);
	ck_assert_float_eq_tol(z[8 + 3], 676.1035f, 2e-3);
	ck_assert_float_eq_tol(z[8 + 4], 676.1035f, 2e-3);

	pit_plane(u);
	pit_plane(z);
	for (int i = 0; i < 24; i++)
		z[i] *= 1024;
	o.zscale = 1;
	o.lifetime = 30;
	o.radius = 2.5;
	ck_assert_int_eq(tp_erode_one(u, 8, 3, 8, &o, 1.3, 0.7, NULL, &e), 0);
	o.zscale = 1024;
	ck_assert_int_eq(tp_erode_one(z, 8, 3, 8, &o, 1.3, 0.7, NULL, &e), 0);
	for (int i = 0; i < 24; i++)
		ck_assert_float_eq(z[i], u[i] * 1024);
}
END_TEST

/* The volume taken from the cells that were lowered. */
static double
lowered(const float *before, const float *after, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		if (after[i] < before[i])
			s += (double)before[i] - after[i];
	return s;
}

START_TEST(test_mass_balance)
{
	/* With keep_mass the load of every droplet stays on the grid, also
	 * of those that reach its edge: the grid's volume does not change,
	 * to rounding (within 0.1% of the volume the droplets cut; the loads
	 * of droplets that ran off the edge used to be lost). */
	const int64_t w = 96, h = 80;
	const size_t n = (size_t)(w * h);
	float *z = hills(w, h), *z0 = hills(w, h);
	double before = sum(z, n);
	tp_erode_opts o;
	tp_erode_stats st;
	tp_err e;

	tp_erode_defaults(&o);
	o.droplets = 20000;
	o.seed = 5;
	o.threads = 2;
	ck_assert_int_eq(tp_erode(z, w, h, (size_t)w, &o, &st, &e), 0);
	ck_assert_int_eq(st.droplets, 20000);
	ck_assert_int_gt(st.left, 0);	/* some ran to the edge */
	ck_assert_double_gt(st.eroded, 1.0);
	ck_assert_double_eq(st.lost, 0.0);
	ck_assert_double_eq_tol(st.eroded, st.deposited, 1e-5 * st.eroded);
	ck_assert_double_lt(fabs(sum(z, n) - before), 1e-3 * lowered(z0, z, n));

	/* Without it the loads of the droplets that end leave the grid. */
	free(z);
	z = hills(w, h);
	o.keep_mass = 0;
	ck_assert_int_eq(tp_erode(z, w, h, (size_t)w, &o, &st, &e), 0);
	ck_assert_double_gt(st.lost, 1.0);
	ck_assert_double_eq_tol(st.eroded, st.deposited + st.lost,
	    1e-5 * st.eroded);
	ck_assert_double_eq_tol(sum(z, n), before - st.lost, 1e-5 * st.eroded);
	free(z);
	free(z0);
}
END_TEST

/* hills with a block of nodata and a hole of single NaN cells. */
static float *
holes(int64_t w, int64_t h)
{
	float *z = hills(w, h);

	for (int64_t y = 40; y < 60; y++)
		for (int64_t x = 30; x < 55; x++)
			z[y * w + x] = NAN;
	for (int64_t i = 7; i < w * h; i += 997)
		z[i] = NAN;
	return z;
}

START_TEST(test_simd_identical)
{
	/* Plain C, SSE2 and AVX2 brush loops sum in the same eight lanes in
	 * the same order, and the vector look does the plain one's operations
	 * in its order: the same bytes at every vector level, for brush rows
	 * of one block of eight (radius 2: 5 rows; radius 3: 7 rows, AVX2's
	 * unrolled case) and of two (radius 4.5), and on grids with nodata
	 * and a sea (droplets that end in them). */
	const int64_t w = 200, h = 170;
	static const double radius[] = { 2, 3, 4.5, 3, 3 };
	static const tp_simd_level lv[] = { TP_SIMD_SCALAR, TP_SIMD_SSE2,
	    TP_SIMD_AVX2 };
	tp_erode_opts o;
	tp_err e;

	for (int r = 0; r < 5; r++) {
		float *ref = r < 3 ? hills(w, h) : holes(w, h);
		tp_erode_defaults(&o);
		o.droplets = 20000;
		o.seed = 7;
		o.radius = radius[r];
		o.sea_level = r == 4 ? 0.45 : -INFINITY;
		o.simd = lv[0];
		ck_assert_int_eq(tp_erode(ref, w, h, (size_t)w, &o, NULL, &e), 0);
		for (int l = 1; l < 3; l++) {
			float *z = r < 3 ? hills(w, h) : holes(w, h);
			o.simd = lv[l];
			ck_assert_int_eq(tp_erode(z, w, h, (size_t)w, &o, NULL,
			    &e), 0);
			ck_assert_mem_eq(z, ref, (size_t)(w * h) * sizeof *z);
			free(z);
		}
		free(ref);
	}
}
END_TEST

START_TEST(test_pitch_identical)
{
	/* Rows 1 KiB apart (256 floats) share cache sets, so tp_erode works
	 * on a copy at another pitch: the same bytes as the same heights laid
	 * out at a pitch it takes as it is (300), and at twice the width (a
	 * second band between the rows, left as it was). */
	const int64_t w = 256, h = 90;
	float *a = hills(w, h), *b = malloc((size_t)(300 * h) * sizeof *b);
	float *c = malloc((size_t)(2 * w * h) * sizeof *c);
	tp_erode_opts o;
	tp_err e;

	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(c);
	for (int64_t y = 0; y < h; y++) {
		memcpy(b + y * 300, a + y * w, (size_t)w * sizeof *a);
		memcpy(c + y * 2 * w, a + y * w, (size_t)w * sizeof *a);
		for (int64_t x = 0; x < w; x++)
			c[y * 2 * w + w + x] = (float)(y * w + x);
	}
	tp_erode_defaults(&o);
	o.droplets = 20000;
	o.seed = 3;
	ck_assert_int_eq(tp_erode(a, w, h, (size_t)w, &o, NULL, &e), 0);
	ck_assert_int_eq(tp_erode(b, w, h, 300, &o, NULL, &e), 0);
	ck_assert_int_eq(tp_erode(c, w, h, (size_t)(2 * w), &o, NULL, &e), 0);
	for (int64_t y = 0; y < h; y++) {
		ck_assert_mem_eq(b + y * 300, a + y * w, (size_t)w * sizeof *a);
		ck_assert_mem_eq(c + y * 2 * w, a + y * w,
		    (size_t)w * sizeof *a);
		for (int64_t x = 0; x < w; x++)
			ck_assert_float_eq(c[y * 2 * w + w + x],
			    (float)(y * w + x));
	}
	free(a);
	free(b);
	free(c);
}
END_TEST

START_TEST(test_owned_identical)
{
	/* tp_erode_owned spaces the rows of a 256-wide plane out in its own
	 * block and back: the bytes of tp_erode's copy, the block the same
	 * size again; at a pitch erosion takes as it is (300 wide), and with
	 * no droplets, nothing moves. */
	const int64_t w = 256, h = 90;
	float *a = hills(w, h), *b = hills(w, h), *c = hills(300, h);
	float *d = hills(300, h);
	tp_erode_opts o;
	tp_err e;

	tp_erode_defaults(&o);
	o.droplets = 20000;
	o.seed = 3;
	ck_assert_int_eq(tp_erode(a, w, h, (size_t)w, &o, NULL, &e), 0);
	ck_assert_int_eq(tp_erode_owned(&b, w, h, (size_t)w, &o, NULL, &e), 0);
	ck_assert_mem_eq(b, a, (size_t)(w * h) * sizeof *a);
	ck_assert_int_eq(tp_erode(c, 300, h, 300, &o, NULL, &e), 0);
	ck_assert_int_eq(tp_erode_owned(&d, 300, h, 300, &o, NULL, &e), 0);
	ck_assert_mem_eq(d, c, (size_t)(300 * h) * sizeof *c);
	o.droplets = 0;
	free(a);
	a = hills(w, h);
	ck_assert_int_eq(tp_erode_owned(&a, w, h, (size_t)w, &o, NULL, &e), 0);
	free(c);
	c = hills(w, h);
	ck_assert_mem_eq(a, c, (size_t)(w * h) * sizeof *a);
	free(a);
	free(b);
	free(c);
	free(d);
	/* a plane at a stride wider than the pitch erosion picks (256 cells
	 * of a 512-float row): the rows cannot be spaced out in place, so the
	 * copy's bytes, the block untouched past each row's 256 */
	o.droplets = 20000;
	a = hills(512, h);
	b = hills(512, h);
	ck_assert_int_eq(tp_erode(a, w, h, 512, &o, NULL, &e), 0);
	ck_assert_int_eq(tp_erode_owned(&b, w, h, 512, &o, NULL, &e), 0);
	ck_assert_mem_eq(b, a, (size_t)(512 * h) * sizeof *a);
	free(a);
	free(b);
}
END_TEST

START_TEST(test_threads_identical)
{
	const int64_t w = 300, h = 260;
	float *a = hills(w, h), *b = hills(w, h), *c = hills(w, h);
	tp_erode_opts o;
	tp_erode_stats sa, sb;
	tp_err e;

	tp_erode_defaults(&o);
	o.droplets = 40000;
	o.seed = 11;
	o.threads = 1;
	ck_assert_int_eq(tp_erode(a, w, h, (size_t)w, &o, &sa, &e), 0);
	o.threads = 2;
	ck_assert_int_eq(tp_erode(b, w, h, (size_t)w, &o, &sb, &e), 0);
	o.threads = 3;
	ck_assert_int_eq(tp_erode(c, w, h, (size_t)w, &o, NULL, &e), 0);
	ck_assert_mem_eq(a, b, (size_t)(w * h) * sizeof *a);
	ck_assert_mem_eq(a, c, (size_t)(w * h) * sizeof *a);
	ck_assert_double_eq(sa.eroded, sb.eroded);
	ck_assert_int_eq(sa.left, sb.left);
	/* and a different seed gives a different result */
	free(c);
	c = hills(w, h);
	o.seed = 12;
	ck_assert_int_eq(tp_erode(c, w, h, (size_t)w, &o, NULL, &e), 0);
	ck_assert_int_ne(memcmp(a, c, (size_t)(w * h) * sizeof *a), 0);
	free(a);
	free(b);
	free(c);
}
END_TEST

/* Mean absolute change and eroded volume of one run. */
static void
run_stats(int64_t batch, double *mad, double *eroded, float *out)
{
	const int64_t w = 256, h = 256;
	float *z = hills(w, h), *z0 = hills(w, h);
	tp_erode_opts o;
	tp_erode_stats st;
	tp_err e;
	double s = 0;

	tp_erode_defaults(&o);
	o.droplets = 30000;
	o.seed = 3;
	o.batch = batch;
	ck_assert_int_eq(tp_erode(z, w, h, (size_t)w, &o, &st, &e), 0);
	for (int64_t i = 0; i < w * h; i++)
		s += fabs(z[i] - z0[i]);
	*mad = s / (double)(w * h);
	*eroded = st.eroded;
	memcpy(out, z, (size_t)(w * h) * sizeof *z);
	free(z);
	free(z0);
}

START_TEST(test_batch_close_to_sequential)
{
	/* Batch 1 is plain sequential order; the default batches reorder the
	 * droplets by tile. Same droplets, so the same statistics: eroded
	 * volume and mean change within 3%, heights within a few droplets'
	 * worth everywhere, and no runaway. */
	float *a = malloc(256 * 256 * sizeof *a), *b = malloc(256 * 256 * sizeof *b);
	double mad1, mad2, er1, er2, maxd = 0;

	run_stats(1, &mad1, &er1, a);
	run_stats(0, &mad2, &er2, b);
	ck_assert_double_eq_tol(er2 / er1, 1.0, 0.03);
	ck_assert_double_eq_tol(mad2 / mad1, 1.0, 0.03);
	for (int i = 0; i < 256 * 256; i++) {
		ck_assert(isfinite(b[i]) && b[i] > -0.5f && b[i] < 1.5f);
		if (fabs(a[i] - b[i]) > maxd)
			maxd = fabs(a[i] - b[i]);
	}
	ck_assert_double_lt(maxd, 0.2);
	free(a);
	free(b);
}
END_TEST

START_TEST(test_spawn)
{
	float x, y, x2, y2;
	int frac = 0;

	for (uint64_t i = 0; i < 10000; i++) {
		tp_erode_spawn(7, i, 33, 17, &x, &y);
		ck_assert(x >= 0 && x < 32 && y >= 0 && y < 16);
		frac += x != floorf(x);
		tp_erode_spawn(7, i, 33, 17, &x2, &y2);
		ck_assert(x == x2 && y == y2);
	}
	ck_assert_int_gt(frac, 9900);	/* continuous, not lattice nodes */
	tp_erode_spawn(7, 0, 33, 17, &x, &y);
	tp_erode_spawn(8, 0, 33, 17, &x2, &y2);
	ck_assert(x != x2 || y != y2);
	tp_erode_spawn(1, 5, 2, 2, &x, &y);	/* the smallest grid */
	ck_assert(x >= 0 && x < 1 && y >= 0 && y < 1);
}
END_TEST

START_TEST(test_flat_unchanged)
{
	float z[64 * 48], z0[64 * 48];
	tp_erode_opts o;
	tp_erode_stats st;
	tp_err e;

	for (int i = 0; i < 64 * 48; i++)
		z[i] = z0[i] = 0.25f;
	tp_erode_defaults(&o);
	o.droplets = 5000;
	ck_assert_int_eq(tp_erode(z, 64, 48, 64, &o, &st, &e), 0);
	ck_assert_mem_eq(z, z0, sizeof z);
	ck_assert_int_eq(st.left, 0);
	ck_assert_double_eq(st.eroded, 0);
}
END_TEST

/* Nodata stays nodata, everything else finite and not below lo. */
static void
all_finite_or_nan(const float *z, const float *z0, size_t n, float lo)
{
	size_t bad = n;

	for (size_t i = 0; i < n && bad == n; i++)
		if (isnan(z0[i]) ? !isnan(z[i]) : !isfinite(z[i]) ||
		    z[i] < lo - 1e-6f)
			bad = i;
	ck_assert_msg(bad == n, "cell %zu: %g (was %g)", bad,
	    bad < n ? z[bad] : 0, bad < n ? z0[bad] : 0);
}

START_TEST(test_cliff)
{
	/* a vertical cliff: 0 west of column 20, 1 east of it */
	const int64_t w = 40, h = 30;
	float z[40 * 30];
	tp_erode_opts o;
	tp_erode_stats st;
	tp_err e;

	for (int i = 0; i < w * h; i++)
		z[i] = i % w < 20 ? 0.0f : 1.0f;
	tp_erode_defaults(&o);
	o.droplets = 4000;
	o.gravity = 1000;
	o.capacity = 1000;
	ck_assert_int_eq(tp_erode(z, w, h, (size_t)w, &o, &st, &e), 0);
	all_finite_or_nan(z, z, (size_t)(w * h), 0);
	ck_assert(isfinite(st.eroded) && isfinite(st.deposited));
	ck_assert_double_gt(st.eroded, 0);
}
END_TEST

START_TEST(test_nan_holes)
{
	const int64_t w = 64, h = 64;
	float *z = hills(w, h), *z0 = hills(w, h);
	tp_erode_opts o;
	tp_erode_stats st;
	tp_err e;
	float lo = 1;

	for (int64_t i = 0; i < w * h; i++) {
		if ((i % w) % 9 == 4 && (i / w) % 7 < 3)
			z[i] = z0[i] = NAN;
		else if (i == 70)
			z[i] = z0[i] = INFINITY;
		else if (i == 1001)
			z[i] = z0[i] = -3.4028235e38f;	/* a DEM's nodata */
		else if (z[i] < lo)
			lo = z[i];
	}
	tp_erode_defaults(&o);
	o.droplets = 20000;
	o.threads = 2;
	ck_assert_int_eq(tp_erode(z, w, h, (size_t)w, &o, &st, &e), 0);
	ck_assert(isinf(z[70]));
	ck_assert_float_eq(z[1001], -3.4028235e38f);
	z[70] = z0[70] = z[1001] = z0[1001] = NAN;
	all_finite_or_nan(z, z0, (size_t)(w * h), lo);
	ck_assert_int_gt(st.left, 0);
	ck_assert_double_eq_tol(st.eroded, st.deposited + st.lost,
	    1e-5 * st.eroded);
	free(z);
	free(z0);
}
END_TEST

START_TEST(test_extremes)
{
	/* the largest options on a steep grid, and tiny zscale: still no NaN
	 * or infinity anywhere */
	const int64_t w = 40, h = 30;
	float *z = hills(w, h), *z0 = hills(w, h);
	tp_erode_opts o;
	tp_erode_stats st;
	tp_err e;

	tp_erode_defaults(&o);
	o.droplets = 3000;
	o.gravity = o.capacity = o.water = o.speed = o.min_capacity = 1e6;
	o.erode = 0;
	o.zscale = 1e-30;
	ck_assert_int_eq(tp_erode(z, w, h, (size_t)w, &o, &st, &e), 0);
	all_finite_or_nan(z, z0, (size_t)(w * h), 0);
	o.erode = 1;
	o.deposit = 1;
	o.zscale = 1;
	o.lifetime = 1000;
	ck_assert_int_eq(tp_erode(z, w, h, (size_t)w, &o, &st, &e), 0);
	all_finite_or_nan(z, z0, (size_t)(w * h), 0);
	ck_assert(isfinite(st.eroded) && isfinite(st.deposited) &&
	    isfinite(st.lost));
	for (int64_t i = 0; i < w * h; i++)	/* heights of 1e29 */
		z[i] = z0[i] * 1e29f;
	o.zscale = 1e-30;
	ck_assert_int_eq(tp_erode(z, w, h, (size_t)w, &o, &st, &e), 0);
	all_finite_or_nan(z, z0, (size_t)(w * h), 0);
	free(z);
	free(z0);
}
END_TEST

START_TEST(test_tiny_grids)
{
	float z[3] = { 0.1f, 0.5f, 0.9f };
	tp_erode_opts o;
	tp_erode_stats st;
	tp_err e;

	tp_erode_defaults(&o);
	o.droplets = 10;
	ck_assert_int_eq(tp_erode(z, 3, 1, 3, &o, &st, &e), 0);
	ck_assert_int_eq(st.left, 10);
	ck_assert_float_eq(z[1], 0.5f);
	ck_assert_int_eq(tp_erode(z, 1, 1, 1, &o, &st, &e), 0);
	ck_assert_int_eq(tp_erode_one(z, 1, 3, 1, &o, 0, 0, &st, &e), 0);
	ck_assert_int_eq(tp_thermal(z, 1, 1, 1, 3, 0, -INFINITY, 2, &e), 0);
	ck_assert_float_eq(z[0], 0.1f);
}
END_TEST

/* The change band: z - orig added cell by cell, nothing where orig was
 * nodata; the snapshot is packed (row stride = width). */
START_TEST(test_change_band)
{
	/* 3 x 2 plane in a stride of 4 (one foreign column) */
	float z[8] = { 1.0f, 2.0f, 3.0f, 9.0f, 4.0f, NAN, 6.0f, 9.0f };
	float s[8] = { 0.5f, 0, 0, 7.0f, 0, 0, -1.0f, 7.0f };
	float *o;
	tp_err e;

	o = tp_erode_snapshot(z, 3, 2, 4, &e);
	ck_assert_ptr_nonnull(o);
	ck_assert_float_eq(o[2], 3.0f);
	ck_assert_float_eq(o[3], 4.0f);	/* row 1 starts at 3: packed */
	z[0] = 0.75f;			/* eroded by 0.25 */
	z[2] = 3.5f;			/* raised by 0.5 */
	z[6] = 5.0f;			/* eroded by 1 */
	tp_erode_add_change(s, z, o, 3, 2, 4);
	ck_assert_float_eq_tol(s[0], 0.25f, 1e-7f);
	ck_assert_float_eq(s[1], 0.0f);
	ck_assert_float_eq_tol(s[2], 0.5f, 1e-7f);
	ck_assert_float_eq(s[3], 7.0f);	/* outside the plane: untouched */
	ck_assert_float_eq(s[5], 0.0f);	/* nodata: nothing added, no NaN */
	ck_assert_float_eq_tol(s[6], -2.0f, 1e-7f);
	ck_assert_float_eq(s[7], 7.0f);
	free(o);
}
END_TEST

START_TEST(test_bad_options)
{
	float z[4] = { 0 };
	tp_erode_opts o;
	tp_err e;

	tp_erode_defaults(&o);
	ck_assert_int_eq(tp_erode_check(&o, &e), 0);
	o.radius = 0.5;
	ck_assert_int_eq(tp_erode(z, 2, 2, 2, &o, NULL, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "radius"));
	tp_erode_defaults(&o);
	o.lifetime = 0;
	ck_assert_int_eq(tp_erode_check(&o, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "lifetime"));
	tp_erode_defaults(&o);
	o.zscale = 0;
	ck_assert_int_eq(tp_erode_check(&o, &e), -1);
	tp_erode_defaults(&o);
	o.inertia = NAN;
	ck_assert_int_eq(tp_erode_check(&o, &e), -1);
	tp_erode_defaults(&o);
	o.droplets = -1;
	ck_assert_int_eq(tp_erode_check(&o, &e), -1);
	ck_assert_int_eq(tp_thermal(z, 2, 2, 2, 1, -1, -INFINITY, 1, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "talus"));
}
END_TEST

/* The sea, by hand: the pit plane with the sea at 0.65, so column 4 (0.6)
 * is sea. The droplet of test_droplet_by_hand erodes 0.1 from (1,1) on
 * its first step; its second would end at (3,1), a cell with a sea
 * corner, so it stops there and its 0.1 of sediment leaves the map: (2,1)
 * and the sea are untouched. A droplet spawned in the sea does nothing. */
START_TEST(test_sea_by_hand)
{
	float z[24], z0[24];
	tp_erode_opts o;
	tp_erode_stats st = { 0 };
	tp_err e;

	pit_plane(z);
	pit_plane(z0);
	tp_erode_defaults(&o);
	o.capacity = tp_erode_capacity(0);	/* the reference's 4 */
	o.radius = 1;
	o.lifetime = 4;
	o.sea_level = 0.65;
	ck_assert_int_eq(tp_erode_one(z, 8, 3, 8, &o, 1, 1, &st, &e), 0);
	ck_assert_float_eq_tol(z[8 + 1], 0.8f, 1e-6);
	for (int i = 0; i < 24; i++)
		if (i != 8 + 1)
			ck_assert_float_eq(z[i], z0[i]);
	ck_assert_int_eq(st.droplets, 1);
	ck_assert_int_eq(st.left, 1);
	ck_assert_double_eq_tol(st.eroded, 0.1, 1e-6);
	ck_assert_double_eq_tol(st.lost, 0.1, 1e-6);
	ck_assert_double_eq(st.deposited, 0);
	memset(&st, 0, sizeof st);
	ck_assert_int_eq(tp_erode_one(z0, 8, 3, 8, &o, 4.25, 1, &st, &e), 0);
	pit_plane(z);
	ck_assert_mem_eq(z0, z, sizeof z);
	ck_assert_int_eq(st.left, 1);
	ck_assert_double_eq(st.eroded, 0);
}
END_TEST

/* Hills with the sea at 0.45 (about a third of the cells): droplets and
 * thermal passes leave every sea cell bit for bit as it was, land stays
 * at or above the sea level, the mass balance holds, and 1 and 2 threads
 * agree; without the sea (the --sea-floor behaviour) the sea floor
 * changes. With NaN holes too, both stay as they were. */
START_TEST(test_sea_floor_untouched)
{
	const int64_t w = 200, h = 160, n = w * h;
	float *z0 = hills(w, h), *a = hills(w, h), *b = hills(w, h);
	float *c = hills(w, h);
	tp_erode_opts o;
	tp_erode_stats sa, sb;
	tp_err e;
	int64_t i, nsea = 0, changed = 0;

	tp_erode_defaults(&o);
	o.droplets = 40000;
	o.seed = 7;
	o.sea_level = 0.45;
	o.threads = 1;
	ck_assert_int_eq(tp_erode(a, w, h, (size_t)w, &o, &sa, &e), 0);
	o.threads = 2;
	ck_assert_int_eq(tp_erode(b, w, h, (size_t)w, &o, &sb, &e), 0);
	ck_assert_mem_eq(a, b, (size_t)n * sizeof *a);
	ck_assert_double_eq(sa.eroded, sb.eroded);
	ck_assert_double_eq_tol(sa.eroded, sa.deposited + sa.lost,
	    1e-5 * sa.eroded);
	ck_assert_double_eq_tol(sum(a, (size_t)n), sum(z0, (size_t)n) - sa.lost,
	    1e-5 * sa.eroded);
	ck_assert_int_eq(tp_thermal(a, w, h, (size_t)w, 20, 0.001, 0.45, 1, &e),
	    0);
	ck_assert_int_eq(tp_thermal(b, w, h, (size_t)w, 20, 0.001, 0.45, 2, &e),
	    0);
	ck_assert_mem_eq(a, b, (size_t)n * sizeof *a);
	o.sea_level = -INFINITY;
	ck_assert_int_eq(tp_erode(c, w, h, (size_t)w, &o, NULL, &e), 0);
	for (i = 0; i < n; i++) {
		if (z0[i] < 0.45) {
			nsea++;
			ck_assert(memcmp(&a[i], &z0[i], sizeof *a) == 0);
			changed += c[i] != z0[i];
		} else
			ck_assert(a[i] >= 0.45f);
	}
	ck_assert_int_gt(nsea, n / 5);
	ck_assert_int_gt(changed, nsea / 10);
	ck_assert_double_gt(sa.eroded, 1.0);
	/* with nodata holes as well: holes and sea both untouched */
	memcpy(a, z0, (size_t)n * sizeof *a);
	for (i = 101; i < n; i += 997)
		a[i] = z0[i] = NAN;
	memcpy(b, a, (size_t)n * sizeof *a);
	o.sea_level = 0.45;
	o.threads = 1;
	ck_assert_int_eq(tp_erode(a, w, h, (size_t)w, &o, NULL, &e), 0);
	o.threads = 2;
	ck_assert_int_eq(tp_erode(b, w, h, (size_t)w, &o, NULL, &e), 0);
	ck_assert_mem_eq(a, b, (size_t)n * sizeof *a);
	for (i = 0; i < n; i++)
		if (isnan(z0[i]) || z0[i] < 0.45)
			ck_assert(memcmp(&a[i], &z0[i], sizeof *a) == 0);
	ck_assert_int_ne(memcmp(a, z0, (size_t)n * sizeof *a), 0);
	free(z0);
	free(a);
	free(b);
	free(c);
}
END_TEST

typedef struct eroderun {
	tp_erode_opts o;
	int64_t w, h;
} eroderun;

static void
run_erode(void *ctx, tp_simd_level l, float *z, size_t n)
{
	eroderun *r = ctx;
	tp_erode_stats st;
	tp_err e;

	for (int64_t y = 0; y < r->h; y++)
		for (int64_t x = 0; x < r->w; x++)
			z[y * r->w + x] = (float)(0.5 + 0.3 * sin(x * 0.13) *
			    cos(y * 0.09) + 0.1 * sin((x + 2 * y) * 0.31));
	r->o.simd = l;
	ck_assert_int_eq(tp_erode(z, r->w, r->h, (size_t)r->w, &r->o, &st, &e),
	    0);
}

/* The same bytes at every vector level: a small erosion run (most
 * brushes land inside the grid, where the vector loop works) for brush
 * rows of 8 and of 12 cells. */
START_TEST(test_simd_levels)
{
	eroderun r = { .w = 96, .h = 80 };

	tp_erode_defaults(&r.o);
	r.o.droplets = 3000;
	r.o.seed = 9;
	r.o.radius = _i ? 5 : 3;
	r.o.threads = 1;
	tp_test_same_at_levels(run_erode, &r, (size_t)(r.w * r.h), "erode",
	    _i);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("erode");
	TCase *core = tcase_create("core");
	TCase *limits = tcase_create("limits");
	TCase *errors = tcase_create("errors");
	TCase *simd = tcase_create("simd");

	tcase_set_timeout(core, 60);
	tcase_add_test(core, test_droplet_by_hand);
	tcase_add_test(core, test_no_keep_mass);
	tcase_add_test(core, test_zscale);
	tcase_add_test(core, test_trail_stride);
	tcase_add_test(core, test_mass_balance);
	tcase_add_test(core, test_owned_identical);
	tcase_add_test(core, test_threads_identical);
	tcase_add_test(core, test_simd_identical);
	tcase_add_test(core, test_pitch_identical);
	tcase_add_test(core, test_batch_close_to_sequential);
	tcase_add_test(core, test_spawn);
	tcase_add_test(core, test_change_band);
	tcase_add_test(core, test_sea_by_hand);
	tcase_add_test(core, test_sea_floor_untouched);
	tcase_add_test(limits, test_flat_unchanged);
	tcase_add_test(limits, test_cliff);
	tcase_add_test(limits, test_nan_holes);
	tcase_add_test(limits, test_extremes);
	tcase_add_test(limits, test_tiny_grids);
	tcase_add_test(errors, test_bad_options);
	tcase_set_timeout(simd, 60);
	tcase_add_loop_test(simd, test_simd_levels, 0, 2);
	suite_add_tcase(s, core);
	suite_add_tcase(s, limits);
	suite_add_tcase(s, errors);
	suite_add_tcase(s, simd);
	return tp_test_run(s);
}
