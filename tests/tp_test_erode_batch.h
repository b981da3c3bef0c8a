/* tp_test_erode_batch.h - what the batch-synchronous droplet suites share
 * (check_erode_batch for the CPU path, check_cl for the OpenCL kernel that
 * must give its bytes): one W x H terrain and the option sets.
 *
 *   terrain(sea)     hills with a NaN hole at (20..23, 10..12) and, when
 *                    sea is set, low ground along row 0 for a sea at 0.3
 *   copy(z)          a malloc'd copy of a W x H grid
 *   opts_set(o, k)   option set k of 0..5: defaults, a small radius, a
 *                    large one with inertia, no keep-mass, a sea, a zscale
 *
 * Included by test programs only, each built alone, so everything here is
 * static, as in tp_test.h. */
#ifndef TP_TEST_ERODE_BATCH_H
#define TP_TEST_ERODE_BATCH_H

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "erode/tp_erode.h"
#include "tp_test_hills.h"

#define W 97

#define H 61

static inline float *
terrain(int sea)
{
	float *z = hills(W, H);
	int x, y;

	for (y = 10; y < 13; y++)
		for (x = 20; x < 24; x++)
			z[y * W + x] = NAN;
	for (x = 0; x < W && sea; x++)
		z[x] = 0.1f;
	return z;
}

static inline float *
copy(const float *z)
{
	float *c = malloc(W * H * sizeof *c);

	ck_assert_ptr_nonnull(c);
	memcpy(c, z, W * H * sizeof *c);
	return c;
}

static inline void
opts_set(tp_erode_opts *o, int k)
{
	tp_erode_defaults(o);
	o->droplets = 9000;
	o->seed = 5 + (uint64_t)k;
	o->batch = 2048;
	switch (k) {
	case 1: o->radius = 1; break;
	case 2: o->radius = 5.5; o->inertia = 0.6; break;
	case 3: o->keep_mass = 0; o->lifetime = 12; break;
	case 4: o->sea_level = 0.3; break;
	case 5: o->zscale = 1024; o->gravity = 10; o->batch = 0; break;
	default: break;
	}
}

#endif
