/* check_breach.c - unit tests of tp_breach: a dam cut rather than filled,
 * the depth and length limits leaving a depression to the fill, the
 * levels of a cut path, and on fractal surfaces: nothing raised, no cut
 * cell raised by the fill after it, every cell draining. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_breach.h"
#include "hydro/tp_fill.h"
#include "tp_test.h"

static const tp_fill_opts NEXT = { TP_FILL_NEXT, 0 };
static const tp_breach_opts ANY = { 0, INFINITY };

/* A valley (row 3) falling east between walls of 15 and 16 (all drains),
 * dammed at x = 4 by a wall `thick` cells thick of height 12; its west
 * end is closed (30: dearer to cut than the dam), so the 8 7 6 above the dam form a depression with
 * its pit at x = 3. */
enum { W = 11, H = 7, N = W * H, DAM = 3 * W + 4 };

static void
valley(float z[N], int thick)
{
	static const float row[11] = { 30, 8, 7, 6, 5, 4, 3, 2, 1.5f, 1.2f, 1 };
	int x, y;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			z[y * W + x] = x == 0 ? 30 : y == 0 || y == H - 1 ? 20 :
			    y == 3 ? row[x] : y == 1 || y == H - 2 ? 16 : 15;
	for (x = 0; x < thick; x++)
		z[DAM + x] = 12;
}

/* The dam is cut to the next float below the pit, nothing else moves,
 * and the fill after it raises nothing. */
START_TEST(test_dam_cut)
{
	float z[N], o[N];
	tp_breach_stats st;
	tp_fill_stats fs;
	tp_err e;
	int i;

	valley(z, 1);
	memcpy(o, z, sizeof z);
	ck_assert_int_eq(tp_breach(z, W, H, W, &NEXT, -INFINITY, &ANY, &st,
	    &e), 0);
	ck_assert_int_eq(st.pits, 1);
	ck_assert_int_eq(st.breached, 1);
	ck_assert_int_eq(st.cut, 1);
	for (i = 0; i < N; i++)
		if (i != DAM)
			ck_assert(z[i] == o[i]);
	ck_assert(z[DAM] == nextafterf(6, 0));
	ck_assert_int_eq(tp_fill_pf(z, W, H, W, &NEXT, &fs, &e), 0);
	ck_assert_int_eq(fs.raised, 0);
}
END_TEST

/* A dam three cells thick: the cut path steps down a float a cell. */
START_TEST(test_thick_dam_levels)
{
	tp_breach_opts two = { 2, INFINITY }, three = { 3, INFINITY };
	float z[N], o[N];
	tp_breach_stats st;
	tp_err e;

	valley(z, 3);
	memcpy(o, z, sizeof z);
	ck_assert_int_eq(tp_breach(z, W, H, W, &NEXT, -INFINITY, &two, &st,
	    &e), 0);
	ck_assert_int_eq(st.breached, 0);	/* 3 cells to cut, 2 allowed */
	ck_assert(memcmp(z, o, sizeof z) == 0);
	ck_assert_int_eq(tp_breach(z, W, H, W, &NEXT, -INFINITY, &three,
	    &st, &e), 0);
	ck_assert_int_eq(st.breached, 1);
	ck_assert(z[DAM] == nextafterf(6, 0));
	ck_assert(z[DAM + 1] == nextafterf(nextafterf(6, 0), 0));
	ck_assert(z[DAM + 2] == nextafterf(z[DAM + 1], 0));
	ck_assert(z[DAM + 3] == 2);	/* the end: lower, kept */
}
END_TEST

/* Deeper than --breach-depth: the dam is left to the fill. */
START_TEST(test_depth_limit)
{
	tp_breach_opts shallow = { 0, 5.5 }, deep = { 0, 6.5 };
	float z[N], o[N];
	tp_breach_stats st;
	tp_err e;

	valley(z, 1);
	memcpy(o, z, sizeof z);
	ck_assert_int_eq(tp_breach(z, W, H, W, &NEXT, -INFINITY, &shallow,
	    &st, &e), 0);
	ck_assert_int_eq(st.breached, 0);
	ck_assert(memcmp(z, o, sizeof z) == 0);
	ck_assert_int_eq(tp_breach(z, W, H, W, &NEXT, -INFINITY, &deep, &st,
	    &e), 0);
	ck_assert_int_eq(st.breached, 1);
}
END_TEST

/* The levels step down by the rule, and step back up to at most where
 * they came from. */
START_TEST(test_down)
{
	tp_fill_opts eps = { TP_FILL_EPSILON, 0.1f }, flat = { TP_FILL_FLAT, 0 };
	float v[] = { 0, -0.0f, 1, -1, 1e-40f, 12345.678f, -3e7f, 1e30f };
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		float d = tp_breach_down(&NEXT, v[i]), f = tp_breach_down(&eps,
		    v[i]);

		ck_assert(d < v[i] && tp_fill_step(&NEXT, d) <= v[i]);
		ck_assert(f < v[i] && tp_fill_step(&eps, f) <= v[i]);
		ck_assert(tp_fill_step(&eps, tp_fill_next_up(f)) > v[i] ||
		    tp_fill_next_up(f) >= v[i]);
		ck_assert(tp_breach_down(&flat, v[i]) == v[i]);
	}
}
END_TEST

/* 1 when valid cell i of the S x S plane z is an outlet or has a
 * strictly lower neighbour. */
static int
drains(const float *z, int s, int i)
{
	int x = i % s, y = i / s, dx, dy, ok = 0;

	for (dy = -1; dy <= 1; dy++)
		for (dx = -1; dx <= 1; dx++) {
			int nx = x + dx, ny = y + dy;

			if (nx < 0 || ny < 0 || nx >= s || ny >= s ||
			    isnan(z[ny * s + nx]))
				ok = 1;
			else if (z[ny * s + nx] < z[i])
				ok = 1;
		}
	return ok;
}

/* Fractal surfaces with holes, each limit: the breach raises nothing, the
 * fill after it raises no cut cell, and every cell drains. */
START_TEST(test_fractal)
{
	enum { S = 65 };
	static const tp_breach_opts lim[] = { { 0, INFINITY }, { 4, INFINITY },
	    { 0, 0.05 }, { 3, 0.1 } };
	float *z = malloc(S * S * sizeof *z), *o = malloc(S * S * sizeof *z),
	    *b = malloc(S * S * sizeof *z);
	uint64_t seed = 5;
	tp_breach_stats st;
	tp_err e;
	int i, k;

	ck_assert(z != NULL && o != NULL && b != NULL);
	tp_test_fractal(o, S, &seed, 0.7f);
	for (i = 0; i < 40; i++)
		o[(i * 7919) % (S * S)] = NAN;
	for (k = 0; k < 4; k++) {
		memcpy(z, o, S * S * sizeof *z);
		ck_assert_int_eq(tp_breach(z, S, S, S, &NEXT, -INFINITY,
		    &lim[k], &st, &e), 0);
		ck_assert_int_gt(st.pits, 0);
		if (k == 0)
			ck_assert_int_eq(st.breached, st.pits);
		memcpy(b, z, S * S * sizeof *z);
		ck_assert_int_eq(tp_fill_pf(z, S, S, S, &NEXT, NULL, &e), 0);
		for (i = 0; i < S * S; i++) {
			if (isnan(o[i])) {
				ck_assert(isnan(z[i]));
				continue;
			}
			ck_assert(b[i] <= o[i]);
			if (b[i] < o[i])
				ck_assert(z[i] == b[i]);
			ck_assert(drains(z, S, i));
		}
	}
	free(z);
	free(o);
	free(b);
}
END_TEST

/* Sea cells are outlets and stay as they are. */
START_TEST(test_sea)
{
	float z[N], o[N];
	tp_err e;
	int i;

	valley(z, 1);
	z[3 * W + 10] = -1;	/* sea at level 0 */
	memcpy(o, z, sizeof z);
	ck_assert_int_eq(tp_breach(z, W, H, W, &NEXT, 0, &ANY, NULL, &e), 0);
	ck_assert(z[3 * W + 10] == -1);
	for (i = 0; i < N; i++)
		ck_assert(z[i] <= o[i]);
}
END_TEST

START_TEST(test_bad_plane)
{
	float z[4] = { 1, 2, 3, 4 };
	tp_err e;

	ck_assert_int_eq(tp_breach(z, 2, 2, 1, &NEXT, -INFINITY, &ANY, NULL,
	    &e), -1);
	ck_assert(strstr(e.msg, "breach") != NULL);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("breach");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_dam_cut);
	tcase_add_test(tc, test_thick_dam_levels);
	tcase_add_test(tc, test_depth_limit);
	tcase_add_test(tc, test_down);
	tcase_add_test(tc, test_fractal);
	tcase_add_test(tc, test_sea);
	tcase_add_test(tc, test_bad_plane);
	suite_add_tcase(s, tc);
	return tp_test_run(s);
}
