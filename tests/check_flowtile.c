/* check_flowtile.c - unit tests of tp_flowtile: tiled flow accumulation
 * equals the whole-grid tp_flow_d8_sea and tp_flow_accumulate byte for
 * byte, on filled grids cut into tiles of every size. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tiled/tp_flowtile.h"
#include "tp_test.h"
#include "tp_test_flowtile.h"

START_TEST(test_ring)
{
	int64_t w, h, i, x, y;

	for (w = 1; w <= 5; w++)
		for (h = 1; h <= 5; h++)
			for (i = 0; i < tp_flowtile_ring_len(w, h); i++) {
				tp_flowtile_ring_cell(w, h, i, &x, &y);
				ck_assert_int_eq(tp_flowtile_ring_index(w, h, x,
				    y), i);
			}
	ck_assert_int_eq(tp_flowtile_ring_len(4, 3), 10);
	ck_assert_int_eq(tp_flowtile_ring_index(4, 4, 1, 1), -1);
}
END_TEST

/* Random filled noise (paths wind through every tile), 1x1 tiles up. */
START_TEST(test_noise)
{
	tp_flowtile_opts o = { .geo = { .cellsize = 1, .north = 11 },
	    .sea_level = -INFINITY };
	float *z = filled_noise(13, 11, 77 + (uint64_t)_i, _i == 1 ? 9 : 0);

	same_as_whole(z, 13, 11, 1, 14, &o);
	o.area = 1;
	o.geo.cellsize = 30;
	same_as_whole(z, 13, 11, 1, 5, &o);
	free(z);
}
END_TEST

/* Geographic distances (per row) and a sea. */
START_TEST(test_geographic_sea)
{
	tp_flowtile_opts o = { .geo = { .cellsize = 0.01, .north = 61.3,
	    .geographic = 1 }, .sea_level = -0.3 };
	float *z = filled_noise(17, 9, 5, 3);

	same_as_whole(z, 17, 9, 1, 9, &o);
	free(z);
}
END_TEST

START_TEST(test_parse)
{
	const char *ok = "TERRAPIPE-FLOWEDGE 3 0 0 1 1 none,projected,nearest "
	    "0\n";
	unsigned char buf[96];
	size_t hl = strlen(ok);
	tp_flowtile_edge ed;
	tp_err e;

	memcpy(buf, ok, hl);
	memset(buf + hl, 0, TP_FLEDGE_REC);
	buf[hl] = 1;			/* count 1 */
	memset(buf + hl + 8, 0xff, 4);	/* exit -1 */
	ck_assert_int_eq(tp_flowtile_edge_parse(&ed, buf, hl + TP_FLEDGE_REC,
	    &e), 0);
	ck_assert_int_eq(ed.r[0].exit, -1);
	tp_flowtile_edge_free(&ed);
	buf[hl] = 2;			/* more than the tile's cells */
	ck_assert_int_eq(tp_flowtile_edge_parse(&ed, buf, hl + TP_FLEDGE_REC,
	    &e), -1);
	ck_assert_str_eq(e.msg, "flow edge file: bad ring cell 0");
	ck_assert_int_eq(tp_flowtile_edge_parse(&ed, buf, hl + 3, &e), -1);
	ck_assert_str_eq(e.msg, "flow edge file: 3 bytes of ring cells and "
	    "flats, 13 expected");
	buf[hl] = 1;
	memset(buf + hl + 8, 0, 4);	/* exit 0, but it drains nowhere */
	ck_assert_int_eq(tp_flowtile_edge_parse(&ed, buf, hl + TP_FLEDGE_REC,
	    &e), -1);
	ck_assert_str_eq(e.msg, "flow edge file: ring cell 0 leaves by cell 0, "
	    "which does not drain out");
	ck_assert_int_eq(tp_flowtile_edge_parse(&ed,
	    (const unsigned char *)"x\n", 2, &e), -1);
	ck_assert_str_eq(e.msg, "not a flow edge file");
	ck_assert_int_eq(tp_flowtile_edge_parse(&ed, (const unsigned char *)
	    "TERRAPIPE-FLOWEDGE 2 0 0 1 1 none,projected 0\n", 46, &e), -1);
	ck_assert_str_eq(e.msg, "a flow edge file of version 2, not 3: "
	    "prepare the tile again");
	/* a key without the flats' rule */
	memcpy(buf, "TERRAPIPE-FLOWEDGE 3 0 0 1 1 none,projected 0\n", 46);
	ck_assert_int_eq(tp_flowtile_edge_parse(&ed, buf, 46 + TP_FLEDGE_REC,
	    &e), -1);
	ck_assert_str_eq(e.msg, "not a flow edge file");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("flowtile");
	TCase *core = tcase_create("core");

	tcase_set_timeout(core, 60);
	tcase_add_test(core, test_ring);
	tcase_add_loop_test(core, test_noise, 0, 3);
	tcase_add_test(core, test_geographic_sea);
	tcase_add_test(core, test_parse);
	suite_add_tcase(s, core);
	return tp_test_run(s);
}
