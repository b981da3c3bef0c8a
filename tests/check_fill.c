/* check_fill.c - unit tests of tp_fill: hand-built grids, random fractals. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_fill.h"
#include "hydro/tp_flow.h"
#include "tp_test.h"

#define N NAN

static const tp_fill_opts NEXT = { TP_FILL_NEXT, 0 };
static const tp_fill_opts FLAT = { TP_FILL_FLAT, 0 };

/* Valid non-seed land cells of a compact w x h plane without a strictly
 * lower valid neighbour: the cells D8 finds no way down from, sinks and
 * flats; cells below sea (-INFINITY: none) are sea, outlets. */
static int64_t
sinks(const float *z, int w, int h, double sea)
{
	static const tp_geo_grid unit = { 1, 0, 0 };
	uint8_t *dir = malloc((size_t)(w * h));
	tp_flow_stats st;
	tp_err e;

	ck_assert_ptr_nonnull(dir);
	ck_assert_int_eq(tp_flow_d8_sea(z, w, h, (size_t)w, &unit, sea, 1, dir,
	    &st, &e), 0);
	free(dir);
	return st.sinks + st.flats;
}

static tp_fill_opts
eps(float e)
{
	tp_fill_opts o = { TP_FILL_EPSILON, e };
	return o;
}

static float
up(float v, int times)
{
	while (times-- > 0)
		v = nextafterf(v, INFINITY);
	return v;
}

/* Fill a copy of in by both methods with the sea below sea (-INFINITY:
 * none), check they agree, compare with want; returns the sea cells. */
static int64_t
fill_expect_sea(const float *in, int w, int h, const tp_fill_opts *o,
    double sea, const float *want)
{
	float a[64], b[64];
	tp_fill_stats sa, sb;
	tp_err e;
	int i;

	ck_assert_int_le(w * h, 64);
	memcpy(a, in, sizeof(float) * (size_t)(w * h));
	memcpy(b, in, sizeof(float) * (size_t)(w * h));
	ck_assert_int_eq(tp_fill_pf_sea(a, w, h, (size_t)w, o, sea, &sa, &e), 0);
	ck_assert_int_eq(tp_fill_pd_sea(b, w, h, (size_t)w, o, sea, &sb, &e), 0);
	ck_assert_mem_eq(a, b, sizeof(float) * (size_t)(w * h));
	ck_assert_int_eq(sa.raised, sb.raised);
	ck_assert_int_eq(sa.seeds, sb.seeds);
	ck_assert_int_eq(sa.valid, sb.valid);
	ck_assert_int_eq(sa.sea, sb.sea);
	for (i = 0; i < w * h; i++) {
		if (isnan(want[i]))
			ck_assert(isnan(a[i]));
		else
			ck_assert_msg(a[i] == want[i], "cell %d: %.9g, want %.9g",
			    i, a[i], want[i]);
	}
	return sa.sea;
}

/* Fill a copy of in by both methods, check they agree, compare with want. */
static void
fill_expect(const float *in, int w, int h, const tp_fill_opts *o,
    const float *want)
{
	ck_assert_int_eq(fill_expect_sea(in, w, h, o, -INFINITY, want), 0);
}

START_TEST(test_single_pit)
{
	float g[25] = {
		10, 10, 10, 10, 10,
		10, 12, 12, 12, 10,
		10, 12,  1, 12, 10,
		10, 12, 12, 12, 10,
		10, 10, 10, 10, 10 };
	float want[25];
	tp_fill_opts o = eps(1);

	memcpy(want, g, sizeof g);
	want[12] = 12;			/* flat: the spill height */
	fill_expect(g, 5, 5, &FLAT, want);
	want[12] = up(12, 1);		/* the next float above 12 */
	fill_expect(g, 5, 5, &NEXT, want);
	want[12] = 13;			/* 12 + epsilon 1 */
	fill_expect(g, 5, 5, &o, want);
}
END_TEST

/* Two pits (1 and 0) inside one depression spilling at 5, over a saddle
 * at 4; a second depression (the 1 at x=7) behind the 6. Rows 0 and 2 are
 * border seeds at 10; the outlet is the 3 at the west border. */
START_TEST(test_nested_pits)
{
	float g[27] = {
		10, 10, 10, 10, 10, 10, 10, 10, 10,
		 3,  2,  5,  1,  4,  0,  6,  1, 10,
		10, 10, 10, 10, 10, 10, 10, 10, 10 };
	const float flat[9] = { 3, 3, 5, 5, 5, 5, 6, 6, 10 };
	const float one[9] = { 3, 4, 5, 6, 7, 8, 9, 10, 10 };
	float want[27];
	tp_fill_opts o = eps(1);
	int x;

	memcpy(want, g, sizeof g);
	memcpy(want + 9, flat, sizeof flat);
	fill_expect(g, 9, 3, &FLAT, want);
	memcpy(want + 9, one, sizeof one);
	fill_expect(g, 9, 3, &o, want);
	/* next-float rule: each cell one float above the one it drains to */
	const float next[9] = { 3, up(3, 1), 5, up(5, 1), up(5, 2), up(5, 3),
	    6, up(6, 1), 10 };
	memcpy(want + 9, next, sizeof next);
	fill_expect(g, 9, 3, &NEXT, want);
	for (x = 0; x < 9; x++)
		ck_assert(want[9 + x] >= g[9 + x]);
}
END_TEST

/* A low cell next to a lower border cell drains out: nothing is raised,
 * and a pit on the border itself is an outlet. */
START_TEST(test_pit_touching_border)
{
	float g[16] = {
		5, 0, 5, 5,
		5, 1, 5, 5,
		5, 5, 5, 5,
		5, 5, 5, -5 };
	float want[16];
	tp_fill_opts o = eps(1);

	memcpy(want, g, sizeof g);
	fill_expect(g, 4, 4, &FLAT, want);
	fill_expect(g, 4, 4, &o, want);	/* 1 == 0 + 1: kept */
	fill_expect(g, 4, 4, &NEXT, want);
}
END_TEST

START_TEST(test_plateau)
{
	float g[25], want[25];
	tp_fill_opts o = eps(0.25f);
	int i;

	for (i = 0; i < 25; i++)
		g[i] = want[i] = 7;
	fill_expect(g, 5, 5, &FLAT, want);
	for (i = 0; i < 25; i++) {
		int x = i % 5, y = i / 5;
		if (x > 0 && y > 0 && x < 4 && y < 4)
			want[i] = i == 12 ? 7.5f : 7.25f;
	}
	fill_expect(g, 5, 5, &o, want);
	for (i = 0; i < 25; i++)
		if (want[i] != 7)
			want[i] = i == 12 ? up(7, 2) : up(7, 1);
	fill_expect(g, 5, 5, &NEXT, want);
}
END_TEST

/* NaN is outside: the pit next to it drains into it. */
START_TEST(test_nan_holes)
{
	float g[25] = {
		9, 9, 9, 9, 9,
		9, N, 5, 5, 9,
		9, 5, 1, 5, 9,
		9, 5, 5, 5, 9,
		9, 9, 9, 9, 9 };
	float h[25] = {
		9, 9, 9, 9, 9,
		9, 5, 5, 5, 9,
		9, 5, 1, 5, 9,
		9, 5, 5, 5, 9,
		9, 9, 9, 9, 9 };
	float want[25];
	int i;

	fill_expect(g, 5, 5, &FLAT, g);
	fill_expect(g, 5, 5, &NEXT, g);
	/* without the hole it is a depression with its rim at 9 */
	memcpy(want, h, sizeof h);
	for (i = 6; i <= 18; i++)
		if (i % 5 != 0 && i % 5 != 4)
			want[i] = 9;
	fill_expect(h, 5, 5, &FLAT, want);
	for (i = 6; i <= 18; i++)
		if (i % 5 != 0 && i % 5 != 4)
			want[i] = i == 12 ? up(9, 2) : up(9, 1);
	fill_expect(h, 5, 5, &NEXT, want);
}
END_TEST

/* 100 random grids of random size (1..65 a side), some with NaN holes and
 * a quantised (terraced, flat-rich) copy, every fourth with a sea at the
 * height of a random cell: PF and PD agree byte for byte under all three
 * rules; the sea stays bit for bit as it was; the next-float fill leaves
 * no sink on land. */
START_TEST(test_random_fractals)
{
	enum { S = 65 };
	static float base[S * S], in[S * S], a[S * S], b[S * S];
	uint64_t seed = 0x9e3779b97f4a7c15u;
	tp_fill_opts rules[3] = { NEXT, FLAT, eps(0.001f) };
	tp_fill_stats st;
	tp_err e;
	int t, r, i, w, h, x, y, raised = 0;
	int64_t nsea = 0;
	double sea;

	for (t = 0; t < 100; t++) {
		tp_test_fractal(base, S, &seed, 0.55f + 0.1f * (float)(t % 4));
		w = t < 5 ? 1 + t : 2 + (int)(tp_test_rnd(&seed) % (S - 1));
		h = t < 5 ? S - t : 2 + (int)(tp_test_rnd(&seed) % (S - 1));
		for (y = 0; y < h; y++)
			for (x = 0; x < w; x++) {
				float v = base[y * S + x];
				if (t % 3 == 1)
					v = floorf(v * 8) / 8;	/* flats */
				in[y * w + x] = v;
			}
		if (t % 5 == 2)
			for (i = 0; i < w * h / 20; i++)
				in[tp_test_rnd(&seed) % (uint64_t)(w * h)] = NAN;
		sea = t % 4 == 3 ?
		    in[tp_test_rnd(&seed) % (uint64_t)(w * h)] : -INFINITY;
		for (r = 0; r < 3; r++) {
			memcpy(a, in, sizeof(float) * (size_t)(w * h));
			memcpy(b, in, sizeof(float) * (size_t)(w * h));
			ck_assert_int_eq(tp_fill_pf_sea(a, w, h, (size_t)w,
			    &rules[r], sea, &st, &e), 0);
			raised += (int)st.raised;
			nsea += st.sea;
			ck_assert_int_eq(tp_fill_pd_sea(b, w, h, (size_t)w,
			    &rules[r], sea, NULL, &e), 0);
			ck_assert_msg(memcmp(a, b, sizeof(float) *
			    (size_t)(w * h)) == 0, "grid %d rule %d differs", t, r);
			for (i = 0; i < w * h; i++) {
				ck_assert(isnan(in[i]) ? isnan(a[i]) : a[i] >= in[i]);
				if (in[i] < sea)
					ck_assert(memcmp(&a[i], &in[i],
					    sizeof a[i]) == 0);
			}
			if (r == 0)
				ck_assert_int_eq(sinks(a, w, h, sea), 0);
		}
	}
	ck_assert_int_gt(raised, 1000);	/* the grids do have pits */
	ck_assert_int_gt(nsea, 1000);	/* and seas */
}
END_TEST

/*
 * The sea, by hand (sea level 2): the sea cells (1, 0.5, 1.5, 0 ...) form a
 * basin with a deeper pit (the 0) and stay as they are; the island cell 3
 * in the sea keeps its height; the land pit 4, 3 drains through the 3,
 * which touches the sea diagonally, so neither is raised (without the sea
 * both are raised, as is everything, to the basin's spill height, 9); the
 * pit 5 away from the sea is filled as ever.
 */
START_TEST(test_sea)
{
	static const float g[35] = {
		9, 9, 9,   9, 9,   9, 9,
		9, 5, 9,   1, 0.5, 1, 9,
		9, 9, 9, 1.5, 3,   1, 9,
		9, 4, 3,   9, 1,   0, 9,
		9, 9, 9,   9, 9,   9, 9,
	};
	float want[35], dry[35];
	int i;

	memcpy(want, g, sizeof want);
	want[8] = up(9, 1);
	ck_assert_int_eq(fill_expect_sea(g, 7, 5, &NEXT, 2, want), 7);
	want[8] = 9;
	ck_assert_int_eq(fill_expect_sea(g, 7, 5, &FLAT, 2, want), 7);
	/* a level at or below the lowest cell: no sea, the old fill */
	for (i = 0; i < 35; i++)
		dry[i] = 9;	/* every cell below 9 lies in one basin */
	ck_assert_int_eq(fill_expect_sea(g, 7, 5, &FLAT, 0, dry), 0);
	fill_expect(g, 7, 5, &FLAT, dry);
}
END_TEST

/* Progress counts the land cells flooded, a hundredth at a time, up to all
 * of them, and never changes the fill. */
START_TEST(test_progress)
{
	enum { W = 60, H = 50 };
	float *a = malloc(sizeof(float) * W * H), *b = malloc(sizeof(float) *
	    W * H);
	tp_test_told t = { 0 };
	tp_fill_stats sa, sb;
	tp_err e;
	int i;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	for (i = 0; i < W * H; i++)	/* pits, a sea and nodata */
		a[i] = b[i] = i % 97 == 0 ? NAN : (float)((i * 7919) % 101);
	ck_assert_int_eq(tp_fill_pf_sea(a, W, H, W, &NEXT, 10, &sa, &e), 0);
	ck_assert_int_eq(tp_fill_pf_progress(b, W, H, W, &NEXT, 10, &sb,
	    tp_test_tell, &t, &e), 0);
	ck_assert_mem_eq(a, b, sizeof(float) * W * H);
	ck_assert_int_eq(sa.raised, sb.raised);
	ck_assert(!t.bad);
	ck_assert_int_eq(t.total, sb.valid - sb.sea);
	ck_assert_int_eq(t.done, t.total);
	ck_assert_int_ge(t.calls, 100);
	ck_assert_int_le(t.calls, 102);
	free(a);
	free(b);
}
END_TEST

/* A plane inside a 3-band row layout fills like the compact plane and
 * leaves the other bands alone. */
START_TEST(test_stride)
{
	enum { W = 33, H = 33, B = 3 };
	static float base[W * H], compact[W * H], multi[W * H * B];
	uint64_t seed = 42;
	tp_err e;
	int x, y;

	tp_test_fractal(base, W, &seed, 0.6f);
	memcpy(compact, base, sizeof base);
	for (y = 0; y < H; y++)
		for (x = 0; x < W * B; x++)
			multi[y * W * B + x] = x < W ? -1 : base[y * W + x % W];
	/* band 1 of each row is the height */
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			multi[y * W * B + W + x] = base[y * W + x];
	ck_assert_int_eq(tp_fill_pf(compact, W, H, W, &NEXT, NULL, &e), 0);
	ck_assert_int_eq(tp_fill_pf(multi + W, W, H, W * B, &NEXT, NULL, &e), 0);
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++) {
			ck_assert(multi[y * W * B + W + x] == compact[y * W + x]);
			ck_assert(multi[y * W * B + x] == -1);
			ck_assert(multi[y * W * B + 2 * W + x] == base[y * W + x]);
		}
}
END_TEST

START_TEST(test_next_up)
{
	float v[] = { 0.0f, -0.0f, 1, -1, 1e-45f, -1e-45f, 3.4e38f, -3.4e38f,
	    1e-38f, 123.456f, -INFINITY };
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		ck_assert(tp_fill_next_up(v[i]) == nextafterf(v[i], INFINITY));
	ck_assert(!signbit(tp_fill_next_up(-1e-45f)));	/* +0, not -0 */
	ck_assert(tp_fill_next_up(INFINITY) == INFINITY);
	ck_assert(isnan(tp_fill_next_up(NAN)));
}
END_TEST

START_TEST(test_limits)
{
	float all_nan[6] = { N, N, N, N, N, N }, one[1] = { 3 };
	float row[5] = { 5, 1, 5, 0, 5 };
	float col[5] = { 5, 1, 5, 0, 5 };
	float row2[5], col2[5];
	tp_fill_stats st;
	tp_err e;
	int i;

	ck_assert_int_eq(tp_fill_pf(all_nan, 3, 2, 3, &NEXT, &st, &e), 0);
	ck_assert_int_eq(st.valid, 0);
	for (i = 0; i < 6; i++)
		ck_assert(isnan(all_nan[i]));
	ck_assert_int_eq(tp_fill_pd(all_nan, 3, 2, 3, &NEXT, &st, &e), 0);
	ck_assert_int_eq(tp_fill_pf(one, 1, 1, 1, &NEXT, &st, &e), 0);
	ck_assert(one[0] == 3);
	ck_assert_int_eq(st.seeds, 1);
	/* 1 cell wide: every cell is on the border, nothing is raised */
	memcpy(row2, row, sizeof row);
	memcpy(col2, col, sizeof col);
	ck_assert_int_eq(tp_fill_pf(row2, 5, 1, 5, &NEXT, &st, &e), 0);
	ck_assert_int_eq(st.raised, 0);
	ck_assert_mem_eq(row2, row, sizeof row);
	ck_assert_int_eq(tp_fill_pf(col2, 1, 5, 1, &NEXT, &st, &e), 0);
	ck_assert_mem_eq(col2, col, sizeof col);
	ck_assert_int_eq(tp_fill_pd(col2, 1, 5, 1, &NEXT, &st, &e), 0);
	ck_assert_mem_eq(col2, col, sizeof col);
	/* a fixed epsilon too small for the height: still a fixed point */
	{
		float g[9] = { 1e8f, 1e8f, 1e8f, 1e8f, 0, 1e8f, 1e8f, 1e8f,
		    1e8f };
		tp_fill_opts o = eps(1e-3f);
		float want[9];
		memcpy(want, g, sizeof g);
		want[4] = 1e8f;
		fill_expect(g, 3, 3, &o, want);
	}
}
END_TEST

START_TEST(test_depth_and_sinks)
{
	float z[4] = { 2, 3, N, 5 }, d[4] = { 1, 3, N, 4.5f };
	float pit[9] = { 5, 5, 5, 5, 1, 5, 5, 5, 5 };

	tp_fill_depth(z, d, 2, 2, 2);
	ck_assert_float_eq(d[0], 1);
	ck_assert_float_eq(d[1], 0);
	ck_assert(isnan(d[2]));
	ck_assert_float_eq(d[3], 0.5f);
	ck_assert_int_eq(sinks(pit, 3, 3, -INFINITY), 1);
	pit[4] = 6;
	ck_assert_int_eq(sinks(pit, 3, 3, -INFINITY), 0);
}
END_TEST

START_TEST(test_errors)
{
	float g[4] = { 1, 2, 3, 4 };
	tp_fill_opts bad = eps(0), inf = eps(INFINITY);
	tp_err e;

	ck_assert_int_eq(tp_fill_pf(g, 2, 2, 2, &bad, NULL, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "epsilon"));
	ck_assert_int_eq(tp_fill_pd(g, 2, 2, 2, &inf, NULL, &e), -1);
	ck_assert_int_eq(tp_fill_pf(g, 2, 2, 1, &NEXT, NULL, &e), -1);
	ck_assert_int_eq(tp_fill_pf(g, 0, 2, 2, &NEXT, NULL, &e), -1);
	ck_assert_int_eq(tp_fill_pd(g, 2, 0, 2, &NEXT, NULL, &e), -1);
	ck_assert_int_eq(tp_fill_pf(g, 2, 2, 2, &NEXT, NULL, NULL), 0);
}
END_TEST

static Suite *
fill_suite(void)
{
	Suite *s = suite_create("fill");
	TCase *core = tcase_create("core"), *lim = tcase_create("limits"),
	    *err = tcase_create("errors");

	tcase_add_test(core, test_single_pit);
	tcase_add_test(core, test_nested_pits);
	tcase_add_test(core, test_pit_touching_border);
	tcase_add_test(core, test_plateau);
	tcase_add_test(core, test_nan_holes);
	tcase_add_test(core, test_sea);
	tcase_add_test(core, test_random_fractals);
	tcase_add_test(core, test_stride);
	tcase_add_test(core, test_depth_and_sinks);
	tcase_add_test(core, test_progress);
	tcase_set_timeout(core, 60);
	tcase_add_test(lim, test_next_up);
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
	return tp_test_run(fill_suite());
}
