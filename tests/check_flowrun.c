/* check_flowrun.c - unit tests of tp_flowrun: the bands it names, the
 * options it refuses, a ramp routed by hand, the outlet, and tiles on
 * threads against the whole grid. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/run/tp_flowrun.h"
#include "hydro/tp_fill.h"
#include "tp_test.h"

/* Plain options: D8 in cells, no sea, nothing optional given. */
static tp_flowrun_opts
plain(void)
{
	tp_flowrun_opts o = { .sea = -INFINITY, .rivers = -1, .order = -1,
	    .river_rule = -1, .min_basin = -1, .snap = -1, .threads = 1 };

	return o;
}

/* A w x h grid of cell size 1 with its north-west corner at (0, h), the
 * band height filled from z, and the bands of o added (b->idx set). */
static int
grid(tp_grid *g, int64_t w, int64_t h, const float *z,
    const tp_flowrun_opts *o, tp_flowrun_bands *b)
{
	tp_header hd = tp_test_header(w, h, 1, 0, (double)h);
	tp_err e;
	int band = 0;

	ck_assert_int_eq(tp_flowrun_bands_of(b, o, "height"), 0);
	for (int i = 0; i < b->n; i++)
		ck_assert_int_ge(b->idx[i] = tp_header_add_band(&hd,
		    b->name[i], &e), 0);
	ck_assert_int_eq(tp_grid_alloc(g, &hd, &e), 0);
	tp_header_free(&hd);
	for (int64_t y = 0; y < h; y++)
		for (int64_t x = 0; x < w; x++)
			tp_grid_band(g, band)[y * (int64_t)tp_grid_stride(g) +
			    x] = z[y * w + x];
	return band;
}

static float
at(const tp_grid *g, int band, int64_t x, int64_t y)
{
	return tp_grid_band(g, band)[(size_t)y * tp_grid_stride(g) +
	    (size_t)x];
}

START_TEST(test_bands_of)
{
	tp_flowrun_opts o = plain();
	tp_flowrun_bands b;

	ck_assert_int_eq(tp_flowrun_bands_of(&b, &o, "height"), 0);
	/* the lake band, made when the input has a depth band */
	ck_assert_int_eq(b.n, 3);
	ck_assert_str_eq(b.name[0], "flow");
	ck_assert_str_eq(b.name[1], "dir");
	ck_assert_int_eq(b.lake, 2);
	ck_assert_str_eq(b.name[2], "lake");
	ck_assert_str_eq(b.need[2], "depth");
	ck_assert_ptr_null(b.need[0]);
	ck_assert_int_eq(b.river, -1);
	ck_assert_int_eq(b.basin, -1);
	o.no_lakes = 1;
	ck_assert_int_eq(tp_flowrun_bands_of(&b, &o, "height"), 0);
	ck_assert_int_eq(b.n, 2);
	ck_assert_int_eq(b.lake, -1);
	o.rivers = 10;
	o.method = TP_FLOWRUN_MFD;
	o.order = 0;
	o.basins = 1;
	ck_assert_int_eq(tp_flowrun_bands_of(&b, &o, "height"), 0);
	ck_assert_int_eq(b.n, 6);
	ck_assert_str_eq(b.name[b.river], "river");
	ck_assert_str_eq(b.name[b.mfd], "mfd");
	ck_assert_str_eq(b.name[b.order], "order");
	ck_assert_str_eq(b.name[b.basin], "basin");
	ck_assert_int_eq(b.river, 2);
	ck_assert_int_eq(b.basin, 5);
	ck_assert_int_eq(tp_flowrun_bands_of(&b, &o, "order"), -1);
	ck_assert_int_eq(tp_flowrun_bands_of(&b, &o, "flow"), -1);
	o.method = TP_FLOWRUN_DINF;
	ck_assert_int_eq(tp_flowrun_bands_of(&b, &o, "height"), 0);
	ck_assert_int_eq(b.n, 7);
	ck_assert_int_eq(b.mfd, -1);
	ck_assert_str_eq(b.name[b.dinf], "dinf");
	ck_assert_str_eq(b.name[b.sca], "sca");
	ck_assert_int_eq(tp_flowrun_bands_of(&b, &o, "sca"), -1);
}
END_TEST

START_TEST(test_check)
{
	tp_flowrun_opts o = plain();
	tp_err e;

	ck_assert_int_eq(tp_flowrun_check(&o, &e), 0);
	o.order = 0;
	ck_assert_int_eq(tp_flowrun_check(&o, &e), -1);
	ck_assert_str_eq(e.msg, "the stream order needs the river threshold");
	o = plain();
	o.basins = o.outlet = 1;
	ck_assert_int_eq(tp_flowrun_check(&o, &e), -1);
	ck_assert_str_eq(e.msg, "basin labels and an outlet point both make "
	    "the band 'basin'");
	o = plain();
	o.rivers = 1;
	o.river_rule = TP_FLOWRUN_TRACE;
	ck_assert_int_eq(tp_flowrun_check(&o, &e), -1);
	o.carve = 1;
	ck_assert_int_eq(tp_flowrun_check(&o, &e), 0);
	o.method = TP_FLOWRUN_MFD;
	ck_assert_int_eq(tp_flowrun_check(&o, &e), -1);
	ck_assert_str_eq(e.msg, "carving routes single-flow D8 only; the flow "
	    "method mfd or dinf needs filled heights (tfill)");
	o = plain();
	o.method = TP_FLOWRUN_DINF;
	o.rivers = 1;
	ck_assert_int_eq(tp_flowrun_check(&o, &e), 0);
	o.order = 0;
	ck_assert_int_eq(tp_flowrun_check(&o, &e), -1);
	ck_assert_str_eq(e.msg, "the stream order and the river rule trace "
	    "follow D8: D-infinity's rivers are its threshold's");
}
END_TEST

/*
 * A ramp falling east, three rows alike:
 *	4 3 2 1
 * Every cell drains east (ESRI code 1), so the flow of column x is x + 1
 * cells; the east column's water leaves the grid. Into g with the bands
 * of o, run once by o: the height band.
 */
static int
ramp(tp_grid *g, const tp_flowrun_opts *o, tp_flowrun_bands *b,
    tp_flowrun_result *r)
{
	static const float z[] = { 4, 3, 2, 1, 4, 3, 2, 1, 4, 3, 2, 1 };
	int band = grid(g, 4, 3, z, o, b);
	tp_err e;

	ck_assert_msg(tp_flowrun(g, band, o, b, r, &e) == 0, "%s", e.msg);
	return band;
}

/* The ramp's flow and directions; rivers at 3: the two east columns. */
START_TEST(test_ramp)
{
	tp_flowrun_opts o = plain();
	tp_flowrun_result r;
	tp_flowrun_bands b;
	tp_grid g;

	o.rivers = 3;
	ramp(&g, &o, &b, &r);
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 4; x++) {
			ck_assert_float_eq(at(&g, b.idx[0], x, y), x + 1);
			ck_assert_float_eq(at(&g, b.idx[b.river], x, y),
			    x >= 2);
			if (x < 3)
				ck_assert_float_eq(at(&g, b.idx[1], x, y), 1);
		}
	ck_assert_int_eq(r.st.valid, 12);
	ck_assert_int_eq(r.st.sinks, 0);
	ck_assert_int_eq(r.geo.geographic, 0);
	tp_grid_free(&g);
}
END_TEST

/* The ramp's outlet at world point (1.5, 2.5): column 1 of row 0 (flow
 * 2), whose watershed is columns 0 and 1 of that row; a snap of 1 moves it
 * to the cell of highest flow in the disc of radius 1 about it, (2, 0) of
 * flow 3, whose watershed is three cells. A point east of the grid is
 * refused. */
START_TEST(test_outlet)
{
	tp_flowrun_opts o = plain();
	tp_flowrun_result r;
	tp_flowrun_bands b;
	tp_grid g;
	tp_err e;
	int band;

	o.outlet = 1;
	o.ox = 1.5;
	o.oy = 2.5;
	band = ramp(&g, &o, &b, &r);
	ck_assert_int_eq(r.outlet_x, 1);
	ck_assert_int_eq(r.outlet_y, 0);
	ck_assert_int_eq(r.outlet_cells, 2);
	ck_assert_float_eq(r.outlet_flow, 2);
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 4; x++)
			ck_assert_float_eq(at(&g, b.idx[b.basin], x, y),
			    y == 0 && x <= 1);
	o.snap = 1;
	ck_assert_int_eq(tp_flowrun(&g, band, &o, &b, &r, &e), 0);
	ck_assert_int_eq(r.outlet_x, 2);
	ck_assert_int_eq(r.outlet_cells, 3);
	o.ox = 4.5;
	ck_assert_int_eq(tp_flowrun(&g, band, &o, &b, &r, &e), -1);
	ck_assert_str_eq(e.msg, "the outlet point 4.5,2.5 lies outside the "
	    "grid: x 0 to 4, y 0 to 3");
	tp_grid_free(&g);
}
END_TEST

/* The flow in tiles of 8 on four threads is the whole grid's, byte for
 * byte, on a filled fractal. */
START_TEST(test_tiles)
{
	enum { N = 33 };
	static float z[N * N];
	tp_flowrun_opts o = plain();
	tp_flowrun_result r;
	tp_flowrun_bands b;
	tp_fill_opts fo = { .rule = TP_FILL_NEXT };
	tp_grid g1, g2;
	uint64_t s = 7;
	tp_err e;
	int band;

	tp_test_fractal(z, N, &s, 0.6f);
	ck_assert_int_eq(tp_fill_pf_sea(z, N, N, N, &fo, -INFINITY, NULL,
	    &e), 0);
	band = grid(&g1, N, N, z, &o, &b);
	ck_assert_int_eq(tp_flowrun(&g1, band, &o, &b, &r, &e), 0);
	o.threads = 4;
	o.threads_given = 1;
	o.tile_size = 8;
	band = grid(&g2, N, N, z, &o, &b);
	ck_assert_int_eq(tp_flowrun(&g2, band, &o, &b, &r, &e), 0);
	ck_assert_int_eq(memcmp(g1.data, g2.data, (size_t)N * N * 3 *
	    sizeof *g1.data), 0);
	tp_grid_free(&g1);
	tp_grid_free(&g2);
}
END_TEST

static Suite *
flowrun_suite(void)
{
	Suite *s = suite_create("flowrun");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_bands_of);
	tcase_add_test(core, test_check);
	tcase_add_test(core, test_ramp);
	tcase_add_test(core, test_outlet);
	tcase_add_test(core, test_tiles);
	suite_add_tcase(s, core);
	return s;
}

int
main(void)
{
	return tp_test_run(flowrun_suite());
}
