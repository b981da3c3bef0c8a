/* check_fillbasin.c - unit tests of tp_fillbasin_flat: a case by hand, and
 * Priority-Flood's flat surface, bit for bit, on random planes. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_fill.h"
#include "hydro/tp_fillbasin.h"
#include "tp_test.h"

static const tp_fill_opts FLAT = { TP_FILL_FLAT, 0 };

/* tp_fillbasin_flat on 1, 2 and 3 threads and tp_fill_pf_sea under the
 * flat rule, on copies of a w x h plane of the given stride (the samples
 * past w in a row are not the plane's): the same bits everywhere, padding
 * untouched, the same counts. The basins' surface goes to out when not
 * NULL. */
static void
same_as_pf(const float *in, int w, int h, size_t stride, double sea,
    float *out, int t)
{
	size_t span = (size_t)(h - 1) * stride + (size_t)w, i;
	float *a = malloc(span * sizeof *a), *b = malloc(span * sizeof *b);
	tp_fill_stats sa, sb;
	tp_err e;
	int th;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	memcpy(b, in, span * sizeof *b);
	ck_assert_int_eq(tp_fill_pf_sea(b, w, h, stride, &FLAT, sea, &sb, &e),
	    0);
	for (th = 1; th <= 3; th++) {
		memcpy(a, in, span * sizeof *a);
		ck_assert_int_eq(tp_fillbasin_flat(a, w, h, stride, sea, th, 0,
		    &sa, NULL, NULL, &e), 0);
		for (i = 0; i < span; i++)
			ck_assert_msg(memcmp(&a[i], &b[i], sizeof a[i]) == 0,
			    "plane %d, %d threads, cell (%zu, %zu): %.9g, "
			    "Priority-Flood %.9g", t, th, i % stride,
			    i / stride, a[i], b[i]);
		for (i = (size_t)w; i < span; i++)
			if (i % stride >= (size_t)w)
				ck_assert(memcmp(&a[i], &in[i], sizeof a[i]) == 0);
		ck_assert_int_eq(sa.valid, sb.valid);
		ck_assert_int_eq(sa.sea, sb.sea);
		ck_assert_int_eq(sa.seeds, sb.seeds);
		ck_assert_int_eq(sa.raised, sb.raised);
	}
	if (out != NULL)
		memcpy(out, a, span * sizeof *a);
	free(a);
	free(b);
}

/*
 * Two basins by hand. The border is 9 but for the outlet 4. The west
 * basin (pit 1) spills over the 6s to the outlet at 6: its 1 and 2s rise
 * to 6, its 7 stays. The east basin (pit 2) touches the outlet across a
 * corner and rises to 4. With the sea at 1.5 the 1 is sea, the cells
 * beside it outlets: the west basin keeps its heights.
 */
START_TEST(test_by_hand)
{
	static const float g[24] = {
		9, 9, 9, 9, 9, 9,
		9, 1, 2, 6, 3, 9,
		9, 2, 7, 6, 2, 9,
		9, 9, 9, 4, 9, 9,
	};
	static const float dry[24] = {
		9, 9, 9, 9, 9, 9,
		9, 6, 6, 6, 4, 9,
		9, 6, 7, 6, 4, 9,
		9, 9, 9, 4, 9, 9,
	};
	static const float wet[24] = {
		9, 9, 9, 9, 9, 9,
		9, 1, 2, 6, 4, 9,
		9, 2, 7, 6, 4, 9,
		9, 9, 9, 4, 9, 9,
	};
	float out[24];
	tp_fill_stats st;
	tp_err e;

	same_as_pf(g, 6, 4, 6, -INFINITY, out, 0);
	ck_assert_mem_eq(out, dry, sizeof out);
	same_as_pf(g, 6, 4, 6, 1.5, out, 1);
	ck_assert_mem_eq(out, wet, sizeof out);
	memcpy(out, g, sizeof out);
	ck_assert_int_eq(tp_fillbasin_flat(out, 6, 4, 6, 1.5, 1, 0, &st,
	    NULL, NULL, &e), 0);
	ck_assert_int_eq(st.valid, 24);
	ck_assert_int_eq(st.sea, 1);
	ck_assert_int_eq(st.seeds, 16 + 3);	/* the border, the 1's three */
	ck_assert_int_eq(st.raised, 2);
}
END_TEST

/* A plateau, across the bands of rows the threads share: flat land
 * inside a wall rises to the wall, and stays where a gap in the wall is as
 * low as it; a -0 level raises to +0. */
START_TEST(test_plateau)
{
	enum { W = 40, H = 200 };
	static float g[W * H], out[W * H];
	int x, y;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			g[y * W + x] = x == 0 || y == 0 || x == W - 1 ||
			    y == H - 1 ? 5 : 3;
	same_as_pf(g, W, H, W, -INFINITY, out, 0);
	for (x = 0; x < W * H; x++)
		ck_assert_float_eq(out[x], 5);
	g[W * (H / 2)] = 3;	/* a gap in the west wall */
	same_as_pf(g, W, H, W, -INFINITY, out, 1);
	ck_assert_mem_eq(out, g, sizeof out);
	g[W * (H / 2)] = -0.0f;	/* the gap at -0 over a floor at -1 */
	for (y = 1; y < H - 1; y++)
		for (x = 1; x < W - 1; x++)
			g[y * W + x] = -1;
	same_as_pf(g, W, H, W, -INFINITY, out, 2);
	ck_assert(!signbit(out[W + 1]) && out[W + 1] == 0);
}
END_TEST

/* A descent longer than the labelling keeps on its way (rows that all
 * drain south, the direction labelled last), into a pit at the foot. */
START_TEST(test_long_descent)
{
	enum { W = 9, H = 300 };
	static float g[W * H];
	int x, y;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			g[y * W + x] = x == 0 || y == 0 || x == W - 1 ||
			    y == H - 1 ? 1000 : (float)(H - y) +
			    (float)((x * 7) % 3) / 4;
	g[W * (H - 1) + W / 2] = 500;	/* the outlet, south */
	g[W * 3] = 800;			/* a lower one, west */
	same_as_pf(g, W, H, W, -INFINITY, NULL, 0);
}
END_TEST

/* Random planes: fractals, some in steps (plateaus), with NaN holes, a
 * sea, infinities and signed zeros, in a wider stride; at every vector
 * level, as tp_fill_pf_sea. */
START_TEST(test_random)
{
	enum { S = 129 };
	static float base[S * S], in[(S + 3) * S];
	static const float odd[] = { INFINITY, -INFINITY, -0.0f, 0.0f };
	uint64_t seed = 0x243f6a8885a308d3u;
	int t, i, w, h, x, y, level;
	size_t stride;
	double sea;

	for (t = 0; t < 160; t++) {
		tp_test_fractal(base, S, &seed, 0.5f + 0.05f * (float)(t % 5));
		w = t < 6 ? 1 + t : 2 + (int)(tp_test_rnd(&seed) % (S - 1));
		h = t < 6 ? S - t : 2 + (int)(tp_test_rnd(&seed) % (S - 1));
		stride = (size_t)w + (size_t)(t % 4);
		for (i = 0; i < (S + 3) * S; i++)
			in[i] = 12345.0f;	/* padding */
		for (y = 0; y < h; y++)
			for (x = 0; x < w; x++) {
				float v = base[y * S + x];
				if (t % 3 == 1)
					v = floorf(v * 6) / 6;	/* plateaus */
				in[(size_t)y * stride + (size_t)x] = v;
			}
		for (i = 0; t % 4 == 2 && i < w * h / 20; i++)
			in[(size_t)(tp_test_rnd(&seed) % (uint64_t)h) * stride +
			    tp_test_rnd(&seed) % (uint64_t)w] = NAN;
		for (i = 0; t % 5 == 3 && i < w * h / 30; i++)
			in[(size_t)(tp_test_rnd(&seed) % (uint64_t)h) * stride +
			    tp_test_rnd(&seed) % (uint64_t)w] =
			    odd[tp_test_rnd(&seed) % 4];
		sea = t % 6 == 5 ? in[(size_t)(h / 2) * stride + (size_t)(w / 2)]
		    : -INFINITY;
		if (isnan(sea))
			sea = 0;
		for (level = 0; level < 2; level++) {
			if (level == 0)
				setenv("TP_SIMD", "scalar", 1);
			same_as_pf(in, w, h, stride, sea, NULL, t);
			unsetenv("TP_SIMD");
		}
	}
}
END_TEST

/* Progress goes up through the four passes to width x height, a
 * hundredth of the rows at a time while labelling, a band at a time of
 * those the calling thread did in the others, and changes nothing. */
START_TEST(test_progress)
{
	enum { W = 60, H = 250 };
	static float a[W * H], b[W * H];
	tp_test_told t = { 0 };
	tp_fill_stats sa, sb;
	tp_err e;
	int i;

	for (i = 0; i < W * H; i++)
		a[i] = b[i] = i % 97 == 0 ? NAN : (float)((i * 7919) % 101);
	ck_assert_int_eq(tp_fillbasin_flat(a, W, H, W, 10, 1, 0, &sa, NULL,
	    NULL, &e), 0);
	ck_assert_int_eq(tp_fillbasin_flat(b, W, H, W, 10, 2, 0, &sb,
	    tp_test_tell, &t, &e), 0);
	ck_assert_mem_eq(a, b, sizeof a);
	ck_assert_int_eq(sa.raised, sb.raised);
	ck_assert(!t.bad);
	ck_assert_int_eq(t.total, W * H);
	ck_assert_int_eq(t.done, t.total);
	/* 250 rows, every third, and at most 4 bands a pass in 3 */
	ck_assert_int_ge(t.calls, 84 + 1);
	ck_assert_int_le(t.calls, 84 + 3 * 4 + 1);
}
END_TEST

/* The limit on basins: a plateau of 7,524 minima across four bands of
 * rows counts as the one basin it is, on any number of threads, and is
 * filled under a limit of 1; white noise (a minimum in about 9 cells) is
 * declined under a limit of one basin in 64 cells, and left as it was. */
START_TEST(test_decline)
{
	enum { W = 40, H = 200 };
	static float g[W * H], a[W * H];
	uint64_t seed = 0x2545f4914f6cdd1du;
	tp_err e;
	int i, x, y, th;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			g[y * W + x] = x == 0 || y == 0 || x == W - 1 ||
			    y == H - 1 ? 5 : 3;
	for (th = 1; th <= 3; th++) {
		memcpy(a, g, sizeof a);
		ck_assert_int_eq(tp_fillbasin_flat(a, W, H, W, -INFINITY, th, 1,
		    NULL, NULL, NULL, &e), 0);
		ck_assert_float_eq(a[W + 1], 5);
	}
	for (i = 0; i < W * H; i++)
		g[i] = tp_test_urand(&seed);
	memcpy(a, g, sizeof a);
	ck_assert_int_eq(tp_fillbasin_flat(a, W, H, W, -INFINITY, 2,
	    W * H / TP_FILLBASIN_CELLS_A_BASIN, NULL, NULL, NULL, &e), 1);
	ck_assert_mem_eq(a, g, sizeof a);
	same_as_pf(g, W, H, W, -INFINITY, NULL, 0);	/* no limit: filled */
}
END_TEST

START_TEST(test_errors)
{
	float g[4] = { 1, 2, 3, 4 };
	tp_err e;

	ck_assert_int_eq(tp_fillbasin_flat(g, 2, 2, 1, -INFINITY, 1, 0, NULL,
	    NULL, NULL, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "bad plane"));
	ck_assert_int_eq(tp_fillbasin_flat(g, 0, 2, 2, -INFINITY, 1, 0, NULL,
	    NULL, NULL, &e), -1);
	ck_assert_int_eq(tp_fillbasin_flat(g, 2, 2, 2, NAN, 1, 0, NULL, NULL,
	    NULL, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "sea level"));
	/* refused before any sample is read */
	ck_assert_int_eq(tp_fillbasin_flat(g, 65536, 32769, 65536, -INFINITY,
	    1, 0, NULL, NULL, NULL, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "2^31"));
	ck_assert_int_eq(tp_fillbasin_flat(g, 2, 2, 2, -INFINITY, 0, 0, NULL,
	    NULL, NULL, NULL), 0);
}
END_TEST

static Suite *
fillbasin_suite(void)
{
	Suite *s = suite_create("fillbasin");
	TCase *core = tcase_create("core"), *err = tcase_create("errors");

	tcase_add_test(core, test_by_hand);
	tcase_add_test(core, test_plateau);
	tcase_add_test(core, test_long_descent);
	tcase_add_test(core, test_random);
	tcase_add_test(core, test_progress);
	tcase_add_test(core, test_decline);
	tcase_set_timeout(core, 60);
	tcase_add_test(err, test_errors);
	suite_add_tcase(s, core);
	suite_add_tcase(s, err);
	return s;
}

int
main(void)
{
	return tp_test_run(fillbasin_suite());
}
