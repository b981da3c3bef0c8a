/* check_noise.c - unit tests of the noise module (lattice, fades, fBm, rows). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/tp_noise.h"
#include "tp_test.h"
#include "tp_test_simd.h"

#define NK 3

/* Hashes and values worked out with an independent Python model of the
 * formula in tp_noise.c (mix32 of ix*PX ^ iy*PY ^ seed word). */
static const struct { int32_t ix, iy; uint32_t seed, hash; double value; }
lattice[] = {
	{ 0, 0, 0, 0x8f9a5fb1u, 0.5609492659568787 },
	{ 1, 2, 3, 0xa7a0885fu, 0.6547932624816895 },
	{ -5, 7, 42, 0xaabdd454u, 0.6669590473175049 },
	{ INT32_MIN, INT32_MAX, UINT32_MAX, 0x24aeff6du, 0.14329522848129272 },
};

START_TEST(test_lattice_value)
{
	uint32_t h = tp_noise_lattice_hash(lattice[_i].ix, lattice[_i].iy,
	    lattice[_i].seed);

	ck_assert_uint_eq(h, lattice[_i].hash);
	/* top 24 bits / 2^24 */
	ck_assert_double_eq(tp_noise_lattice_value(lattice[_i].ix,
	    lattice[_i].iy, lattice[_i].seed), (double)(h >> 8) / 16777216.0);
	ck_assert_double_eq_tol(tp_noise_lattice_value(lattice[_i].ix,
	    lattice[_i].iy, lattice[_i].seed), lattice[_i].value, 1e-15);
}
END_TEST

START_TEST(test_value_on_lattice)
{
	/* On a lattice point value noise is the lattice value, any fade. */
	for (int f = 0; f < 3; f++)
		for (int y = -20; y <= 20; y += 3)
			for (int x = -20; x <= 20; x += 3)
				ck_assert_double_eq(tp_noise2(TP_NOISE_VALUE,
				    (tp_noise_fade)f, 9, x, y),
				    tp_noise_lattice_value(x, y, 9));
}
END_TEST

START_TEST(test_gradient_zero_on_lattice)
{
	for (uint32_t seed = 0; seed < 5; seed++)
		for (int y = -60; y <= 60; y++)
			for (int x = -60; x <= 60; x++)
				ck_assert(tp_noise2(TP_NOISE_GRADIENT,
				    TP_FADE_QUINTIC, seed, x, y) == 0.0);
}
END_TEST

START_TEST(test_gradient_hand_values)
{
	/* float32 model in Python of the four dot products, quintic fade,
	 * bilinear blend and the sqrt 2 scale */
	ck_assert_double_eq_tol(tp_noise2(TP_NOISE_GRADIENT, TP_FADE_QUINTIC,
	    7, 0.5, 0.25), 0.11097694933414459, 1e-9);
	ck_assert_double_eq_tol(tp_noise2(TP_NOISE_GRADIENT, TP_FADE_QUINTIC,
	    1, -3.75, 2.5), -0.6241229772567749, 1e-9);
}
END_TEST

START_TEST(test_fades)
{
	/* cubic 0.01^2 (3 - 0.02) = 2.98e-4; quintic
	 * 1e-6 (0.01 (0.06 - 15) + 10) = 9.8506e-6: about 1/30 of cubic */
	ck_assert_double_eq_tol(tp_noise_fade_apply(TP_FADE_CUBIC, 0.01),
	    2.98e-4, 1e-15);
	ck_assert_double_eq_tol(tp_noise_fade_apply(TP_FADE_QUINTIC, 0.01),
	    9.8506e-6, 1e-15);
	ck_assert_double_eq_tol(tp_noise_fade_apply(TP_FADE_QUINTIC, 0.01) /
	    tp_noise_fade_apply(TP_FADE_CUBIC, 0.01), 1.0 / 30.0, 0.0005);
	ck_assert_double_eq(tp_noise_fade_apply(TP_FADE_LINEAR, 0.3), 0.3);
	for (int f = 0; f < 3; f++) {
		ck_assert_double_eq(tp_noise_fade_apply((tp_noise_fade)f, 0.0),
		    0.0);
		ck_assert_double_eq(tp_noise_fade_apply((tp_noise_fade)f, 0.5),
		    0.5);
		ck_assert_double_eq(tp_noise_fade_apply((tp_noise_fade)f, 1.0),
		    1.0);
	}
}
END_TEST

START_TEST(test_floor_split)
{
	/* x = -0.5 lies in cell -1 (floor), halfway: the mean of the lattice
	 * values at -1 and 0 with a linear fade. A truncating cast would
	 * pick cell 0 with fraction -0.5. */
	ck_assert_double_eq_tol(tp_noise2(TP_NOISE_VALUE, TP_FADE_LINEAR, 5,
	    -0.5, 0.0), 0.476571261882782, 1e-7);
	ck_assert_double_eq_tol(tp_noise2(TP_NOISE_VALUE, TP_FADE_LINEAR, 5,
	    -0.5, 0.0), (tp_noise_lattice_value(-1, 0, 5) +
	    tp_noise_lattice_value(0, 0, 5)) / 2, 1e-7);
}
END_TEST

START_TEST(test_continuity_at_zero)
{
	/* No seam at the origin, for every kind, in x and in y. */
	for (int k = 0; k < NK; k++)
		for (double y = -2.3; y < 2.5; y += 0.37) {
			double a = tp_noise2((tp_noise_kind)k, TP_FADE_QUINTIC,
			    3, -1e-7, y);
			double b = tp_noise2((tp_noise_kind)k, TP_FADE_QUINTIC,
			    3, 1e-7, y);
			double c = tp_noise2((tp_noise_kind)k, TP_FADE_QUINTIC,
			    3, y, -1e-7);
			double d = tp_noise2((tp_noise_kind)k, TP_FADE_QUINTIC,
			    3, y, 1e-7);

			ck_assert_double_eq_tol(a, b, 1e-5);
			ck_assert_double_eq_tol(c, d, 1e-5);
		}
}
END_TEST

/* Pearson correlation of two samples. */
static double
correlation(const double *a, const double *b, int n)
{
	double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;

	for (int i = 0; i < n; i++) {
		ma += a[i] / n;
		mb += b[i] / n;
	}
	for (int i = 0; i < n; i++) {
		sab += (a[i] - ma) * (b[i] - mb);
		saa += (a[i] - ma) * (a[i] - ma);
		sbb += (b[i] - mb) * (b[i] - mb);
	}
	return sab / sqrt(saa * sbb);
}

START_TEST(test_octaves_decorrelated)
{
	/* Octave 2 at 2p against octave 1 at p: with one seed for both they
	 * would be the same field (correlation 1); the seed step 1013 makes
	 * them independent. */
	enum { N = 4000 };
	static double a[N], b[N], c[N];

	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < N; i++) {
			double x = (i % 63) * 0.731 - 20, y = (i / 63) * 0.613 - 20;

			a[i] = tp_noise2((tp_noise_kind)k, TP_FADE_QUINTIC, 11, x, y);
			b[i] = tp_noise2((tp_noise_kind)k, TP_FADE_QUINTIC,
			    11 + TP_OCTAVE_SEED_STEP, x, y);
			c[i] = tp_noise2((tp_noise_kind)k, TP_FADE_QUINTIC, 11, x, y);
		}
		ck_assert_double_eq_tol(correlation(a, c, N), 1.0, 1e-12);
		ck_assert_double_lt(fabs(correlation(a, b, N)), 0.1);
	}
}
END_TEST

START_TEST(test_unnormalised_bound)
{
	/* Five octaves at persistence 0.5 sum to at most 1 + .5 + .25 +
	 * .125 + .0625 = 1.9375 (value noise, unnormalised); normalised the
	 * result stays in [0, 1]. */
	tp_noise_fbm p;
	double lo = 9, hi = -9;

	tp_noise_fbm_defaults(&p);
	p.kind = TP_NOISE_VALUE;
	p.octaves = 5;
	p.frequency = 1.0 / 16;
	p.normalize = 0;
	for (int y = 0; y < 200; y++)
		for (int x = 0; x < 200; x++) {
			double v = tp_noise_fbm_at(&p, x + 0.5, y + 0.5);

			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
	ck_assert_double_ge(lo, 0.0);
	ck_assert_double_lt(hi, 1.9375);
	ck_assert_double_gt(hi, 1.0);	/* it does leave [0, 1] */
	p.normalize = 1;
	for (int k = 0; k < NK; k++) {
		p.kind = (tp_noise_kind)k;
		for (int y = 0; y < 100; y++)
			for (int x = 0; x < 100; x++) {
				double v = tp_noise_fbm_at(&p, x * 1.7,
				    y * 1.3);

				ck_assert(v >= 0.0 && v <= 1.0);
			}
	}
}
END_TEST

START_TEST(test_range_one_octave)
{
	for (int k = 0; k < NK; k++) {
		double lo = 9, hi = -9;

		for (int i = 0; i < 40000; i++) {
			double v = tp_noise2((tp_noise_kind)k, TP_FADE_QUINTIC, 4,
			    (i % 200) * 0.113, (i / 200) * 0.097);

			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
		if (k == TP_NOISE_VALUE) {
			ck_assert_double_ge(lo, 0.0);
			ck_assert_double_lt(hi, 1.0);
		} else {
			ck_assert_double_ge(lo, -1.0);
			ck_assert_double_le(hi, 1.0);
			ck_assert_double_lt(lo, -0.4);	/* it fills the range */
			ck_assert_double_gt(hi, 0.4);
		}
	}
}
END_TEST

/* Settings the row tests run through. */
static void
variant(tp_noise_fbm *p, int v)
{
	tp_noise_fbm_defaults(p);
	p->kind = (tp_noise_kind)(v % 3);
	p->fade = (tp_noise_fade)((v / 3) % 3);
	p->octaves = 1 + v % 9;
	p->seed = (uint32_t)v * 2654435761u;
	p->normalize = (v / 9) % 2 == 0;
	p->frequency = (v % 4 == 0) ? 0.7 : (v % 4 == 1) ? 1.0 / 37 :
	    (v % 4 == 2) ? 2.5 : 1.0 / 300;
	if ((v / 18) % 2) {
		p->warp = 40.0;
		p->warp_octaves = 1 + v % 3;
	}
}

START_TEST(test_row_matches_point)
{
	/* The row function gives the point function's bytes at the cell
	 * centres, for every kind, fade and warp, both paths. */
	enum { N = 301 };
	float row[N], pt;
	tp_noise_fbm p;

	for (int v = 0; v < 36; v++) {
		variant(&p, v);
		for (int simd = 0, top = p.simd; simd <= top; simd++) {
			p.simd = simd;
			tp_noise_fbm_row(&p, -1234.5, -17, 3.0, 77.25, row, N);
			for (int i = 0; i < N; i++) {
				pt = (float)tp_noise_fbm_at(&p,
				    tp_noise_centre(-1234.5, -17 + i, 3.0),
				    77.25);
				ck_assert_msg(memcmp(&pt, &row[i], 4) == 0,
				    "variant %d simd %d cell %d: %.9g != %.9g",
				    v, simd, i, pt, row[i]);
			}
		}
	}
}
END_TEST

START_TEST(test_noise_row_is_point)
{
	/* One octave along a row gives tp_noise2's bytes at xs[i] * freq,
	 * y * freq for every kind, fade, seed and frequency, at both SIMD
	 * levels, over blocks and a ragged tail (N is not a multiple of 8),
	 * near the origin, far out and past the coordinate clamp. */
	enum { N = 533 };
	static const uint32_t seeds[] = { 0, 7, 1013, 0xffffffffu };
	static const double freqs[] = { 1.0 / 256.0, 0.37, 3.1 };
	static const double x0s[] = { -1234.5, 3.3e8 + 0.1 }, css[] = { 0.7,
		1e3 };
	static double xs[N];
	static float row[N];

	for (int o = 0; o < 2; o++) {
		tp_noise_centres(x0s[o], -17, css[o], xs, N);
		for (int c = 0; c < NK * 3 * 4 * 3 * 2; c++) {
			tp_noise_kind k = (tp_noise_kind)(c % NK);
			tp_noise_fade f = (tp_noise_fade)(c / NK % 3);
			uint32_t seed = seeds[c / 9 % 4];
			double fr = freqs[c / 36 % 3], y = -x0s[o] / 3 + 0.25;
			tp_simd_level simd = c / 108 ? tp_simd_probe() :
			    TP_SIMD_SCALAR;

			tp_noise_row(k, f, seed, fr, xs, y, row, N, simd);
			for (int i = 0; i < N; i++) {
				float pt = (float)tp_noise2(k, f, seed,
				    xs[i] * fr, y * fr);

				ck_assert_msg(memcmp(&pt, &row[i], 4) == 0,
				    "origin %d case %d cell %d: %.9g != %.9g",
				    o, c, i, pt, row[i]);
			}
		}
	}
}
END_TEST

START_TEST(test_centres_and_xs_row)
{
	/* tp_noise_centres gives tp_noise_centre's doubles, and the fBm of
	 * those points (tp_noise_fbm_row_xs) tp_noise_fbm_row's bytes. */
	enum { N = 517 };
	static double xs[N];
	static float a[N], b[N];
	tp_noise_fbm p;

	tp_noise_centres(-1234.56, -40, 0.3, xs, N);
	for (int i = 0; i < N; i++)
		ck_assert_msg(xs[i] == tp_noise_centre(-1234.56, -40 + i, 0.3),
		    "cell %d", i);
	for (int v = 0; v < 36; v++) {
		variant(&p, v);
		tp_noise_fbm_row(&p, -1234.56, -40, 0.3, 81.5, a, N);
		tp_noise_fbm_row_xs(&p, xs, 81.5, b, N);
		ck_assert_msg(memcmp(a, b, sizeof(a)) == 0, "variant %d", v);
	}
}
END_TEST

START_TEST(test_tile_split)
{
	/* A row made in two pieces, the second with its origin shifted by
	 * whole cells, gives the same bytes as one long row, even where
	 * origin + k cs is not exact in binary. */
	enum { N = 500, K = 173 };
	static const double x0s[] = { 0.3, 500000.0, -1234.56, 1e7, 3.3e6 + 0.1 },
	    cs[] = { 0.1, 30.0, 0.3, 12.5, 0.7 };
	float whole[N], part[N];
	tp_noise_fbm p;

	/* (the last origin is far out and not exact: a naive origin +
	 * (index + 0.5) cs differs there in the last bits, which shows) */
	for (int v = 0; v < 36; v += 5)
		for (int o = 0; o < 5; o++) {
			variant(&p, v);
			tp_noise_fbm_row(&p, x0s[o], 0, cs[o], 5.5, whole, N);
			tp_noise_fbm_row(&p, x0s[o], 0, cs[o], 5.5, part, K);
			tp_noise_fbm_row(&p, x0s[o] + K * cs[o], 0, cs[o], 5.5,
			    part + K, N - K);
			ck_assert_msg(memcmp(whole, part, sizeof(whole)) == 0,
			    "variant %d origin %d", v, o);
			for (int i = 0; i < 50; i++)
				ck_assert(tp_noise_centre(x0s[o], K + i, cs[o]) ==
				    tp_noise_centre(x0s[o] + K * cs[o], i, cs[o]));
		}
}
END_TEST

START_TEST(test_centre)
{
	ck_assert_double_eq(tp_noise_centre(0.0, 0, 1.0), 0.5);
	ck_assert_double_eq(tp_noise_centre(500000.0, 3, 30.0), 500105.0);
	ck_assert_double_eq(tp_noise_centre(100.0, -1, 1.0), 99.5);
	ck_assert_double_eq(tp_noise_centre(-10.0, 4, 0.5), -7.75);
	ck_assert_double_eq_tol(tp_noise_centre(0.3, 100, 0.1), 10.35, 1e-12);
	/* origins half a cell off the grid: ties must fall the same way for
	 * every shift (rint's round-half-even would alternate) */
	for (int k = -7; k <= 7; k++)
		for (int i = -3; i < 9; i++) {
			ck_assert(tp_noise_centre(0.5, k + i, 1.0) ==
			    tp_noise_centre(0.5 + k, i, 1.0));
			ck_assert(tp_noise_centre(0.15, k + i, 0.3) ==
			    tp_noise_centre(0.15 + k * 0.3, i, 0.3));
			ck_assert(tp_noise_centre(-2.5, k + i, 0.25) ==
			    tp_noise_centre(-2.5 + k * 0.25, i, 0.25));
		}
}
END_TEST

START_TEST(test_printed_origins)
{
	/* A degree grid (the Jacksboro DEM: 1/1200 degree cells, origins on
	 * half cells) cut into tiles whose origins were printed with 12
	 * significant digits: every tile's centres are the large run's. */
	static const double ox[] = { -84.41375, 36.73291666666667, 0.15, 500000 },
	    cs[] = { 0.0008333333333333334, 0.0008333333333333334, 0.3, 30 };
	char buf[64];

	for (int o = 0; o < 4; o++)
		for (int k = -1000; k <= 1000; k += 7) {
			double t;

			snprintf(buf, sizeof(buf), "%.12g", ox[o] + k * cs[o]);
			t = strtod(buf, NULL);
			for (int i = 0; i < 3; i++)
				ck_assert_msg(tp_noise_centre(ox[o], k + i, cs[o]) ==
				    tp_noise_centre(t, i, cs[o]), "%d %s", o, buf);
		}
}
END_TEST

START_TEST(test_sane)
{
	ck_assert_double_eq(tp_noise_sane(NAN), 0.0);
	ck_assert_double_eq(tp_noise_sane(1e300), TP_NOISE_COORD_MAX);
	ck_assert_double_eq(tp_noise_sane(-INFINITY), -TP_NOISE_COORD_MAX);
	ck_assert_double_eq(tp_noise_sane(-123.25), -123.25);
	for (int k = 0; k < NK; k++) {
		double n = tp_noise2((tp_noise_kind)k, TP_FADE_QUINTIC, 1, NAN, 2.5);

		ck_assert(isfinite(n));
		ck_assert_double_eq(n, tp_noise2((tp_noise_kind)k,
		    TP_FADE_QUINTIC, 1, 0.0, 2.5));
		ck_assert_double_eq(tp_noise2((tp_noise_kind)k, TP_FADE_QUINTIC,
		    1, 1e15, -1e15), tp_noise2((tp_noise_kind)k,
		    TP_FADE_QUINTIC, 1, 1e9, -1e9));
	}
}
END_TEST

START_TEST(test_far_detail)
{
	/* 10^7 cells from the origin the noise still varies smoothly from
	 * cell to cell (double coordinates until the lattice split). */
	tp_noise_fbm p;
	float row[64];
	int changes = 0;

	tp_noise_fbm_defaults(&p);
	p.frequency = 0.2;
	p.octaves = 3;
	tp_noise_fbm_row(&p, 1e7, 0, 1.0, 1e7 + 0.5, row, 64);
	for (int i = 1; i < 64; i++) {
		changes += row[i] != row[i - 1];
		ck_assert_float_eq_tol(row[i], row[i - 1], 0.2);
	}
	ck_assert_int_eq(changes, 63);
}
END_TEST

START_TEST(test_octave_clamp)
{
	tp_noise_fbm p, q;

	tp_noise_fbm_defaults(&p);
	tp_noise_fbm_defaults(&q);
	p.octaves = 99;
	q.octaves = 16;
	ck_assert_double_eq(tp_noise_fbm_at(&p, 3.5, 4.5), tp_noise_fbm_at(&q,
	    3.5, 4.5));
	p.octaves = 0;
	q.octaves = 1;
	ck_assert_double_eq(tp_noise_fbm_at(&p, 3.5, 4.5), tp_noise_fbm_at(&q,
	    3.5, 4.5));
}
END_TEST

START_TEST(test_degenerate)
{
	/* Nothing to write, a zero or NaN cell size: no crash, finite. */
	tp_noise_fbm p;
	float out[9] = { 0 };

	tp_noise_fbm_defaults(&p);
	tp_noise_fbm_row(&p, 0, 0, 1.0, 0.5, out, 0);
	ck_assert_float_eq(out[0], 0.0f);
	tp_noise_fbm_row(&p, 0, 0, 0.0, 0.5, out, 9);
	tp_noise_fbm_row(&p, 0, 0, NAN, NAN, out, 9);
	for (int i = 0; i < 9; i++)
		ck_assert(out[i] >= 0.0f && out[i] <= 1.0f);
}
END_TEST

/* A periodic fBm of kind k: 4 octaves at 1/16 (3 x 2 lattice cells of the
 * first octave in a period of 48 x 32 map units; the warp fields at 1/16
 * too), warped when warp. */
static void
periodic(tp_noise_fbm *p, int k, int warp)
{
	tp_noise_fbm_defaults(p);
	p->kind = (tp_noise_kind)k;
	p->octaves = 4;
	p->frequency = 1.0 / 16.0;
	p->seed = 11;
	p->period_x = 48.0;
	p->period_y = 32.0;
	p->warp = warp ? 6.0 : 0.0;
	p->warp_frequency = 1.0 / 16.0;
}

START_TEST(test_period_points)
{
	/* The lattice is hashed modulo the period: points a period apart
	 * (binary fractions, so x + 48 is exact in lattice units too) give
	 * the same bytes, unwarped, and warped within rounding (the warp
	 * offset added to x and to x + 48 rounds at different exponents). */
	enum { N = 96 };
	double xs[N], xp[N];
	float a[N], b[N], c[N];
	tp_noise_fbm p;

	for (int i = 0; i < N; i++) {
		xs[i] = -20.25 + 0.75 * i;
		xp[i] = xs[i] + 48.0;
	}
	for (int k = 0; k < 2; k++)
	for (int w = 0; w < 2; w++) {
		periodic(&p, k, w);
		tp_noise_fbm_row_xs(&p, xs, 5.125, a, N);
		tp_noise_fbm_row_xs(&p, xp, 5.125, b, N);
		tp_noise_fbm_row_xs(&p, xs, 5.125 - 64.0, c, N);
		for (int i = 0; i < N; i++) {
			if (w) {
				ck_assert_float_eq_tol(a[i], b[i], 1e-5);
				ck_assert_float_eq_tol(a[i], c[i], 1e-5);
			} else {
				ck_assert_msg(a[i] == b[i] && a[i] == c[i],
				    "kind %d cell %d: %.9g %.9g %.9g", k, i,
				    a[i], b[i], c[i]);
			}
		}
	}
}
END_TEST

START_TEST(test_period_not_before)
{
	/* Without the period the same points differ: the test above sees
	 * the period, not a lattice that happens to repeat. */
	double xs[8], xp[8];
	float a[8], b[8];
	tp_noise_fbm p;
	int same = 0;

	periodic(&p, TP_NOISE_GRADIENT, 0);
	p.period_x = p.period_y = 0.0;
	for (int i = 0; i < 8; i++) {
		xs[i] = 0.5 + 5.0 * i;
		xp[i] = xs[i] + 48.0;
	}
	tp_noise_fbm_row_xs(&p, xs, 5.125, a, 8);
	tp_noise_fbm_row_xs(&p, xp, 5.125, b, 8);
	for (int i = 0; i < 8; i++)
		same += a[i] == b[i];
	ck_assert_int_lt(same, 2);
}
END_TEST

START_TEST(test_period_row_wrap)
{
	/* tp_noise_fbm_row takes cells modulo the period: columns 160 apart
	 * give the same bytes on a grid whose origin is not a binary fraction,
	 * at every vector level, and rows from tp_noise_centre_wrap too. */
	enum { N = 400 };
	const double cs = 30.0, ox = 500000.3, oy = 4650000.7;
	float ref[N], row[N], up[N];
	tp_noise_fbm p;

	for (int k = 0; k < 2; k++) {
		periodic(&p, k, 1);
		p.frequency = 3.0 / (160.0 * cs);
		p.warp_frequency = 0.0;
		p.warp = 0.4 / p.frequency;
		p.period_x = 160.0 * cs;
		p.period_y = 320.0 * cs;
		ck_assert_int_eq(tp_noise_fbm_period_check(&p, cs, NULL), 0);
		for (int simd = 0, top = p.simd; simd <= top; simd++) {
			p.simd = simd;
			tp_noise_fbm_row(&p, ox, 0, cs, tp_noise_centre_wrap(oy,
			    -8, cs, 320), row, N);
			tp_noise_fbm_row(&p, ox, 0, cs, tp_noise_centre_wrap(oy,
			    -8 - 320 * 3, cs, 320), up, N);
			if (simd == 0)
				memcpy(ref, row, sizeof(ref));
			ck_assert_mem_eq(row, ref, sizeof(ref));
			ck_assert_mem_eq(up, ref, sizeof(ref));
			ck_assert_mem_eq(row, row + 160, 240 * sizeof(float));
		}
	}
}
END_TEST

START_TEST(test_period_seam)
{
	/* The left column continues the right one: across the wrap the step
	 * from one cell to the next is no larger than the steps inside. */
	enum { N = 320 };
	float row[N];
	tp_noise_fbm p;

	for (int k = 0; k < 2; k++) {
		double seam, inside = 0.0;

		periodic(&p, k, 0);
		p.octaves = 1;
		p.period_x = 160.0;
		p.frequency = 1.0 / 16.0;
		tp_noise_fbm_row(&p, 0.0, 0, 1.0, 3.5, row, N);
		seam = fabs(row[160] - row[159]);
		for (int i = 1; i < 160; i++)
			if (fabs(row[i] - row[i - 1]) > inside)
				inside = fabs(row[i] - row[i - 1]);
		ck_assert_msg(seam <= inside, "kind %d: seam %g, inside %g",
		    k, seam, inside);
	}
}
END_TEST

START_TEST(test_period_check)
{
	tp_noise_fbm p;
	tp_err e;

	periodic(&p, TP_NOISE_GRADIENT, 1);
	ck_assert_int_eq(tp_noise_fbm_period_check(&p, 1.0, &e), 0);
	ck_assert_int_eq(tp_noise_fbm_period_check(&p, 2.0, &e), 0);
	/* not a whole number of cells of 5 */
	ck_assert_int_eq(tp_noise_fbm_period_check(&p, 5.0, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "cells"));
	p.kind = TP_NOISE_SIMPLEX;
	ck_assert_int_eq(tp_noise_fbm_period_check(&p, 1.0, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "simplex"));
	periodic(&p, TP_NOISE_VALUE, 0);
	p.lacunarity = 2.5;
	ck_assert_int_eq(tp_noise_fbm_period_check(&p, 1.0, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "lacunarity 2"));
	p.octaves = 1;		/* one octave: any lacunarity */
	ck_assert_int_eq(tp_noise_fbm_period_check(&p, 1.0, &e), 0);
	periodic(&p, TP_NOISE_VALUE, 0);
	p.frequency = 1.0 / 20.0;	/* 2.4 lattice cells in 48 */
	ck_assert_int_eq(tp_noise_fbm_period_check(&p, 1.0, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "2.4 lattice cells"));
	periodic(&p, TP_NOISE_VALUE, 1);
	p.warp_frequency = 1.0 / 20.0;	/* the warp fields must tile too */
	ck_assert_int_eq(tp_noise_fbm_period_check(&p, 1.0, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "warp"));
	p.warp = 0.0;		/* unwarped: their frequency is unused */
	ck_assert_int_eq(tp_noise_fbm_period_check(&p, 1.0, &e), 0);
	periodic(&p, TP_NOISE_VALUE, 0);
	p.period_y = 0.0;
	ck_assert_int_eq(tp_noise_fbm_period_check(&p, 1.0, &e), -1);
	p.period_x = 0.0;	/* no period at all */
	ck_assert_int_eq(tp_noise_fbm_period_check(&p, 1.0, &e), 0);
	periodic(&p, TP_NOISE_VALUE, 0);
	p.octaves = 16;
	p.frequency = 1.0;	/* 48 << 15 lattice cells: too many */
	p.period_x = 65536.0;
	ck_assert_int_eq(tp_noise_fbm_period_check(&p, 1.0, &e), -1);
}
END_TEST

START_TEST(test_centre_wrap)
{
	/* Cells a period apart share a centre; period 0 is tp_noise_centre;
	 * a shifted origin with the index shifted back gives the same. */
	for (int64_t i = -300; i < 300; i += 7) {
		ck_assert_double_eq(tp_noise_centre_wrap(100.25, i, 0.5, 12),
		    tp_noise_centre_wrap(100.25, i + 36, 0.5, 12));
		ck_assert_double_eq(tp_noise_centre_wrap(100.25, i, 0.5, 12),
		    tp_noise_centre_wrap(100.25 + 5 * 0.5, i - 5, 0.5, 12));
		ck_assert_double_eq(tp_noise_centre_wrap(-7.3, i, 30.0, 0),
		    tp_noise_centre(-7.3, i, 30.0));
	}
}
END_TEST

static void
run_fbm(void *ctx, tp_simd_level l, float *out, size_t n)
{
	/* near the origin, far out and past the coordinate clamp */
	static const double x0s[TP_TEST_SIMD_ROWS] = { -1234.5, 0.0, -7e6,
		3.3e8, -1e12 };
	static const double cs[TP_TEST_SIMD_ROWS] = { 3.0, 1.0, 30.0, 0.1,
		1e3 };
	tp_noise_fbm *p = ctx;

	p->simd = l;
	for (int r = 0; r < TP_TEST_SIMD_ROWS; r++)
		tp_noise_fbm_row(p, x0s[r], -17, cs[r], 77.25 - x0s[r] / 3,
		    out + (size_t)r * TP_TEST_SIMD_N, TP_TEST_SIMD_N);
}

/* The same bytes at every vector level: every kind and fade, without
 * and with a domain warp. */
START_TEST(test_simd_levels)
{
	tp_noise_fbm p;

	tp_noise_fbm_defaults(&p);
	p.kind = (tp_noise_kind)(_i % 3);
	p.fade = (tp_noise_fade)(_i / 3 % 3);
	p.octaves = 4;
	p.frequency = 1.0 / 50.0;
	if (_i / 9)
		p.warp = 30.0;
	tp_test_same_at_levels(run_fbm, &p, (size_t)TP_TEST_SIMD_N *
	    TP_TEST_SIMD_ROWS, "noise", _i);
}
END_TEST

static Suite *
noise_suite(void)
{
	Suite *s = suite_create("noise");
	TCase *core = tcase_create("core"), *lim = tcase_create("limits"),
	    *err = tcase_create("errors");
	TCase *simd = tcase_create("simd");

	tcase_set_timeout(core, 60);
	tcase_set_timeout(lim, 60);
	tcase_add_loop_test(core, test_lattice_value, 0,
	    sizeof(lattice) / sizeof(lattice[0]));
	tcase_add_test(core, test_value_on_lattice);
	tcase_add_test(core, test_gradient_zero_on_lattice);
	tcase_add_test(core, test_gradient_hand_values);
	tcase_add_test(core, test_fades);
	tcase_add_test(core, test_floor_split);
	tcase_add_test(core, test_continuity_at_zero);
	tcase_add_test(core, test_octaves_decorrelated);
	tcase_add_test(core, test_unnormalised_bound);
	tcase_add_test(core, test_range_one_octave);
	tcase_add_test(core, test_row_matches_point);
	tcase_add_test(core, test_noise_row_is_point);
	tcase_add_test(core, test_centres_and_xs_row);
	tcase_add_test(core, test_tile_split);
	tcase_add_test(core, test_centre);
	tcase_add_test(core, test_printed_origins);
	tcase_add_test(core, test_period_points);
	tcase_add_test(core, test_period_not_before);
	tcase_add_test(core, test_period_row_wrap);
	tcase_add_test(core, test_period_seam);
	tcase_add_test(core, test_period_check);
	tcase_add_test(core, test_centre_wrap);
	tcase_add_test(lim, test_sane);
	tcase_add_test(lim, test_far_detail);
	tcase_add_test(lim, test_octave_clamp);
	tcase_add_test(err, test_degenerate);
	tcase_set_timeout(simd, 60);
	tcase_add_loop_test(simd, test_simd_levels, 0, 18);
	suite_add_tcase(s, core);
	suite_add_tcase(s, lim);
	suite_add_tcase(s, err);
	suite_add_tcase(s, simd);
	return s;
}

int
main(void)
{
	return tp_test_run(noise_suite());
}
