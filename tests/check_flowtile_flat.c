/* check_flowtile_flat.c - unit tests of tp_flowtile_flat: flats inside a
 * tile and across tile edges, flat lakes and plateaus, resolved in tiles
 * of every size to the whole grid's directions and flow to the byte, by
 * both rules (tp_flat.h); and the rule's part of the phases' key. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tiled/tp_flowtile.h"
#include "tp_test.h"
#include "tp_test_flowtile.h"

/* same_as_whole by each rule. */
static void
both_rules(const float *z, int w, int h, int lo, int hi, tp_flowtile_opts o)
{
	o.flats = TP_FLAT_CONVERGE;
	same_as_whole(z, w, h, lo, hi, &o);
	o.flats = TP_FLAT_NEAREST;
	same_as_whole(z, w, h, lo, hi, &o);
}

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
	both_rules(z, 12, 12, 1, 13, o);
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
	both_rules(z, w, h, 1, 12, o);
	free(z);
}
END_TEST

/* Random grids of many flats: integer heights in 2 to 4 levels, some in
 * blocks of 3 to 7 cells (plateaus that span several tiles), NaN holes,
 * every other one a sea level; tiles of 1 up (those at the east and
 * south edges of sizes 2 and 3 are 2x3, 3x2 and the like). */
START_TEST(test_random)
{
	uint64_t s = 4243 + 77 * (uint64_t)_i;
	int w = 11 + (int)(tp_test_rnd(&s) % 14), h = 9 +
	    (int)(tp_test_rnd(&s) % 12), levels = 2 + (int)(tp_test_rnd(&s) %
	    3), block = _i % 3 ? 3 + (int)(tp_test_rnd(&s) % 5) : 1;
	tp_flowtile_opts o = { .geo = { .cellsize = 1, .north = h },
	    .sea_level = _i % 2 ? 0.5 : -INFINITY };
	float *z = malloc((size_t)w * (size_t)h * sizeof *z), *lv;
	int bw = (w + block - 1) / block, i, x, y;

	ck_assert_ptr_nonnull(z);
	ck_assert_ptr_nonnull(lv = malloc((size_t)bw * (size_t)((h + block -
	    1) / block) * sizeof *lv));
	for (i = 0; i < bw * ((h + block - 1) / block); i++)
		lv[i] = (float)(tp_test_rnd(&s) % (uint64_t)levels);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++)	/* a block's level, now and then
					 * one step off it */
			z[y * w + x] = lv[y / block * bw + x / block] +
			    (tp_test_rnd(&s) % 9 == 0 ? 1.0f : 0.0f);
	for (i = 0; i < 1 + _i % 4; i++)
		z[tp_test_rnd(&s) % (uint64_t)(w * h)] = NAN;
	both_rules(z, w, h, 1, w > h ? w + 1 : h + 1, o);
	free(lv);
	free(z);
}
END_TEST

/* The rule is part of the key: a tile finished by one rule refuses a
 * solve made by the other; a rule tiles do not reproduce is refused. */
START_TEST(test_rule_key)
{
	tp_flowtile_opts o = { .geo = { .cellsize = 1, .north = 3 },
	    .sea_level = -INFINITY, .flats = TP_FLAT_NEAREST };
	char near[TP_FLKEY_MAX], conv[TP_FLKEY_MAX];
	const char *head = "TERRAPIPE-FLOWSOLVE 3 1 1 none,projected,nearest\n";
	tp_header hd = tp_test_header(3, 3, 1, 0, 3);
	uint64_t in[8];
	uint32_t rd[16];
	uint8_t rdir[8];
	tp_flowtile_tile t;
	tp_tileset ts;
	tp_err e;
	FILE *f;

	tp_flowtile_opts_key(&o, near);
	o.flats = TP_FLAT_CONVERGE;
	tp_flowtile_opts_key(&o, conv);
	ck_assert_str_eq(near, "none,projected,nearest");
	ck_assert_str_eq(conv, "none,projected,converge");
	ck_assert_int_eq(tp_flowtile_key_rule(near), TP_FLAT_NEAREST);
	ck_assert_int_eq(tp_flowtile_key_rule(conv), TP_FLAT_CONVERGE);
	ck_assert_int_eq(tp_flowtile_key_rule("none,projected"), -1);
	ck_assert_int_eq(tp_tileset_init(&ts, &hd, 3, &e), 0);
	ck_assert_ptr_nonnull(f = fmemopen((void *)head, strlen(head), "rb"));
	ck_assert_int_eq(tp_flowtile_solve_read(f, &ts, 0, 0, conv, in, rd,
	    rd + 8, rdir, &e), -1);
	fclose(f);
	ck_assert_str_eq(e.msg, "this tile's flat rule converge differs from "
	    "the one the flow was solved with (nearest): give every phase the "
	    "same --flats");
	/* a rule the tiles do not reproduce is refused */
	o.flats = 7;
	tp_flowtile_opts_key(&o, near);
	ck_assert_int_eq(tp_flowtile_key_rule(near), -1);
	ck_assert_int_eq(tp_flowtile_tile_init(&t, &ts, 0, 0, &e), 0);
	ck_assert_int_eq(tp_flowtile_tile_dirs(&t, &o, &e), -1);
	ck_assert_str_eq(e.msg, "flats by rule 7 are not tiled (converge and "
	    "nearest are)");
	tp_flowtile_tile_free(&t);
	tp_tileset_free(&ts);
	tp_header_free(&hd);
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
	tcase_add_loop_test(core, test_random, 0, 12);
	tcase_add_test(core, test_rule_key);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
