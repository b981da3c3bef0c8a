/* check_dinf.c - unit tests of tp_dinf: D-infinity angles and SCA. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hydro/tp_dinf.h"
#include "hydro/tp_fill.h"
#include "hydro/tp_flow.h"
#include "tp_test.h"

static const tp_geo_grid UNIT = { 1, 0, 0 };

/* Angles of the compact w x h plane z (no sea), threads 1. */
static void
angles_of(const float *z, int w, int h, const tp_geo_grid *g, float *ang,
    tp_dinf_stats *st)
{
	tp_err e;

	ck_assert_int_eq(tp_dinf_angles(z, (size_t)w, NULL, w, h, g, 1, ang,
	    (size_t)w, st, &e), 0);
}

static void
area_of(const float *ang, int w, int h, const tp_geo_grid *g, int unit,
    float *out)
{
	tp_err e;

	ck_assert_int_eq(tp_dinf_area(ang, (size_t)w, w, h, g, unit, 1, out,
	    (size_t)w, &e), 0);
}

/* |a - b| as angles, modulo 2 pi. */
static double
angle_diff(double a, double b)
{
	double d = fmod(fabs(a - b), 2 * M_PI);

	return d < M_PI ? d : 2 * M_PI - d;
}

static int
on_border(int x, int y, int w, int h)
{
	return x == 0 || y == 0 || x == w - 1 || y == h - 1;
}

/* z = a x + b y (x east, y rows southward): downhill is (-a, b) east and
 * north, so every interior cell's angle is atan2(b, -a), the facets being
 * exact on a plane; the border has none. */
START_TEST(test_plane_angles)
{
	enum { W = 7, H = 6 };
	static const float ab[][2] = { { -2, 1 }, { 1, 3 }, { 0.5f, -2 },
	    { -1, -0.25f }, { 3, 0.5f }, { 0.25f, 1 }, { -0.75f, -4 } };
	float z[W * H], ang[W * H];
	tp_dinf_stats st;
	double want;
	int x, y;

	for (size_t i = 0; i < sizeof ab / sizeof ab[0]; i++) {
		for (y = 0; y < H; y++)
			for (x = 0; x < W; x++)
				z[y * W + x] = ab[i][0] * (float)x +
				    ab[i][1] * (float)y + 100;
		angles_of(z, W, H, &UNIT, ang, &st);
		want = atan2(ab[i][1], -ab[i][0]);
		for (y = 0; y < H; y++)
			for (x = 0; x < W; x++) {
				float a = ang[y * W + x];

				if (on_border(x, y, W, H)) {
					ck_assert_float_eq(a, TP_DINF_NONE);
					continue;
				}
				ck_assert(a >= 0 && a < 2 * M_PI);
				ck_assert_double_le(angle_diff(a, want), 1e-6);
			}
		ck_assert_int_eq(st.valid, W * H);
		ck_assert_int_eq(st.edge, 2 * (W + H) - 4);
		ck_assert_int_eq(st.flats, 0);
		ck_assert_int_eq(st.none, st.edge);
	}
}
END_TEST

/* Planes facing each of the 8 neighbours exactly: the angle is that
 * neighbour's direction, and it takes all the water (the float angle's
 * rounding leaves the next neighbour less than areadinf's 1e-5). */
START_TEST(test_facet_directions)
{
	enum { W = 5, H = 5 };
	/* tp_d8's k = 1..8 (E, SE, S, ...): the slopes east and south */
	static const int sx[9] = { 0, -1, -1, 0, 1, 1, 1, 0, -1 };
	static const int sy[9] = { 0, 0, -1, -1, -1, 0, 1, 1, 1 };
	float z[W * H], ang[W * H], a;
	int k, x, y, j;

	for (k = 1; k <= 8; k++) {
		for (y = 0; y < H; y++)
			for (x = 0; x < W; x++)
				z[y * W + x] = (float)(sx[k] * x + sy[k] * y);
		angles_of(z, W, H, &UNIT, ang, NULL);
		a = ang[2 * W + 2];
		/* counter-clockwise from east: k = 1 is 0, SE 7 pi / 4 */
		ck_assert_double_le(angle_diff(a, (9 - k) % 8 * M_PI / 4),
		    1e-6);
		for (j = 1; j <= 8; j++)
			if (j == k)
				ck_assert_double_ge(tp_dinf_share(a, j, 1, 1),
				    1 - 1e-6);
			else
				ck_assert_double_eq(tp_dinf_share(a, j, 1, 1),
				    0);
	}
}
END_TEST

/* A plane falling south, cells 10 wide: every interior cell sends all
 * south. TauDEM gives the border no direction, so row 0 passes nothing
 * and a cell of row r >= 1 holds rows 1..r: SCA = 10 r (areadinf -nc gives
 * 10, 20, 30, 40 down an interior column of a 5 x 6 plane). */
START_TEST(test_south_sca)
{
	enum { W = 5, H = 6 };
	float z[W * H], ang[W * H], sca[W * H], cells[W * H], area[W * H];
	const tp_geo_grid g = { 10, 0, 0 };
	int x, y;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			z[y * W + x] = (float)(-10 * y);
	angles_of(z, W, H, &g, ang, NULL);
	area_of(ang, W, H, &g, TP_DINF_SCA, sca);
	area_of(ang, W, H, &g, TP_DINF_CELLS, cells);
	area_of(ang, W, H, &g, TP_DINF_AREA, area);
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++) {
			int r = x == 0 || x == W - 1 || y == 0 ? 1 : y;

			ck_assert_double_eq_tol(sca[y * W + x], 10.0 * r,
			    1e-6 * r);
			ck_assert_double_eq_tol(cells[y * W + x], r, 1e-6 * r);
			ck_assert_double_eq_tol(area[y * W + x], 100.0 * r,
			    1e-4 * r);
		}
}
END_TEST

/* z = -2x + y falls 2 east and 1 north a cell: angle atan2(1, 2) in the
 * E-NE facet, split E 1 - angle / (pi / 4), NE the rest. On a 4 x 4 grid
 * the four interior cells pass on and the border keeps what it gets:
 * areadinf -nc gives 1, 2 / 1, 1.4096656 for the interior. */
START_TEST(test_split)
{
	enum { W = 4, H = 4 };
	float z[W * H], ang[W * H], acc[W * H];
	double pe = 1 - atan2(1, 2) / (M_PI / 4), pn = 1 - pe;
	int x, y;
	const double want[W * H] = {
		1, 1, 1 + pn, 1 + 2 * pn,
		1, 1, 2, 1 + 2 * pe + pn * (1 + pe),
		1, 1, 1 + pe, 1 + pe * (1 + pe),
		1, 1, 1, 1,
	};

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			z[y * W + x] = (float)(-2 * x + y);
	angles_of(z, W, H, &UNIT, ang, NULL);
	ck_assert_float_eq(ang[W + 1], (float)atan2(1, 2));
	ck_assert_double_eq_tol(tp_dinf_share(ang[W + 1], 1, 1, 1), pe, 1e-7);
	ck_assert_double_eq_tol(tp_dinf_share(ang[W + 1], 8, 1, 1), pn, 1e-7);
	area_of(ang, W, H, &UNIT, TP_DINF_CELLS, acc);
	for (int i = 0; i < W * H; i++)
		ck_assert_double_eq_tol(acc[i], want[i], 1e-6);
	ck_assert_double_eq_tol(acc[2 * W + 2], 1.4096656, 1e-7);
}
END_TEST

/* A pyramid: each face is a plane facing its side, so its cells point
 * straight out; every cell's water leaves across the border, all of it
 * but areadinf's dropped shares (below 1e-5 a cell). */
START_TEST(test_pyramid)
{
	enum { S = 11, C = 5 };
	float z[S * S], ang[S * S], acc[S * S];
	double out = 0;
	int x, y;

	for (y = 0; y < S; y++)
		for (x = 0; x < S; x++)
			z[y * S + x] = (float)-(abs(x - C) > abs(y - C) ?
			    abs(x - C) : abs(y - C));
	angles_of(z, S, S, &UNIT, ang, NULL);
	ck_assert_float_eq(ang[C * S + C + 2], 0);		/* east face */
	ck_assert_float_eq(ang[(C - 2) * S + C], (float)(M_PI / 2));
	ck_assert_float_eq(ang[C * S + C - 2], (float)M_PI);
	ck_assert_float_eq(ang[(C + 2) * S + C], (float)(3 * M_PI / 2));
	ck_assert_float_eq(ang[(C + 2) * S + C + 1], (float)(3 * M_PI / 2));
	area_of(ang, S, S, &UNIT, TP_DINF_CELLS, acc);
	for (y = 0; y < S; y++)
		for (x = 0; x < S; x++)
			if (on_border(x, y, S, S))
				out += acc[y * S + x];
	ck_assert_double_eq_tol(out, S * S, S * S * 1e-5);
}
END_TEST

/* A flat terrace (height 5, columns 0..4; a hill of 6 on the top-left
 * 2 x 2; columns 5..7 falling east), resolved as TauDEM 5.4.0's
 * dinfflowdir resolves it: these are its angles, its border NoData here
 * TP_DINF_NONE, and areadinf -nc's SCA of the interior. */
START_TEST(test_flat_terrace)
{
	enum { W = 8, H = 7 };
	const float n = TP_DINF_NONE, e = 0, nn = 1.57079637f,
	    w = 3.14159274f, s = 4.71238899f, se = 5.497787f;
	const float want[W * H] = {
		n, n, n, n, n, n, n, n,
		n, e, nn, e, e, e, e, n,
		n, w, e, e, e, e, e, n,
		n, w, se, e, e, e, e, n,
		n, w, se, e, e, e, e, n,
		n, w, s, e, e, e, e, n,
		n, n, n, n, n, n, n, n,
	};
	const float sca[4][6] = {
		{ 1, 2, 1, 2, 3, 4 }, { 1, 1, 2, 3, 4, 5 },
		{ 1, 1, 1, 2, 3, 4 }, { 1, 1, 2, 3, 4, 5 },
	};
	float z[W * H], ang[W * H], acc[W * H];
	tp_dinf_stats st;
	int x, y;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			z[y * W + x] = (x <= 4 ? 5.0f : 5.0f - (float)(x - 4)) +
			    (x <= 1 && y <= 1 ? 1.0f : 0.0f);
	angles_of(z, W, H, &UNIT, ang, &st);
	ck_assert_mem_eq(ang, want, sizeof want);
	ck_assert_int_eq(st.flats, 14);
	ck_assert_int_eq(st.none, st.edge);
	area_of(ang, W, H, &UNIT, TP_DINF_SCA, acc);
	for (y = 1; y <= 4; y++)
		for (x = 1; x <= 6; x++)
			ck_assert_double_eq_tol(acc[y * W + x],
			    sca[y - 1][x - 1], 1e-6);
}
END_TEST

/* NaN: its angle and SCA are NaN, its neighbours have no direction (as
 * TauDEM's NoData) and keep what reaches them. */
START_TEST(test_nan)
{
	enum { W = 7, H = 7 };
	float z[W * H], ang[W * H], acc[W * H];
	tp_dinf_stats st;
	double out = 0;
	int x, y, i;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			z[y * W + x] = (float)(-x - 2 * y);
	z[3 * W + 3] = NAN;
	angles_of(z, W, H, &UNIT, ang, &st);
	ck_assert(isnan(ang[3 * W + 3]));
	for (y = 2; y <= 4; y++)
		for (x = 2; x <= 4; x++)
			if (x != 3 || y != 3)
				ck_assert_float_eq(ang[y * W + x],
				    TP_DINF_NONE);
	ck_assert_int_eq(st.valid, W * H - 1);
	ck_assert_int_eq(st.edge, 2 * (W + H) - 4 + 8);
	area_of(ang, W, H, &UNIT, TP_DINF_CELLS, acc);
	ck_assert(isnan(acc[3 * W + 3]));
	for (i = 0; i < W * H; i++)
		if (ang[i] == TP_DINF_NONE)
			out += acc[i];
	ck_assert_double_eq_tol(out, W * H - 1, 1e-4);
}
END_TEST

/* Fractal terrain filled flat (lakes to resolve) or with a gradient, NaN
 * holes: the same bytes on 1, 2 and 4 threads, every interior cell
 * resolved, and the water conserved but for dropped shares. */
START_TEST(test_threads_and_flats)
{
	enum { S = 129 };
	static float z[S * S], a1[S * S], a2[S * S], s1[S * S], s2[S * S];
	tp_fill_opts fo = { TP_FILL_FLAT, 0 };
	tp_dinf_stats st;
	uint64_t seed = 11;
	double out;
	tp_err e;
	int t, i, th;

	for (t = 0; t < 4; t++) {
		tp_test_fractal(z, S, &seed, 0.6f);
		for (i = 0; i < 30 * (t % 2); i++)
			z[tp_test_rnd(&seed) % (S * S)] = NAN;
		fo.rule = t < 2 ? TP_FILL_FLAT : TP_FILL_NEXT;
		ck_assert_int_eq(tp_fill_pf(z, S, S, S, &fo, NULL, &e), 0);
		angles_of(z, S, S, &UNIT, a1, &st);
		ck_assert_int_eq(st.none, st.edge);
		ck_assert(t >= 2 || st.flats > 100);
		area_of(a1, S, S, &UNIT, TP_DINF_SCA, s1);
		for (th = 2; th <= 4; th += 2) {
			ck_assert_int_eq(tp_dinf_angles(z, S, NULL, S, S, &UNIT,
			    th, a2, S, NULL, &e), 0);
			ck_assert_mem_eq(a1, a2, sizeof a1);
			ck_assert_int_eq(tp_dinf_area(a1, S, S, S, &UNIT,
			    TP_DINF_SCA, th, s2, S, &e), 0);
			ck_assert_mem_eq(s1, s2, sizeof s1);
		}
		for (out = 0, i = 0; i < S * S; i++)
			if (a1[i] == TP_DINF_NONE)
				out += s1[i];
		ck_assert_double_eq_tol(out, st.valid, st.valid * 1e-4);
	}
}
END_TEST

/* Sea cells (dir TP_D8_SEA) have no direction and keep their water. */
START_TEST(test_sea)
{
	enum { W = 6, H = 5 };
	float z[W * H], ang[W * H];
	uint8_t dir[W * H];
	tp_err e;
	int x, y;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			z[y * W + x] = (float)(x - 2);
	ck_assert_int_eq(tp_flow_d8_sea(z, W, H, W, &UNIT, 0, 1, dir, NULL,
	    &e), 0);
	ck_assert_int_eq(tp_dinf_angles(z, W, NULL, W, H, &UNIT, 1, ang, W,
	    NULL, &e), 0);
	ck_assert_float_eq(ang[2 * W + 1], (float)M_PI);
	ck_assert_int_eq(tp_dinf_angles(z, W, dir, W, H, &UNIT, 1, ang, W,
	    NULL, &e), 0);
	ck_assert_float_eq(ang[2 * W + 1], TP_DINF_NONE);	/* sea */
	ck_assert_float_eq(ang[2 * W + 3], (float)M_PI);	/* land */
}
END_TEST

/* The shares of areadinf's prop(). */
START_TEST(test_share)
{
	ck_assert_double_eq(tp_dinf_share(0, 1, 1, 1), 1);
	ck_assert_double_eq(tp_dinf_share(0, 8, 1, 1), 0);
	ck_assert_double_eq(tp_dinf_share(TP_DINF_NONE, 1, 1, 1), 0);
	ck_assert_double_eq(tp_dinf_share(NAN, 1, 1, 1), 0);
	ck_assert_double_eq(tp_dinf_share(1, 0, 1, 1), 0);
	ck_assert_double_eq(tp_dinf_share(1, 9, 1, 1), 0);
	ck_assert_double_eq_tol(tp_dinf_share((float)(M_PI / 8), 1, 1, 1), 0.5,
	    1e-7);
	ck_assert_double_eq_tol(tp_dinf_share((float)(M_PI / 8), 8, 1, 1), 0.5,
	    1e-7);
	/* just below east, counter-clockwise from the south-east */
	ck_assert_double_eq_tol(tp_dinf_share((float)(2 * M_PI - M_PI / 16),
	    1, 1, 1), 0.75, 1e-6);
	ck_assert_double_eq_tol(tp_dinf_share((float)(2 * M_PI - M_PI / 16),
	    2, 1, 1), 0.25, 1e-6);
	/* cells twice as high as wide: the north-east is atan2(2, 1) */
	ck_assert_double_ge(tp_dinf_share((float)atan2(2, 1), 8, 1, 2),
	    1 - 1e-6);
	ck_assert_double_eq(tp_dinf_share(1e-6f, 8, 1, 1), 0);	/* < 1e-5 */
}
END_TEST

/* Geographic cells: a cell adds its row's width in metres. */
START_TEST(test_geographic)
{
	enum { W = 5, H = 6 };
	const tp_geo_grid g = { 0.01, 60, 1 };
	float z[W * H], ang[W * H], sca[W * H];
	double dx, dy, sum = 0;
	int x, y;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			z[y * W + x] = (float)(-10 * y);
	angles_of(z, W, H, &g, ang, NULL);
	area_of(ang, W, H, &g, TP_DINF_SCA, sca);
	for (y = 1; y < H; y++) {
		tp_geo_spacing(&g, y, &dx, &dy);
		sum += dx;
		ck_assert_double_eq_tol(sca[y * W + 2], sum, sum * 1e-6);
	}
}
END_TEST

START_TEST(test_errors)
{
	float z[4] = { 0 }, a[4];
	tp_err e;

	ck_assert_int_eq(tp_dinf_angles(z, 2, NULL, 0, 2, &UNIT, 1, a, 2,
	    NULL, &e), -1);
	ck_assert_int_eq(tp_dinf_area(z, 1, 2, 2, &UNIT, TP_DINF_SCA, 1, a, 2,
	    &e), -1);
}
END_TEST

/* The facet slope of a plane z = a x + b y is its gradient's length,
 * sqrt(a^2 + b^2), on every interior cell: the facets are exact on a
 * plane. On the west border, downhill is west, off the grid: its facets
 * inside see the fall south alone, 1 in 2 m. Flat ground has 0, a NaN
 * cell NaN. */
START_TEST(test_slopes)
{
	enum { W = 5, H = 4 };
	float z[W * H], slp[W * H];
	tp_geo_grid g = { 2, 0, 0 };
	tp_err e;
	int i;

	for (i = 0; i < W * H; i++)
		z[i] = (float)(3 * (i % W) - 1 * (i / W));
	ck_assert_int_eq(tp_dinf_slopes(z, W, W, H, &g, 1, slp, W, &e), 0);
	for (i = 0; i < W * H; i++)
		if (i % W > 0 && i % W < W - 1 && i / W > 0 && i / W < H - 1)
			ck_assert_float_eq_tol(slp[i], sqrt(9 + 1) / 2, 1e-6);
	ck_assert_float_eq(slp[W], 0.5);
	for (i = 0; i < W * H; i++)
		z[i] = 7;
	z[7] = NAN;
	ck_assert_int_eq(tp_dinf_slopes(z, W, W, H, &g, 1, slp, W, &e), 0);
	ck_assert(isnan(slp[7]));
	ck_assert_float_eq(slp[0], 0);
	ck_assert_float_eq(slp[12], 0);
}
END_TEST

/* tp_dinf_split names the neighbours tp_dinf_share gives a share to, with
 * those shares, for angles all round and cells of unequal sides. */
START_TEST(test_split_dirs)
{
	tp_dinf_dirs d;
	double p[2], sum;
	int k[2], i, j, n, m;
	float a;

	tp_dinf_dirs_of(3, 2, &d);
	for (i = 0; i < 720; i++) {
		a = (float)(i * M_PI / 360);
		n = tp_dinf_split(&d, a, k, p);
		ck_assert(n >= 1 && n <= 2);
		for (j = 1, m = 0, sum = 0; j <= 8; j++)
			if (tp_dinf_share(a, j, 3, 2) > 0) {
				ck_assert_int_eq(k[m], j);
				ck_assert(p[m] == tp_dinf_share(a, j, 3, 2));
				sum += p[m++];
			}
		ck_assert_int_eq(m, n);
		ck_assert(fabs(sum - 1) < 1e-4);
	}
	ck_assert_int_eq(tp_dinf_split(&d, TP_DINF_NONE, k, p), 0);
}
END_TEST

static Suite *
dinf_suite(void)
{
	Suite *s = suite_create("dinf");
	TCase *core = tcase_create("core");

	tcase_add_test(core, test_plane_angles);
	tcase_add_test(core, test_facet_directions);
	tcase_add_test(core, test_south_sca);
	tcase_add_test(core, test_split);
	tcase_add_test(core, test_pyramid);
	tcase_add_test(core, test_flat_terrace);
	tcase_add_test(core, test_nan);
	tcase_add_test(core, test_threads_and_flats);
	tcase_add_test(core, test_sea);
	tcase_add_test(core, test_share);
	tcase_add_test(core, test_geographic);
	tcase_add_test(core, test_errors);
	tcase_add_test(core, test_slopes);
	tcase_add_test(core, test_split_dirs);
	tcase_set_timeout(core, 60);
	suite_add_tcase(s, core);
	return s;
}

int
main(void)
{
	return tp_test_run(dinf_suite());
}
