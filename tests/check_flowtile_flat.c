/* check_flowtile_flat.c - unit tests of tp_flowtile_flat: flats inside a
 * tile and across tile edges, flat lakes and plateaus, resolved in tiles
 * of every size to the whole grid's directions and flow to the byte. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tiled/tp_flowtile.h"
#include "tp_test.h"
#include "tp_test_flowtile.h"

/* Flats inside a tile and across tile edges, tiles of every size: the
 * whole grid's directions and flow to the byte. */
START_TEST(test_flats)
{
	tp_flowtile_opts o = { .geo = { .cellsize = 1, .north = 12 },
	    .sea_level = -INFINITY };
	float z[144];
	int x, y;

	for (y = 0; y < 12; y++)
		for (x = 0; x < 12; x++)
			z[y * 12 + x] = (float)(x + y);
	for (y = 7; y < 10; y++)
		for (x = 7; x < 10; x++)
			z[y * 12 + x] = 14;
	same_as_whole(z, 12, 12, 1, 13, &o);
}
END_TEST

/* Noise filled with flat lakes, and noise rounded to integers (plateaus
 * and sinks, unfilled). */
START_TEST(test_lakes)
{
	static const tp_fill_opts FLAT = { TP_FILL_FLAT, 0 };
	tp_flowtile_opts o = { .geo = { .cellsize = 1, .north = 23 },
	    .sea_level = -INFINITY };
	int w = 29, h = 23, i;
	float *z = malloc((size_t)w * (size_t)h * sizeof *z);
	uint64_t s = 991 + (uint64_t)_i;
	tp_err e;

	ck_assert_ptr_nonnull(z);
	for (i = 0; i < w * h; i++)
		z[i] = _i == 2 ? floorf(tp_test_urand(&s) * 3) :
		    tp_test_urand(&s);
	if (_i == 1)
		z[tp_test_rnd(&s) % (uint64_t)(w * h)] = NAN;
	if (_i != 2)
		ck_assert_int_eq(tp_fill_pf_sea(z, w, h, (size_t)w, &FLAT,
		    -INFINITY, NULL, &e), 0);
	same_as_whole(z, w, h, 1, 12, &o);
	free(z);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("flowtile_flat");
	TCase *core = tcase_create("core");

	tcase_set_timeout(core, 60);
	tcase_add_test(core, test_flats);
	tcase_add_loop_test(core, test_lakes, 0, 3);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
