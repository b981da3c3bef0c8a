/* check_rivers.c - unit tests of tp_rivers: rivers as GRASS
 * r.stream.extract draws them, on grids worked by hand (tests/tflow.sh
 * runs r.stream.extract on such grids and finds the same river cells and
 * directions). The first rule's directions are in check_carve.c. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_carve.h"
#include "hydro/tp_flow.h"
#include "hydro/tp_rivers.h"
#include "tp_test.h"

static const tp_geo_grid UNIT = { 1, 0, 0 };

/* Route z (w x h) by the first rule, sum the flow, trace at threshold t. */
static void
trace(const float *z, int w, int h, double t, uint8_t *dir, float *river)
{
	float *acc = malloc((size_t)(w * h) * sizeof *acc);
	uint32_t *order = malloc((size_t)(w * h) * sizeof *order);
	int *rank = malloc((size_t)(w * h) * sizeof *rank);
	tp_flow_stats st;
	tp_err e;
	int i;

	ck_assert(acc != NULL && order != NULL && rank != NULL);
	ck_assert_int_eq(tp_carve_rule(z, w, h, w, &UNIT, -INFINITY,
	    TP_CARVE_FIRST, dir, order, &st, &e), 0);
	ck_assert_int_eq(st.valid, w * h);
	for (i = 0; i < w * h; i++)
		rank[order[i]] = i;
	for (i = 0; i < w * h; i++)	/* each drains to a cell taken before */
		if (dir[i] >= 1 && dir[i] <= 8)
			ck_assert_int_lt(rank[i + tp_d8_dy[dir[i]] * w +
			    tp_d8_dx[dir[i]]], rank[i]);
	ck_assert_int_eq(tp_flow_accumulate(dir, w, h, &UNIT, 0, 1, acc, w,
	    &e), 0);
	ck_assert_int_eq(tp_rivers_trace(z, w, acc, w, order, (size_t)st.valid,
	    w, h, t, dir, river, w, &e), 0);
	free(acc);
	free(order);
	free(rank);
}

/* A tributary from the north-east meets the river at 5: (3, 1) 80 has
 * flow 4, begins (no river beside it, none of its neighbours above it has
 * flow 4) and runs W to (2, 1) 30, flow 5, which the flood reached from W
 * (1, 1) 10. Its lower neighbours: W 10 and SW 5 of flow 6 each, S 10 of
 * flow 4: the last of the largest in the order S, N, W, E, NE, SW, SE, NW
 * is SW, so the river leaves its direction and steps SW to (1, 2), then W
 * to the outlet (0, 2). The threshold rule has the six cells of flow >= 4
 * instead, (1, 1) and (2, 2) among them. */
START_TEST(test_trace_largest_flow)
{
	enum { W = 6, H = 5 };
	static const float z[W * H] = {
		99, 99, 99, 99, 99, 99,
		99, 10, 30, 80, 85, 99,
		0, 5, 10, 90, 90, 99,
		99, 99, 95, 95, 95, 99,
		99, 99, 99, 99, 99, 99,
	};
	static const float want[W * H] = {
		0, 0, 0, 0, 0, 0,
		0, 0, 1, 1, 0, 0,
		1, 1, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0,
	};
	uint8_t dir[W * H];
	float river[W * H];

	trace(z, W, H, 4, dir, river);
	ck_assert_mem_eq(river, want, sizeof want);
	ck_assert_int_eq(dir[1 * W + 3], TP_D8_W);
	ck_assert_int_eq(dir[1 * W + 2], TP_D8_SW);	/* was W */
	ck_assert_int_eq(dir[1 * W + 1], TP_D8_SW);	/* off the river */
	ck_assert_int_eq(dir[2 * W + 1], TP_D8_W);
	ck_assert_int_eq(dir[2 * W + 0], TP_D8_OUT | TP_D8_SW);
}
END_TEST

/* A pit of two 5s whose water climbs over 6 to the notch 3. (1, 2) has
 * flow 2 and begins; its one lower-or-level neighbour not yet visited is
 * (2, 2), so the river runs E, then (nothing lower) along the flood's
 * direction S up to 6 and out. Thinning: 6 is a neighbour of (1, 2), so
 * (2, 2) is left out and (1, 2) points SE, past it. */
START_TEST(test_trace_thin)
{
	enum { W = 5, H = 5 };
	static const float z[W * H] = {
		9, 9, 9, 9, 9,
		9, 7, 7, 7, 9,
		9, 5, 5, 7, 9,
		9, 7, 6, 7, 9,
		9, 9, 3, 9, 9,
	};
	uint8_t dir[W * H];
	float river[W * H];
	int i;

	trace(z, W, H, 2, dir, river);
	for (i = 0; i < W * H; i++)
		ck_assert_float_eq(river[i], i == 2 * W + 1 || i == 3 * W + 2 ||
		    i == 4 * W + 2);
	ck_assert_int_eq(dir[2 * W + 1], TP_D8_SE);
	ck_assert_int_eq(dir[2 * W + 2], TP_D8_S);	/* left out, into it */
	ck_assert_int_eq(dir[3 * W + 2], TP_D8_S);
}
END_TEST

/* NaN is NaN in the river band and the sea is 0; rivers reach both. */
START_TEST(test_trace_nan_sea)
{
	enum { W = 5, H = 4 };
	float z[W * H], river[W * H], acc[W * H];
	uint32_t order[W * H];
	uint8_t dir[W * H];
	tp_flow_stats st;
	tp_err e;
	int i;

	for (i = 0; i < W * H; i++)	/* a ramp down to the west */
		z[i] = (float)(i % W);
	z[0] = NAN;
	ck_assert_int_eq(tp_carve_rule(z, W, H, W, &UNIT, 0.5, TP_CARVE_FIRST,
	    dir, order, &st, &e), 0);
	ck_assert_int_eq(st.sea, H - 1);
	ck_assert_int_eq(tp_flow_accumulate(dir, W, H, &UNIT, 0, 1, acc, W,
	    &e), 0);
	ck_assert_int_eq(tp_rivers_trace(z, W, acc, W, order, (size_t)st.valid,
	    W, H, 1, dir, river, W, &e), 0);
	ck_assert(isnan(river[0]));
	for (i = 1; i < W * H; i++)
		if (i % W == 0)
			ck_assert_float_eq(river[i], 0);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("rivers");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_trace_largest_flow);
	tcase_add_test(tc, test_trace_thin);
	tcase_add_test(tc, test_trace_nan_sea);
	suite_add_tcase(s, tc);
	return tp_test_run(s);
}
