/* check_flow.c - unit tests of tp_flow: D8, flats, accumulation, MFD. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_fill.h"
#include "hydro/tp_flat.h"
#include "hydro/tp_flow.h"
#include "tp_test.h"

static const tp_geo_grid UNIT = { 1, 0, 0 };

/* Directions and D8 flow of a compact w x h plane. */
static void
flow_of(const float *z, int w, int h, uint8_t *dir, float *acc,
    tp_flow_stats *st)
{
	tp_err e;

	ck_assert_int_eq(tp_flow_d8(z, w, h, (size_t)w, &UNIT, 1, dir, st, &e),
	    0);
	ck_assert_int_eq(tp_flow_accumulate(dir, w, h, &UNIT, 0, 1, acc,
	    (size_t)w, &e), 0);
}

/* Sum of acc over the cells whose water leaves (outlets and sinks). */
static double
outflow(const uint8_t *dir, const float *acc, int n)
{
	double s = 0;
	int i;

	for (i = 0; i < n; i++)
		if (dir[i] != TP_D8_NODATA && !(dir[i] >= 1 && dir[i] <= 8))
			s += acc[i];
	return s;
}

START_TEST(test_plane_east)
{
	enum { W = 9, H = 5 };
	float z[W * H], acc[W * H], mfd[W * H];
	uint8_t dir[W * H];
	tp_flow_stats st;
	tp_err e;
	int x, y;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			z[y * W + x] = (float)(100 - 3 * x);
	flow_of(z, W, H, dir, acc, &st);
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++) {
			ck_assert_float_eq(acc[y * W + x], (float)(x + 1));
			ck_assert_int_eq(dir[y * W + x],
			    x < W - 1 ? 1 : (TP_D8_OUT | 1));
		}
	ck_assert_int_eq(st.outlets, H);
	ck_assert_int_eq(st.sinks, 0);
	ck_assert_double_eq(outflow(dir, acc, W * H), W * H);
	/* MFD keeps the water too; the first column only gives */
	ck_assert_int_eq(tp_flow_mfd(z, W, dir, W, H, &UNIT, 1.1, 0, 1, mfd, W,
	    &e), 0);
	ck_assert_double_eq_tol(outflow(dir, mfd, W * H), W * H, 1e-4);
	for (y = 0; y < H; y++)
		ck_assert_float_eq(mfd[y * W], 1);
}
END_TEST

/* A flat of 5 inside a rim of 9, draining through the 1 on the west
 * border: the flat cells get directions, all water reaches the 1. */
static const float flat5[25] = {
	9, 9, 9, 9, 9,
	9, 5, 5, 5, 9,
	1, 5, 5, 5, 9,
	9, 5, 5, 5, 9,
	9, 9, 9, 9, 9 };

START_TEST(test_flat)
{
	float acc[25];
	uint8_t dir[25];
	tp_flow_stats st;
	int i;

	flow_of(flat5, 5, 5, dir, acc, &st);
	ck_assert_int_eq(st.sinks, 0);
	ck_assert_int_eq(st.flats, 6);	/* columns 2 and 3 of the flat */
	ck_assert_int_eq(st.outlets, 1);
	ck_assert_int_eq(dir[10], TP_D8_OUT | 4);	/* SW: first off the grid */
	ck_assert_float_eq(acc[10], 25);
	ck_assert_int_eq(dir[11], 5);		/* (1,2) west to the 1 */
	ck_assert_int_eq(dir[6], 4);		/* (1,1) south-west */
	/* Converging, by hand: column 1 drains (the low edge). a, the steps
	 * to it: 1 in column 2, 2 in column 3. b, from the high edge: 1 on
	 * every flat cell touching a 9, 2 on (2,2), the only one that does
	 * not. Column 2 drains into the low edge, its first such neighbour
	 * in the order W, NW, N, NE, E, SE, S, SW: W. Column 3 takes the
	 * least 2a - b among its neighbours of the flat: (2,2)'s 0, so the
	 * paths meet in the middle row: (3,1) SW, (3,2) W, (3,3) NW. */
	for (i = 7; i <= 17; i += 5)
		ck_assert_int_eq(dir[i], TP_D8_W);
	ck_assert_int_eq(dir[8], TP_D8_SW);
	ck_assert_int_eq(dir[13], TP_D8_W);
	ck_assert_int_eq(dir[18], TP_D8_NW);
}
END_TEST

/* The nearest rule on the same flat. */
START_TEST(test_flat_nearest)
{
	uint8_t dir[25];
	tp_flow_stats st;
	tp_err e;

	ck_assert_int_eq(tp_flow_d8_flats(flat5, 5, 5, 5, &UNIT, -INFINITY,
	    TP_FLAT_NEAREST, 1, dir, &st, &e), 0);
	ck_assert_int_eq(st.flats, 6);
	/* Distances by hand: (2,1), (2,2), (2,3) are 1, each next to a 5 of
	 * column 1 that drains, taking the first such neighbour in code
	 * order E, SE, S, SW, W, NW, N, NE: SW, SW, W. Column 3 is at 2 and
	 * takes its first neighbour at 1: (3,1) sees 9, 9, (3,2) at 2, then
	 * (2,2) to the SW: 4; (3,2) sees 9, 9, (3,3) at 2, then (2,3) SW: 4;
	 * (3,3) sees 9, 9, 9, 9, then (2,3) to the W: 5. A queue would have
	 * given (3,1) W and (3,2) NW, to (2,1), which discovers them first. */
	ck_assert_int_eq(dir[7], 4);
	ck_assert_int_eq(dir[12], 4);
	ck_assert_int_eq(dir[17], 5);
	ck_assert_int_eq(dir[8], 4);
	ck_assert_int_eq(dir[13], 4);
	ck_assert_int_eq(dir[18], 5);
}
END_TEST

START_TEST(test_sink_and_nan)
{
	float pit[9] = { 5, 5, 5, 5, 0, 5, 5, 5, 5 };
	float hole[9] = { 5, 5, 5, 5, NAN, 5, 5, 5, 5 };
	float acc[9];
	uint8_t dir[9];
	tp_flow_stats st;

	flow_of(pit, 3, 3, dir, acc, &st);
	ck_assert_int_eq(st.sinks, 1);
	ck_assert_int_eq(dir[4], TP_D8_SINK);
	ck_assert_float_eq(acc[4], 9);
	ck_assert_int_eq(dir[0], 2);		/* the corner goes SE */
	flow_of(hole, 3, 3, dir, acc, &st);
	ck_assert_int_eq(st.valid, 8);
	ck_assert_int_eq(st.outlets, 8);
	ck_assert_int_eq(dir[4], TP_D8_NODATA);
	ck_assert(isnan(acc[4]));
	ck_assert_int_eq(dir[0], TP_D8_OUT | 2);	/* SE is the NaN */
	ck_assert_int_eq(dir[1], TP_D8_OUT | 3);	/* S is the NaN */
	ck_assert_double_eq(outflow(dir, acc, 9), 8);
}
END_TEST

/* Random midpoint-displacement grids, filled: no sinks, and the water
 * leaving equals the valid cells, D8 and MFD, on 1 and 2 threads. */
START_TEST(test_random_conservation)
{
	enum { S = 65 };
	static float z[S * S], acc[S * S], mfd[S * S];
	static uint8_t d1[S * S], d2[S * S];
	tp_fill_opts fo = { TP_FILL_NEXT, 0 };
	tp_flow_stats st;
	uint64_t seed = 7;
	tp_err e;
	int t, i, valid;

	for (t = 0; t < 20; t++) {
		tp_test_fractal(z, S, &seed, 0.6f);
		if (t % 2)
			for (i = 0; i < 40; i++)
				z[tp_test_rnd(&seed) % (S * S)] = NAN;
		if (t % 4 == 3) {		/* flat lakes to resolve */
			fo.rule = TP_FILL_FLAT;
			ck_assert_int_eq(tp_fill_pf(z, S, S, S, &fo, NULL, &e), 0);
			fo.rule = TP_FILL_NEXT;
		} else
			ck_assert_int_eq(tp_fill_pf(z, S, S, S, &fo, NULL, &e), 0);
		for (valid = 0, i = 0; i < S * S; i++)
			valid += !isnan(z[i]);
		ck_assert_int_eq(tp_flow_d8(z, S, S, S, &UNIT, 1, d1, &st, &e), 0);
		ck_assert_int_eq(st.sinks, 0);
		ck_assert_int_eq(st.valid, valid);
		ck_assert_int_eq(tp_flow_d8(z, S, S, S, &UNIT, 2, d2, NULL, &e), 0);
		ck_assert_mem_eq(d1, d2, sizeof d1);
		ck_assert_int_eq(tp_flow_accumulate(d1, S, S, &UNIT, 0, 2, acc, S,
		    &e), 0);
		ck_assert_double_eq(outflow(d1, acc, S * S), valid);
		ck_assert_int_eq(tp_flow_mfd(z, S, d1, S, S, &UNIT, 1.1, 0, 2, mfd,
		    S, &e), 0);
		ck_assert_double_eq_tol(outflow(d1, mfd, S * S), valid,
		    valid * 1e-5);
		for (i = 0; i < S * S; i++)
			if (!isnan(z[i]))
				ck_assert(acc[i] >= 1 && mfd[i] >= 0.999f);
	}
}
END_TEST

/* Past 2^24 a float32 sum stops counting: 2^24 + 1 rounds back to 2^24.
 * BIG and 3 x VW cells are more than that, and a float32 holds both counts
 * exactly. */
enum { BIG = (1 << 24) + 6, VW = ((1 << 24) + 2) / 3 };

/* The k-th float above 1: strictly increasing in k, so a ramp of BIG
 * cells has no two equal heights (whole numbers past 2^24 would). */
static float
nth_float(uint32_t k)
{
	uint32_t u = 0x3f800000u + k;
	float f;

	memcpy(&f, &u, sizeof f);
	return f;
}

/* A one-row ramp of BIG cells falling east: cell x drains x + 1 cells,
 * each rounded once to float32; the outlet drains every cell. MFD (every
 * share 1 on a ramp) and areas (every cell weighs 900) count alike. */
START_TEST(test_count_past_2_24)
{
	float *z = malloc(BIG * sizeof *z), *acc = malloc(BIG * sizeof *acc);
	uint8_t *dir = malloc(BIG);
	tp_geo_grid g30 = { 30, 0, 0 };
	tp_err e;
	int x;

	ck_assert(z != NULL && acc != NULL && dir != NULL);
	for (x = 0; x < BIG; x++)
		z[x] = nth_float((uint32_t)(BIG - x));
	ck_assert_int_eq(tp_flow_d8(z, BIG, 1, BIG, &UNIT, 1, dir, NULL, &e), 0);
	ck_assert_int_eq(dir[BIG - 1], TP_D8_OUT | 1);
	ck_assert_int_eq(tp_flow_accumulate(dir, BIG, 1, &UNIT, 0, 2, acc, BIG,
	    &e), 0);
	for (x = 0; x < BIG; x++)
		if (acc[x] != (float)(x + 1))
			ck_abort_msg("D8: cell %d drains %.9g, not %d", x,
			    acc[x], x + 1);
	ck_assert_float_eq(acc[BIG - 1], BIG);
	ck_assert_int_eq(tp_flow_accumulate(dir, BIG, 1, &g30, 1, 2, acc, BIG,
	    &e), 0);
	ck_assert_float_eq(acc[BIG - 1], (float)(BIG * 900.0));
	ck_assert_int_eq(tp_flow_mfd(z, BIG, dir, BIG, 1, &UNIT, 1.1, 0, 2, acc,
	    BIG, &e), 0);
	for (x = 0; x < BIG; x++)
		if (acc[x] != (float)(x + 1))
			ck_abort_msg("MFD: cell %d drains %.9g, not %d", x,
			    acc[x], x + 1);
	free(z);
	free(acc);
	free(dir);
}
END_TEST

/* A valley three rows high and VW cells long: the outer rows
 * drain into the middle one, which falls east to the outlet at its end,
 * so every middle cell joins three streams (partial sums wait there for
 * their last donor). Middle cell x drains 3 (x + 1) cells; MFD spreads the
 * outer rows' water over the middle row, but all of it reaches the outlet.
 * On a geographic grid near the pole the rows weigh differently: the
 * outlet gets the sum of every cell's area. */
START_TEST(test_valley_past_2_24)
{
	float *z = malloc(3 * VW * sizeof *z), *acc = malloc(3 * VW * sizeof *acc);
	uint8_t *dir = malloc(3 * VW);
	tp_geo_grid geo = { 1.0 / 3600, 80, 1 };
	double dx, dy, area = 0;
	tp_err e;
	int x, y;

	ck_assert(z != NULL && acc != NULL && dir != NULL);
	for (y = 0; y < 3; y++)
		for (x = 0; x < VW; x++)
			z[y * VW + x] = nth_float((uint32_t)(VW - x +
			    (y != 1) * (VW + 1)));
	ck_assert_int_eq(tp_flow_d8(z, VW, 3, VW, &UNIT, 2, dir, NULL, &e), 0);
	ck_assert_int_eq(dir[VW + 5], 1);
	ck_assert_int_eq(dir[5], 3);
	ck_assert_int_eq(dir[2 * VW + 5], 7);
	ck_assert_int_eq(dir[2 * VW - 1], TP_D8_OUT | 1);
	ck_assert_int_eq(tp_flow_accumulate(dir, VW, 3, &UNIT, 0, 2, acc, VW,
	    &e), 0);
	for (x = 0; x < VW; x++)
		if (acc[VW + x] != (float)(3 * (x + 1)))
			ck_abort_msg("D8: middle cell %d drains %.9g, not %d",
			    x, acc[VW + x], 3 * (x + 1));
	ck_assert_float_eq(acc[2 * VW - 1], 3 * VW);
	ck_assert_int_eq(tp_flow_mfd(z, VW, dir, VW, 3, &UNIT, 1.1, 0, 2, acc,
	    VW, &e), 0);
	ck_assert_float_eq_tol(acc[2 * VW - 1], 3 * VW, 2);
	ck_assert_int_eq(tp_flow_accumulate(dir, VW, 3, &geo, 1, 2, acc, VW,
	    &e), 0);
	for (y = 0; y < 3; y++) {
		tp_geo_spacing(&geo, y, &dx, &dy);
		area += VW * dx * dy;
	}
	ck_assert_float_eq(acc[2 * VW - 1], (float)area);
	free(z);
	free(acc);
	free(dir);
}
END_TEST

START_TEST(test_codes)
{
	uint8_t dir[12] = { 1, 2, 3, 4, 5, 6, 7, 8, TP_D8_OUT | 1,
	    TP_D8_OUT | 8, TP_D8_SINK, TP_D8_NODATA };
	const float esri[11] = { 1, 2, 4, 8, 16, 32, 64, 128, 1, 128, 0 };
	const float grass[11] = { 8, 7, 6, 5, 4, 3, 2, 1, -8, -1, 0 };
	float out[12];
	int i;

	tp_flow_codes(dir, 12, 1, 0, 1, out, 12);
	for (i = 0; i < 11; i++)
		ck_assert_float_eq(out[i], esri[i]);
	ck_assert(isnan(out[11]));
	tp_flow_codes(dir, 12, 1, 1, 2, out, 12);
	for (i = 0; i < 11; i++)
		ck_assert_float_eq(out[i], grass[i]);
	ck_assert(isnan(out[11]));
}
END_TEST

START_TEST(test_rivers_and_area)
{
	float z[4] = { 4, 3, 2, 1 }, acc[4], river[4];
	uint8_t dir[4];
	tp_geo_grid g = { 30, 0, 0 };
	tp_err e;

	ck_assert_int_eq(tp_flow_d8(z, 4, 1, 4, &g, 1, dir, NULL, &e), 0);
	ck_assert_int_eq(tp_flow_accumulate(dir, 4, 1, &g, 1, 1, acc, 4, &e), 0);
	ck_assert_float_eq(acc[3], 4 * 900);
	tp_flow_rivers(acc, NULL, 4, 1, 4, 2700, river);
	ck_assert_float_eq(river[1], 0);
	ck_assert_float_eq(river[2], 1);
	ck_assert_float_eq(river[3], 1);
}
END_TEST

/* On a geographic grid the area of a cell is its spacing in metres:
 * 3 arc-seconds at the equator are 92.766 m x 92.145 m (WGS84 radii of
 * curvature, check_geo), 8548.0 m^2. */
START_TEST(test_geographic_area)
{
	float z[1] = { 1 }, acc[1];
	uint8_t dir[1];
	tp_geo_grid g = { 1.0 / 1200, 1.0 / 2400, 1 };
	tp_err e;

	ck_assert_int_eq(tp_flow_d8(z, 1, 1, 1, &g, 1, dir, NULL, &e), 0);
	ck_assert_int_eq(tp_flow_accumulate(dir, 1, 1, &g, 1, 1, acc, 1, &e), 0);
	ck_assert_float_eq_tol(acc[0], 92.766 * 92.145, 0.1);
}
END_TEST

/* At 60 degrees a step east is half as long as a step north: a drop of 1
 * east beats a drop of 1.5 north, which would win on a square grid. */
START_TEST(test_geographic_direction)
{
	float z[9] = { 8.5f, 8.5f, 8.5f, 10, 10, 9, 10, 10, 10 };
	uint8_t dir[9];
	tp_geo_grid g = { 1.0 / 1200, 60, 1 };
	tp_err e;

	z[1] = 8.5f;		/* north of the centre: drop 1.5 */
	ck_assert_int_eq(tp_flow_d8(z, 3, 3, 3, &g, 1, dir, NULL, &e), 0);
	ck_assert_int_eq(dir[4], 1);		/* east: 1 / 46 m */
	g.geographic = 0;
	ck_assert_int_eq(tp_flow_d8(z, 3, 3, 3, &g, 1, dir, NULL, &e), 0);
	ck_assert_int_eq(dir[4], 7);		/* north on square cells */
}
END_TEST

START_TEST(test_limits)
{
	float one[1] = { 3 }, nan4[4] = { NAN, NAN, NAN, NAN }, acc[4];
	uint8_t dir[4];
	tp_flow_stats st;

	flow_of(one, 1, 1, dir, acc, &st);
	ck_assert_int_eq(dir[0], TP_D8_OUT | 1);
	ck_assert_float_eq(acc[0], 1);
	flow_of(nan4, 2, 2, dir, acc, &st);
	ck_assert_int_eq(st.valid, 0);
	ck_assert(isnan(acc[0]) && isnan(acc[3]));
}
END_TEST

START_TEST(test_errors)
{
	float z[4] = { 1, 2, 3, 4 };
	uint8_t dir[4];
	tp_geo_grid bad = { 0, 0, 0 };
	tp_err e;

	ck_assert_int_eq(tp_flow_d8(z, 2, 2, 1, &UNIT, 1, dir, NULL, &e), -1);
	ck_assert_int_eq(tp_flow_d8(z, 2, 2, 2, &bad, 1, dir, NULL, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "cell size"));
}
END_TEST

/*
 * The sea, by hand: 7 x 5, sea level 0.5. Columns 0..2 are land falling
 * 3 a cell to the east (9, 6, 3); columns 3..6 are sea floor (0.2 to 0.4)
 * with a deeper pit, 0, at (5, 2). Every land cell drains east (its
 * steepest drop: 3, or 2.6 to 2.7 into the sea), so column 2 drains into
 * column 3. Sea cells have no direction (TP_D8_SEA, code 0, never -0),
 * keep their own unit plus their inflow and pass nothing on: the flow is
 * 1 2 3 on land, 4 on column 3 (itself and column 2's three) and 1 on the
 * rest of the sea, the pit included; without the sea (tp_flow_d8) the sea
 * floor drains into the pit, a sink. Rivers (flow >= 3) stop at the
 * coast. Same bytes on 1 and 2 threads; MFD keeps the water the same way.
 */
#define SW 7
#define SH 5
static const float SEA_Z[SW * SH] = {
	9, 6, 3, 0.4f, 0.3f, 0.3f, 0.4f,
	9, 6, 3, 0.3f, 0.2f, 0.2f, 0.3f,
	9, 6, 3, 0.3f, 0.2f, 0.0f, 0.3f,
	9, 6, 3, 0.3f, 0.2f, 0.2f, 0.3f,
	9, 6, 3, 0.4f, 0.3f, 0.3f, 0.4f,
};

START_TEST(test_sea)
{
	static const float want_flow[SW] = { 1, 2, 3, 4, 1, 1, 1 };
	static const float want_river[SW] = { 0, 0, 1, 0, 0, 0, 0 };
	float acc[SW * SH], acc2[SW * SH], code[SW * SH], river[SW * SH];
	float mfd[SW * SH];
	uint8_t dir[SW * SH], dir2[SW * SH];
	tp_flow_stats st;
	tp_err e;
	int x, y, i;

	ck_assert_int_eq(tp_flow_d8_sea(SEA_Z, SW, SH, SW, &UNIT, 0.5, 1, dir,
	    &st, &e), 0);
	ck_assert_int_eq(tp_flow_d8_sea(SEA_Z, SW, SH, SW, &UNIT, 0.5, 2, dir2,
	    NULL, &e), 0);
	ck_assert_mem_eq(dir, dir2, sizeof dir);
	ck_assert_int_eq(tp_flow_accumulate(dir, SW, SH, &UNIT, 0, 1, acc, SW,
	    &e), 0);
	ck_assert_int_eq(tp_flow_accumulate(dir, SW, SH, &UNIT, 0, 2, acc2, SW,
	    &e), 0);
	ck_assert_mem_eq(acc, acc2, sizeof acc);
	ck_assert_int_eq(st.sea, 4 * SH);
	ck_assert_int_eq(st.outlets, 4 * SH);
	ck_assert_int_eq(st.sinks, 0);
	ck_assert_int_eq(st.flats, 0);
	tp_flow_codes(dir, SW, SH, 1, 1, code, SW);
	tp_flow_rivers(acc, dir, SW, SH, SW, 3, river);
	for (y = 0; y < SH; y++)
		for (x = 0; x < SW; x++) {
			i = y * SW + x;
			ck_assert_int_eq(dir[i], x < 3 ? TP_D8_E : TP_D8_SEA);
			ck_assert_float_eq(acc[i], want_flow[x]);
			ck_assert_float_eq(code[i], x < 3 ? 8 : 0);
			ck_assert(!signbit(code[i]));
			ck_assert_float_eq(river[i], want_river[x]);
		}
	tp_flow_codes(dir, SW, SH, 0, 2, code, SW);
	ck_assert_float_eq(code[2 * SW + 5], 0);
	ck_assert_float_eq(code[2 * SW + 2], 1);
	/* MFD: land passes to its lower neighbours, the sea keeps it all */
	ck_assert_int_eq(tp_flow_mfd(SEA_Z, SW, dir, SW, SH, &UNIT,
	    TP_FLOW_MFD_EXPONENT, 0, 1, mfd, SW, &e), 0);
	for (y = 0; y < SH; y++)
		for (x = 4; x < SW; x++)
			ck_assert_float_eq(mfd[y * SW + x], 1);
	/* without the sea the floor drains into its pit */
	ck_assert_int_eq(tp_flow_d8(SEA_Z, SW, SH, SW, &UNIT, 1, dir, &st, &e),
	    0);
	ck_assert_int_eq(st.sinks, 1);
	ck_assert_int_eq(dir[2 * SW + 5], TP_D8_SINK);
	ck_assert_int_eq(tp_flow_d8_sea(SEA_Z, SW, SH, SW, &UNIT, -INFINITY, 1,
	    dir2, NULL, &e), 0);
	ck_assert_mem_eq(dir, dir2, sizeof dir);
}
END_TEST

static Suite *
flow_suite(void)
{
	Suite *s = suite_create("flow");
	TCase *core = tcase_create("core"), *lim = tcase_create("limits"),
	    *err = tcase_create("errors");

	tcase_add_test(core, test_plane_east);
	tcase_add_test(core, test_flat);
	tcase_add_test(core, test_flat_nearest);
	tcase_add_test(core, test_sink_and_nan);
	tcase_add_test(core, test_random_conservation);
	tcase_add_test(core, test_codes);
	tcase_add_test(core, test_rivers_and_area);
	tcase_add_test(core, test_geographic_area);
	tcase_add_test(core, test_geographic_direction);
	tcase_add_test(core, test_sea);
	tcase_set_timeout(core, 60);
	tcase_add_test(lim, test_count_past_2_24);
	tcase_add_test(lim, test_valley_past_2_24);
	tcase_set_timeout(lim, 120);
	tcase_add_test(lim, test_limits);
	tcase_add_test(err, test_errors);
	suite_add_tcase(s, core);
	suite_add_tcase(s, lim);
	suite_add_tcase(s, err);
	return s;
}

int
main(void)
{
	return tp_test_run(flow_suite());
}
